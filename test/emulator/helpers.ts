/** Shared test plumbing: start an emulator on port 0 and call it over real HTTP with undici. */
import { request } from "undici";
import { EmulatorOptions, RunningEmulator, startEmulator } from "../../emulator";

/** A parsed HTTP response. */
export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;

  body: any;
}

/** One emulator under test, with typed call helpers. */
export interface Harness {
  emu: RunningEmulator;
  /** An API call with the valid key (override with `headers`). */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  /** An admin door call (no key). */
  admin(method: string, path: string, body?: unknown): Promise<Res>;
  /** The admin state dump. */

  state(): Promise<any>;
  close(): Promise<void>;
}

/** Sends one request; a string body is sent as is (for malformed-input tests). */
export async function send(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Res> {
  const hasBody = body !== undefined;
  const res = await request(url, {
    method: method as "GET",
    headers: { ...(hasBody && typeof body !== "string" ? { "content-type": "application/json" } : {}), ...headers },
    body: hasBody ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined,
  });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, headers: res.headers, body: parsed };
}

/** Starts an emulator (default fixture unless given) with a fixed API key. */
export async function harness(options: EmulatorOptions = {}): Promise<Harness> {
  const emu = await startEmulator({ apiKey: "test-key-0123456789", ...options });
  return {
    emu,
    api: (method, path, body, headers = {}) =>
      send(emu.url + path, method, body, { "x-api-key": emu.apiKey, ...headers }),
    admin: (method, path, body) => send(emu.url + path, method, body),
    state: async () => (await send(emu.url + "/__emulator/state", "GET")).body,
    close: () => emu.close(),
  };
}

/**
 * One emulator for a whole suite (started before it, stopped after), reset to its fixture before
 * each test, with each admin path in `cleared` emptied too (the request log, the profile).
 */
export function suiteHarness(...cleared: string[]): Harness {
  let started: Harness | undefined;
  const current = (): Harness => {
    if (!started) throw new Error("the suite's emulator is not started: use the harness inside tests and hooks");
    return started;
  };
  beforeAll(async () => {
    started = await harness();
  });
  afterAll(() => started?.close());
  beforeEach(async () => {
    await current().admin("POST", "/__emulator/reset");
    for (const path of cleared) await current().admin("DELETE", path);
  });
  return {
    get emu() {
      return current().emu;
    },
    api: (...args) => current().api(...args),
    admin: (...args) => current().admin(...args),
    state: () => current().state(),
    close: () => current().close(),
  };
}

/** Asserts that every named field is present (not undefined) on `obj`. */
export function expectFields(obj: Record<string, unknown>, fields: string[]): void {
  const missing = fields.filter((f) => obj[f] === undefined);
  expect(missing).toEqual([]);
}

/** Asserts a `{result:"error", message}` body whose message contains every fragment. */
export function expectError(res: Res, status: number, ...fragments: string[]): void {
  expect({ status: res.status, result: res.body?.result }).toEqual({ status, result: "error" });
  for (const f of fragments) expect(res.body.message).toContain(f);
}

/** The read extensions (docs/design.md, "Single-object reads"): a path of each, and its operation. */
export const READ_EXTENSIONS: [path: string, operation: string][] = [
  ["/v2/zones/http/push/101", "GET /v2/zones/http/push/{zoneid}"],
  ["/v2/zones/vod/pull/401", "GET /v2/zones/vod/pull/{zoneid}"],
  ["/v2/streams/push/3001", "GET /v2/streams/push/{streamid}"],
  ["/v2/streams/timeshift/5001", "GET /v2/streams/timeshift/{streamid}"],
  ["/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d", "GET /v2/ad-manager/{pid}/campaigns/{cid}"],
  ["/v2/zones/vod/push/301/adinsertion", "GET /v2/zones/vod/push/{zoneid}/adinsertion"],
  ["/v2/zones/http/settings/security/domainlock", "GET /v2/zones/http/settings/security/domainlock"],
];
