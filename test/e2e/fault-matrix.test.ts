/**
 * The fault matrix: `pulumi up` of a stack holding every resource kind while the emulator
 * hits each kind's write with one fault at a time: 429 with Retry-After, 500, 502, 503, 504, a
 * dropped connection, and an answer slower than the client's timeout.
 *
 * Retriable faults are ridden out. The others fail that resource with a message naming the
 * operation, the status and what to do, while the rest of the stack deploys; a second `up`
 * without faults then converges. Either way the account ends up exactly as a fault-free run
 * leaves it (compared object by object, with the emulator's clock pinned), so nothing is
 * duplicated, lost or half-written, and the next preview is empty.
 */
import * as fs from "node:fs";
import { createTestStack, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";
import { escapeRegExp as escape } from "../helpers/state";

const cdn = loadSdk();
const CLOCK = new Date("2026-03-01T12:00:00Z");

/** Each kind's write, and how many resources of the kind the stack declares. */
const WRITES: Record<string, { operation: string; resources: string[] }> = {
  PushZoneSettings: { operation: "POST /v2/zones/http/push/{zoneid}", resources: ["zone"] },
  VodPullDomainLock: { operation: "POST /v2/zones/vod/pull/{zoneid}/domainlock", resources: ["lock"] },
  HttpDomainLockBulk: { operation: "POST /v2/zones/http/settings/security/domainlock", resources: ["bulk"] },
  StreamStatus: { operation: "POST /v2/streams/push/{streamid}/status", resources: ["status"] },
  AdBreakSlot: { operation: "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule", resources: ["pre", "mid"] },
  CampaignArchive: { operation: "POST /v2/ad-manager/{pid}/campaigns/{cid}/archive", resources: ["archive"] },
  TimeshiftStream: { operation: "POST /v2/streams/timeshift/new", resources: ["delayed"] },
};
const KINDS = Object.keys(WRITES);
const RESOURCE_COUNT = KINDS.reduce((n, kind) => n + WRITES[kind].resources.length, 0);

/** Set when a case follows the failure's advice and adopts a stream the API made but never reported. */
let adoptDelayed: string | undefined;

const program = async () => {
  new cdn.PushZoneSettings("zone", { zoneId: 101, customDomains: ["media.example.com"] });
  new cdn.VodPullDomainLock("lock", { zoneId: 401, enabled: true, domains: ["player.example.com"] });
  new cdn.HttpDomainLockBulk("bulk", { mode: "save", enabled: true, domains: ["example.com"] });
  new cdn.StreamStatus("status", { streamKind: "push", streamId: 3002, disabled: true });
  new cdn.AdBreakSlot("pre", { zoneId: 301, type: "preroll", maxDurationS: 30 });
  new cdn.AdBreakSlot("mid", { zoneId: 301, type: "midroll", offset: 600, maxDurationS: 20 });
  new cdn.CampaignArchive("archive", { projectId: 1, campaignId: "cmp_7Hq2xK9d" });
  new cdn.TimeshiftStream("delayed", { name: "fm-delayed", parent: 3001, timeshift: 60, adoptId: adoptDelayed });
  return {};
};

type Fault = {
  status?: number;
  retryAfter?: number;
  latencyMs?: number;
  dropConnection?: boolean;
  dropResponse?: boolean;
};
interface Case {
  name: string;
  fault: Fault;
  /** Kinds whose write is not retried after this fault: those resources fail the first up. */
  failing: string[];
  /** What the failure message of each failing kind must say. */
  message?: (kind: string) => RegExp;
  /** Extra environment for the provider, e.g. a short timeout. */
  env?: Record<string, string>;
  /** What the user does, following the failure message, before running `up` again. */
  recover?: (emulator: TestEmulator) => Promise<void>;
}

// The timeshift create is never sent twice once it may have reached the API (a second send
// could make a second stream); its failure says to look for the stream and adopt it.
const MAYBE_CREATED =
  /TimeshiftStream "fm-delayed": the create request failed after it may have reached the API.*adoptId/;

const CASES: Case[] = [
  // A 429 processed nothing, so every write is sent again after the wait, the create included.
  { name: "429 with Retry-After", fault: { status: 429, retryAfter: 1 }, failing: [] },
  {
    name: "500",
    fault: { status: 500 },
    failing: KINDS,
    message: (kind) =>
      kind === "TimeshiftStream"
        ? MAYBE_CREATED
        : new RegExp(
            `Server error \\(500\\) on ${escape(WRITES[kind].operation)}: injected fault: HTTP 500\\. The API failed on this request \\(not retried`,
          ),
  },
  ...[502, 503, 504].map((status) => ({
    name: String(status),
    fault: { status },
    failing: ["TimeshiftStream"],
    message: () => new RegExp(`${MAYBE_CREATED.source}.*Server error \\(${status}\\)`),
  })),
  {
    name: "dropped connection",
    fault: { dropConnection: true },
    failing: ["TimeshiftStream"],
    message: () => MAYBE_CREATED,
  },
  {
    // The API carried each write out but the answer was lost. Settings and slots are sent again
    // (same values, same result); the create is not, and its message says why and what to do:
    // find the stream by name and adopt it, which the user does here as they would in the dashboard.
    name: "response lost after the API acted",
    fault: { dropResponse: true },
    failing: ["TimeshiftStream"],
    message: () => /named "<prefix>-fm-delayed" with parent 3001: if it exists, set adoptId/,
    recover: async (emulator) => {
      const streams = Object.values((await emulator.state()).timeshiftStreams) as {
        id: number;
        parts: { sn: string };
        parentid: number;
      }[];
      const made = streams.filter((s) => s.parts.sn === "fm-delayed" && s.parentid === 3001);
      expect(made).toHaveLength(1);
      adoptDelayed = String(made[0].id);
    },
  },
  {
    // Every write waits 4 s; the client gives up after 1 s and sends it again, and the API still
    // carries out the abandoned one. The create, never sent twice, waits for its answer instead.
    name: "latency past the client timeout",
    fault: { latencyMs: 4000 },
    failing: [],
    env: { CDNSTREAM_TIMEOUT_MS: "1000" },
  },
];

/** A stack on its own backend against `emulator`, the key in the environment. */
function stackFor(emulator: TestEmulator, env: Record<string, string> = {}): Promise<TestStack> {
  return createTestStack({
    program,
    config: { "cdnstream:baseUrl": { value: emulator.url } },
    env: { CDNSTREAM_API_KEY: emulator.apiKey, ...env },
  });
}

/** Waits (up to 30 s) until the emulator has answered `expected(kind)` writes of each kind. */
async function answered(emulator: TestEmulator, expected: (kind: string) => number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const counts = await emulator.requestCounts();
    if (KINDS.every((kind) => (counts[WRITES[kind].operation] ?? 0) >= expected(kind))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `the emulator did not answer every abandoned write: ${JSON.stringify(await emulator.requestCounts())}`,
  );
}

describe("fault matrix: every kind under every fault converges, with nothing duplicated", () => {
  const started: { emulator: TestEmulator; test?: TestStack }[] = [];
  let expected: Record<string, unknown>;

  afterAll(async () => {
    // The emulators are thrown away, so the stacks need no destroy: remove their directories.
    for (const { emulator, test } of started) {
      if (test) fs.rmSync(test.dir, { recursive: true, force: true });
      await emulator.close();
    }
  });

  // What a fault-free up leaves in the account: every case must end with exactly this.
  beforeAll(async () => {
    const emulator = await startTestEmulator({ now: () => CLOCK });
    const entry: (typeof started)[number] = { emulator };
    started.push(entry);
    entry.test = await stackFor(emulator);
    const up = await entry.test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: RESOURCE_COUNT + 1 });
    expected = await emulator.state();
    const streams = Object.values(expected.timeshiftStreams as Record<string, { parts?: { sn?: string } }>);
    expect(streams.filter((s) => s.parts?.sn === "fm-delayed")).toHaveLength(1);
    const roster = (expected.vodPushZones as any)["301"].adinsertion.vodAdBreakPolicy;
    expect(roster.preRoll).toMatchObject({ maxDurationS: 30 });
    expect(roster.midRolls).toEqual([{ offsetS: 600, maxDurationS: 20 }]);
  });

  it.each(CASES)("$name on every kind's write", async ({ fault, failing, message, env, recover }) => {
    adoptDelayed = undefined;
    const emulator = await startTestEmulator({ now: () => CLOCK });
    const entry: (typeof started)[number] = { emulator };
    started.push(entry);
    const test = (entry.test = await stackFor(emulator, env));

    for (const kind of KINDS) {
      await emulator.inject({ ...fault, count: WRITES[kind].resources.length, operation: WRITES[kind].operation });
    }
    let output = "";
    const onOutput = (text: string) => (output += text);
    let failure: Error | undefined;
    try {
      // Keep deploying the other resources when one fails, as a pipeline would want to see all failures.
      await test.stack.up({ continueOnError: true, onOutput });
    } catch (err) {
      failure = err as Error;
    }
    const counts = await emulator.requestCounts();

    // Every kind's write met its fault.
    for (const kind of KINDS)
      expect(counts[WRITES[kind].operation] ?? 0).toBeGreaterThanOrEqual(WRITES[kind].resources.length);
    if (failing.length === 0) {
      expect(failure).toBeUndefined();
    } else {
      expect(failure).toBeDefined();
      const said = `${output}\n${failure!.message}`;
      for (const kind of failing) {
        expect(said).toMatch(message!(kind));
        // A write that is not retried reached the API exactly once per resource.
        expect(counts[WRITES[kind].operation]).toBe(WRITES[kind].resources.length);
      }
      // Kinds that rode the fault out were deployed all the same.
      const done = (await test.stack.exportStack()).deployment.resources ?? [];
      const recorded = new Set(done.map((r: any) => String(r.urn).split("::").pop()));
      for (const kind of KINDS.filter((k) => !failing.includes(k))) {
        for (const name of WRITES[kind].resources) expect(recorded).toContain(name);
      }
      // Then, with the API healthy again, the same program converges.
      await recover?.(emulator);
      const again = await test.stack.up({ onOutput });
      const created = failing.reduce((n, kind) => n + WRITES[kind].resources.length, 0);
      expect(again.summary.resourceChanges).toEqual({ create: created, same: RESOURCE_COUNT + 1 - created });
    }
    // Abandoned slow writes are still carried out by the API: wait until each has been answered.
    // The create, never sent twice, was waited for: one request.
    if (fault.latencyMs) {
      const sends = (kind: string) => (kind === "TimeshiftStream" ? 1 : 2) * WRITES[kind].resources.length;
      await answered(emulator, sends);
      const counts = await emulator.requestCounts();
      for (const kind of KINDS) expect([kind, counts[WRITES[kind].operation]]).toEqual([kind, sends(kind)]);
    }
    // Nothing pending, and the account is exactly what a fault-free run leaves: one stream, one
    // slot per declared identity, every setting applied.
    expect(await emulator.pendingFaults()).toEqual([]);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: RESOURCE_COUNT + 1 });
    expect(await emulator.state()).toEqual(expected);
  });
});

/** Each kind's refresh read, and how many resources of the kind read through it. */
const READS: Record<string, { operation: string; count: number }> = {
  PushZoneSettings: { operation: "GET /v2/zones/http/push/{zoneid}", count: 1 },
  VodPullDomainLock: { operation: "GET /v2/zones/vod/pull/{zoneid}", count: 1 },
  HttpDomainLockBulk: { operation: "GET /v2/zones/http/settings/security/domainlock", count: 1 },
  StreamStatus: { operation: "GET /v2/streams/push/{streamid}", count: 1 },
  AdBreakSlot: { operation: "GET /v2/zones/vod/push/{zoneid}/adinsertion", count: 2 },
  CampaignArchive: { operation: "GET /v2/ad-manager/{pid}/campaigns/{cid}", count: 1 },
  TimeshiftStream: { operation: "GET /v2/streams/timeshift/{streamid}", count: 1 },
};

/** What the state holds of each resource (its inputs and outputs), by name. */
async function recorded(test: TestStack): Promise<Record<string, unknown>> {
  const resources = (await test.stack.exportStack()).deployment.resources ?? [];
  return Object.fromEntries(
    resources
      .filter((r: any) => String(r.type).startsWith("pulumi-nodejs:dynamic/"))
      .map((r: any) => [String(r.urn).split("::").pop(), { inputs: r.inputs, outputs: r.outputs }]),
  );
}

describe("fault matrix: refresh and destroy of every kind under faults lose nothing", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    adoptDelayed = undefined;
    emulator = await startTestEmulator({ now: () => CLOCK });
    test = await stackFor(emulator);
    await test.stack.up();
    // A fault-free refresh first: it records what the reads return (a slot's roster as it is now,
    // not as it was when the slot was written), which every later refresh must then reproduce.
    await test.stack.refresh();
    before = await recorded(test);
    // What the API said on the write survives a refresh, whose read cannot see it.
    expect((before.zone as any).outputs.warnings).toEqual([
      expect.stringMatching(/^add a CNAME record for media\.example\.com/),
    ]);
  });
  afterAll(async () => {
    if (test) fs.rmSync(test.dir, { recursive: true, force: true });
    await emulator?.close();
  });

  const injectReads = async (fault: Fault) => {
    for (const { operation, count } of Object.values(READS)) await emulator.inject({ ...fault, count, operation });
  };

  it("a refresh rides out a 502 on every kind's read and records the same state", async () => {
    await emulator.clearRequests();
    await injectReads({ status: 502 });
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: RESOURCE_COUNT + 1 });
    // Every injected 502 was met and retried into an answer: the faults, then between one read
    // (resources sharing an object, such as the slots of a zone, are answered from one read of it
    // by the provider host) and one per resource.
    const counts = await emulator.requestCounts();
    for (const { operation, count } of Object.values(READS)) {
      expect([operation, counts[operation] >= count + 1]).toEqual([operation, true]);
      expect([operation, counts[operation] <= 2 * count]).toEqual([operation, true]);
    }
    expect(await recorded(test)).toEqual(before);
  });

  it("a refresh that meets a 500 on every read fails naming each read, and changes nothing in the state", async () => {
    await injectReads({ status: 500 });
    let output = "";
    const failure = await test.stack.refresh({ onOutput: (text) => void (output += text) }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure).toBeDefined();
    const said = `${output}\n${failure!.message}`;
    for (const { operation } of Object.values(READS)) {
      expect(said).toMatch(new RegExp(`Server error \\(500\\) on ${escape(operation)}: injected fault: HTTP 500`));
    }
    expect(await emulator.pendingFaults()).toEqual([]);
    expect(await recorded(test)).toEqual(before);
    expect((await test.stack.refresh()).summary.resourceChanges).toEqual({ same: RESOURCE_COUNT + 1 });
    expect(await recorded(test)).toEqual(before);
  });

  it("a destroy rides out a dropped connection on the stream's disable, and disables it once", async () => {
    const disable = "POST /v2/streams/timeshift/{streamid}/status";
    const streamId = (before.delayed as any).outputs.streamId as string;
    await emulator.clearRequests();
    await emulator.inject({ dropConnection: true, count: 1, operation: disable });
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: RESOURCE_COUNT + 1 });
    // The only API call a destroy makes is the stream's disable (§4.4): the first try dropped, the second applied.
    expect(await emulator.requestCounts()).toEqual({ [disable]: 2 });
    expect((await emulator.object("timeshiftStreams", streamId)).disabled).toBe("1");
    expect((await test.stack.exportStack()).deployment.resources ?? []).toEqual([]);
  });
});
