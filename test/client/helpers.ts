/** Shared test fixtures: a client wired to an undici MockAgent, with waits recorded instead of slept. */
import { inspect } from "node:util";
import { MockAgent } from "undici";
import { CdnstreamClient, type ClientOptions } from "../../client";
import { stackWording } from "../../kinds/common/advice";

/** A key distinctive enough that any leak is found by substring search. */
export const KEY = "ck_live_7f3a9c1e5b2d4f60SECRET";
export const ORIGIN = "http://api.cdnstream.test";
export const JSON_HEADERS = { "content-type": "application/json" };

/** A client on a MockAgent; `sleeps` records every wait between retries (none is really slept). */
export function mockClient(options: Partial<ClientOptions> = {}) {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const sleeps: number[] = [];
  const client = new CdnstreamClient({
    // The advice a Pulumi user reads after the facts (kinds/common/advice.ts); a case may pass its own.
    ...stackWording(),
    apiKey: KEY,
    baseUrl: ORIGIN,
    env: {},
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 80,
    ...options,
  });
  const pool = agent.get(ORIGIN);
  const calls = () => agent.getCallHistory()?.calls() ?? [];
  return { agent, pool, client, sleeps, calls };
}

/** Every way an error can be shown; the key must appear in none of them. */
export function expectNoKey(value: unknown, key: string = KEY): void {
  const views = [JSON.stringify(value), inspect(value, { depth: 20, showHidden: true }), String(value)];
  if (value instanceof Error)
    views.push(value.message, value.stack ?? "", inspect(value.cause, { depth: 20, showHidden: true }));
  for (const view of views) expect(view).not.toContain(key);
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}

/** Minimal success bodies per operation, for tests that care about transport, not shape. */
export const ok = {
  dns: { result: "success", domains: [], nameservers: ["ns1.example.net"] },
  zone: { result: "success", message: "ok", zone: { id: 1, type: "push" }, warnings: [] },
  stream: { result: "success", message: "ok", stream: { id: 5, type: "timeshift", disabled: "0" } },
  requests: { result: "success", items: [], limit: 20, page: 1, pages: 1, total: 0 },
};
