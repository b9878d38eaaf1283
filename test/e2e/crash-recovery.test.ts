/**
 * Interrupted deployments, end to end (docs/recovery.md).
 *
 * A SIGKILL of the CLI in the middle of an `up` leaves the stack locked, pending creates in its
 * checkpoint, and timeshift streams the API created but the state lacks. The documented recovery
 * (`pulumi cancel`, `pulumi refresh --clear-pending-creates`, adopting by name every stream the
 * next preview would create but the account already has, `pulumi up`) must leave a stack whose
 * next preview is empty and an account without orphans or duplicates. A single SIGINT must stop
 * gracefully: in-flight steps finish and are recorded, nothing stays pending or locked, and the
 * next `up` does the rest.
 *
 * During the interrupted `up` the emulator delays every API request, and the resources come in
 * layers (dependsOn), so the moment of the interruption is chosen from what the engine events and
 * the emulator show, never from a clock:
 *   1. settings, slots and the first stream;
 *   2. the second stream, whose create is two requests (create, then disable), and a gate slot;
 *   3. after the gate: the third stream and eight midroll slots;
 *   4. after the third stream: the fourth stream and two midroll slots.
 * The interruption comes once the second stream exists in the account (its disable still
 * delayed) and every layer-3 request has reached the emulator.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { engineEnv, type TestStack } from "../helpers/engine";
import type { TestEmulator } from "../helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../helpers/emulated-stack";
import { loadSdk } from "../helpers/package";

const cdn = loadSdk();

/** Delay of every API request during the interrupted `up`: the window in which to interrupt it. */
const LATENCY_MS = 6_000;
/** More delayed requests than any `up` here sends; the count left says how many arrived. */
const DELAYED = 100_000;
/** How long to wait for the engine or the emulator before failing: a guard against hanging only. */
const GUARD_MS = 120_000;

// ---- the stack ----

const MIDROLLS_301 = [60, 120, 180, 240, 300, 360, 420, 480, 540, 600];
const GATE_OFFSET = 30;
const MIDROLLS_302_LAYER3 = [60, 120, 180, 240, 300, 360, 420, 480];
const MIDROLLS_302_LAYER4 = [540, 600];
const STREAMS = ["first", "second", "third", "fourth"] as const;
type StreamKey = (typeof STREAMS)[number];
const streamName = (key: StreamKey) => `crash-${key}`;

const ZONE_DOMAINS: Record<number, string> = {
  101: "media.crash.example",
  102: "video.crash.example",
  103: "files.crash.example",
};
const VOD_LOCK_DOMAINS: Record<number, string> = { 401: "player.crash.example", 402: "trailers.crash.example" };
const STATUSES = [
  { streamKind: "push" as const, streamId: 3001, disabled: false },
  { streamKind: "push" as const, streamId: 3002, disabled: true },
  { streamKind: "timeshift" as const, streamId: 5001, disabled: true },
];
const SLOT_SECONDS = { preroll: 20, postroll: 45, midroll: 30 };
const MIDROLLS: Record<number, number[]> = {
  301: MIDROLLS_301,
  302: [GATE_OFFSET, ...MIDROLLS_302_LAYER3, ...MIDROLLS_302_LAYER4].sort((a, b) => a - b),
};

const slotName = (zone: number, type: string, offset?: number) =>
  `slot-${zone}-${type}${offset === undefined ? "" : `-${offset}`}`;
const LAYER1_COUNT = 3 + 2 + 3 + 2 + MIDROLLS_301.length + 2 + 1;
const LAYER3 = ["stream-third", ...MIDROLLS_302_LAYER3.map((o) => slotName(302, "midroll", o))];
const LAYER4 = ["stream-fourth", ...MIDROLLS_302_LAYER4.map((o) => slotName(302, "midroll", o))];
const RESOURCES = LAYER1_COUNT + 2 + LAYER3.length + LAYER4.length;
/** Requests that reach the API before the interruption: one per create, two for the second stream. */
const REQUESTS_AT_INTERRUPT = LAYER1_COUNT + 2 + 1 + LAYER3.length;

/** Timeshift streams to adopt, by key: the ids a user finds in the dashboard. */
let adopt: Partial<Record<StreamKey, string>> = {};

async function program(): Promise<void> {
  const stream = (key: StreamKey, disabled: boolean | undefined, opts?: pulumi.CustomResourceOptions) =>
    new cdn.TimeshiftStream(
      `stream-${key}`,
      { name: streamName(key), parent: 3001, timeshift: 300, disabled, adoptId: adopt[key] },
      opts,
    );
  const slot = (
    zoneId: number,
    type: "preroll" | "postroll" | "midroll",
    offset?: number,
    opts?: pulumi.CustomResourceOptions,
  ) =>
    new cdn.AdBreakSlot(
      slotName(zoneId, type, offset),
      { zoneId, type, offset, maxDurationS: SLOT_SECONDS[type] },
      opts,
    );

  const layer1: pulumi.Resource[] = [
    ...Object.entries(ZONE_DOMAINS).map(
      ([zone, domain]) => new cdn.PushZoneSettings(`zone-${zone}`, { zoneId: Number(zone), customDomains: [domain] }),
    ),
    ...Object.entries(VOD_LOCK_DOMAINS).map(
      ([zone, domain]) =>
        new cdn.VodPullDomainLock(`vod-lock-${zone}`, {
          zoneId: Number(zone),
          enabled: true,
          policy: "Y",
          domains: [domain],
        }),
    ),
    ...STATUSES.map((s) => new cdn.StreamStatus(`status-${s.streamKind}-${s.streamId}`, s)),
    ...[301, 302].flatMap((zone) => [slot(zone, "preroll"), slot(zone, "postroll")]),
    ...MIDROLLS_301.map((offset) => slot(301, "midroll", offset)),
    stream("first", undefined),
  ];
  stream("second", true, { dependsOn: layer1 });
  const gate = slot(302, "midroll", GATE_OFFSET, { dependsOn: layer1 });
  const third = stream("third", undefined, { dependsOn: [gate] });
  MIDROLLS_302_LAYER3.forEach((offset) => slot(302, "midroll", offset, { dependsOn: [gate] }));
  stream("fourth", undefined, { dependsOn: [third] });
  MIDROLLS_302_LAYER4.forEach((offset) => slot(302, "midroll", offset, { dependsOn: [third] }));
}

// ---- waiting on what the engine and the emulator report ----

const nameOf = (urn: string) => urn.split("::").pop()!;

/** Resource names whose create step began, per engine events. */
class Progress {
  readonly started = new Set<string>();
  onEvent = (event: any) => {
    const pre = event.resourcePreEvent?.metadata;
    if (pre?.op === "create") this.started.add(nameOf(pre.urn));
  };
}

/** Polls `check` until it holds, failing with `what` after the guard time. */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + GUARD_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function admin(emulator: TestEmulator, method: "GET" | "DELETE", what: string): Promise<any> {
  const res = await request(`${emulator.url}/__emulator/${what}`, { method });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`emulator admin ${method} ${what} answered ${res.statusCode}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** API requests that reached the emulator since the delay was injected (each took one delayed fault). */
async function arrived(emulator: TestEmulator): Promise<number> {
  const { faults } = (await admin(emulator, "GET", "faults")) as { faults: { count: number }[] };
  return DELAYED - (faults[0]?.count ?? 0);
}

/** API requests answered since the log was cleared (the log records a request when it is answered). */
async function answered(emulator: TestEmulator): Promise<number> {
  return (await admin(emulator, "GET", "requests")).requests.length;
}

/** Timeshift stream ids in the account, by composed name. */
async function streamsByName(emulator: TestEmulator): Promise<Record<string, string[]>> {
  const byName: Record<string, string[]> = {};
  for (const s of Object.values<any>((await emulator.state()).timeshiftStreams ?? {}))
    (byName[s.name] ??= []).push(String(s.id));
  return byName;
}

// ---- the engine's processes ----

interface Proc {
  pid: number;
  argv: string[];
}

/** Processes whose environment holds this stack's PULUMI_HOME: the CLI and the plugin hosts it started. */
function engineProcesses(test: TestStack): Proc[] {
  const marker = `PULUMI_HOME=${engineEnv(test.dir).PULUMI_HOME}`;
  const found: Proc[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(marker)) continue;
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (!/\) Z /.test(fs.readFileSync(`/proc/${entry}/stat`, "utf8"))) found.push({ pid: Number(entry), argv });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}
const isCli = (p: Proc) => path.basename(p.argv[0] ?? "") === "pulumi";
const gone = (pid: number) => {
  try {
    return /\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
};

/** Kills whatever is left of this stack's engine runs and waits until it has exited. */
async function killLeftovers(test: TestStack): Promise<Proc[]> {
  const left = engineProcesses(test);
  for (const p of left) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await until("leftover engine processes to exit", () => left.every((p) => gone(p.pid)));
  return left;
}

// ---- the interrupted up ----

/**
 * Starts a slow `up` and resolves once the second stream exists in the account (its disable
 * still delayed) and every layer-3 request has reached the emulator; `result` settles when the
 * CLI ends.
 */
async function slowUp(stack: Stack, emulator: TestEmulator, signal?: AbortSignal) {
  await emulator.clearRequests();
  await emulator.inject({ latencyMs: LATENCY_MS, count: DELAYED });
  const progress = new Progress();
  const result = stack.up({ onEvent: progress.onEvent, parallel: 64, signal }).then(
    () => undefined,
    (err: Error) => err,
  );
  const prefix = (await emulator.state()).account.streamPrefix;
  await until("the second stream to be created and every layer-3 request to reach the API", async () => {
    if (!LAYER3.every((name) => progress.started.has(name))) return false;
    if (!(await streamsByName(emulator))[`${prefix}-${streamName("second")}`]) return false;
    return (await arrived(emulator)) === REQUESTS_AT_INTERRUPT;
  });
  return { result, prefix };
}

/** Waits until every request that reached the emulator is answered, then stops delaying. */
async function settle(emulator: TestEmulator): Promise<number> {
  await until(
    "every request that reached the API to be answered",
    async () => (await answered(emulator)) === (await arrived(emulator)),
  );
  const count = await arrived(emulator);
  await admin(emulator, "DELETE", "faults");
  return count;
}

/**
 * The file backend writes each object's attribute sidecar (`<file>.attrs`, gocloud fileblob) by
 * truncating it first, so a SIGKILL in that instant leaves it empty, and every later command then
 * fails with "failed to load checkpoint: EOF". The documented fix: delete the empty sidecars.
 */
function removeEmptySidecars(test: TestStack): string[] {
  const root = path.join(test.dir, "backend", ".pulumi");
  const empty = fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        entry.name.endsWith(".attrs") &&
        fs.statSync(path.join(entry.parentPath, entry.name)).size === 0,
    )
    .map((entry) => path.join(entry.parentPath, entry.name));
  for (const file of empty) fs.rmSync(file);
  return empty;
}

/**
 * SIGKILLs the CLI in the middle of a slow `up`, waits until the plugin hosts it left behind have
 * had every request they sent answered, then kills them (a user's terminal or CI runner would) and
 * applies the sidecar fix. Resolves to the number of requests sent and the account's stream prefix.
 */
async function killMidUp(test: TestStack, emulator: TestEmulator) {
  const { result, prefix } = await slowUp(test.stack, emulator);
  const cli = engineProcesses(test).filter(isCli);
  expect(cli).toHaveLength(1);
  process.kill(cli[0].pid, "SIGKILL");
  expect(String(await result)).toMatch(/SIGKILL/);
  // The plugin hosts outlive the CLI: they finish the requests they had sent (the emulator
  // answers each after its delay, whether or not anyone still listens) and send no more.
  const sent = await settle(emulator);
  await killLeftovers(test);
  expect(await answered(emulator)).toBe(sent);
  removeEmptySidecars(test);
  return { sent, prefix };
}

// ---- what the account must hold ----

/** The account holds exactly what the program declares, once each, and the state names the same streams. */
async function expectConverged(emulator: TestEmulator, stack: Stack, prefix: string): Promise<void> {
  const state = await emulator.state();
  const byName = await streamsByName(emulator);
  // One stream per declared name, and no stream besides them and the fixture's.
  const declared = Object.fromEntries(
    STREAMS.map((key) => [`${prefix}-${streamName(key)}`, byName[`${prefix}-${streamName(key)}`]]),
  );
  for (const ids of Object.values(declared)) expect(ids).toHaveLength(1);
  expect(Object.keys(state.timeshiftStreams).sort()).toEqual(["5001", ...Object.values(declared).flat()].sort());
  const recorded = (await stack.exportStack()).deployment.resources.filter((r: any) =>
    r.type.endsWith(":TimeshiftStream"),
  );
  expect(Object.fromEntries(recorded.map((r: any) => [`${prefix}-${r.inputs.name}`, [r.id]]))).toEqual(declared);
  for (const key of STREAMS)
    expect(state.timeshiftStreams[declared[`${prefix}-${streamName(key)}`][0]].disabled).toBe(
      key === "second" ? "1" : "0",
    );

  // Slot rosters: every declared slot once, nothing else.
  for (const zone of [301, 302]) {
    const roster = state.vodPushZones[zone].adinsertion.vodAdBreakPolicy;
    expect(roster.preRoll).toMatchObject({ maxDurationS: SLOT_SECONDS.preroll });
    expect(roster.postRoll).toMatchObject({ maxDurationS: SLOT_SECONDS.postroll });
    expect(roster.midRolls.map((m: any) => m.offsetS)).toEqual(MIDROLLS[zone]);
    for (const m of roster.midRolls) expect(m.maxDurationS).toBe(SLOT_SECONDS.midroll);
  }

  // Every declared setting is live.
  for (const [zone, domain] of Object.entries(ZONE_DOMAINS)) expect(state.httpPushZones[zone].cnames).toBe(domain);
  for (const [zone, domain] of Object.entries(VOD_LOCK_DOMAINS)) {
    expect(state.vodPullZones[zone].domainlock).toMatchObject({ enabled: "Y", policy: "Y", list: domain });
  }
  for (const s of STATUSES) {
    expect(state[`${s.streamKind}Streams`][s.streamId].disabled).toBe(s.disabled ? "1" : "0");
  }

  // The next preview is empty and costs no API call.
  await emulator.clearRequests();
  const preview = await stack.preview();
  expect(preview.changeSummary).toEqual({ same: RESOURCES + 1 });
  expect(await emulator.requestCounts()).toEqual({});
}

const CREATE_STREAM = "POST /v2/streams/timeshift/new";
// Change summaries count the stack and our resources; the recorded state also holds the default provider.

describe("an interrupted up", () => {
  let emulator: TestEmulator | undefined;
  let test: TestStack | undefined;

  beforeEach(async () => {
    adopt = {};
    ({ emulator, test } = await startEmulatedStack(program));
  });
  afterEach(async () => {
    if (test) {
      await killLeftovers(test);
      await test.stack.cancel().catch(() => undefined); // a failed test may leave the lock
    }
    await stopEmulatedStack(test, emulator);
    test = emulator = undefined;
  });

  it("recovers from a SIGKILL with cancel, refresh --clear-pending-creates, adoption by name and up: no orphan, no duplicate", async () => {
    const emu = emulator!;
    const { stack } = test!;
    expect(RESOURCES).toBeGreaterThanOrEqual(30);
    const { sent, prefix } = await killMidUp(test!, emu);
    expect(sent).toBe(REQUESTS_AT_INTERRUPT);

    // The checkpoint: layers 1 and the gate recorded, the streams created meanwhile only pending.
    const exported = (await stack.exportStack()).deployment;
    const recorded = new Set(exported.resources.map((r: any) => nameOf(r.urn)));
    const pending = (exported.pending_operations ?? []).map((op: any) => `${op.type} ${nameOf(op.resource.urn)}`);
    expect(recorded.size).toBe(LAYER1_COUNT + 1 + 2); // + the stack and the default provider
    expect(recorded.has(slotName(302, "midroll", GATE_OFFSET))).toBe(true);
    expect(pending).toContain("creating stream-second");
    for (const op of pending) expect(LAYER3.concat("stream-second").map((name) => `creating ${name}`)).toContain(op);
    for (const key of ["second", "third"] as const) {
      expect(recorded.has(`stream-${key}`)).toBe(false);
      expect((await streamsByName(emu))[`${prefix}-${streamName(key)}`]).toHaveLength(1); // orphans, for now
    }
    // The lock is still held: any update fails, naming it and `pulumi cancel`.
    await expect(stack.refresh()).rejects.toThrow(/locked by 1 lock.*pulumi cancel/s);

    // Recovery, step 1: `pulumi cancel` removes the lock.
    await stack.cancel();
    // Step 2: `pulumi refresh --clear-pending-creates`.
    const refresh = await stack.refresh({ clearPendingCreates: true });
    expect(refresh.summary.result).toBe("succeeded");
    expect((await stack.exportStack()).deployment.pending_operations ?? []).toEqual([]);
    // Step 3: every TimeshiftStream the preview would create is looked up by name in the
    // account (the dashboard); each one found is adopted.
    const events: any[] = [];
    await stack.preview({ onEvent: (e) => events.push(e) });
    const toCreate = events
      .map((e) => e.resourcePreEvent?.metadata)
      .filter((m) => m?.op === "create" && m.type.endsWith(":TimeshiftStream"))
      .map((m) => nameOf(m.urn).replace(/^stream-/, "") as StreamKey);
    expect(toCreate.sort()).toEqual(["fourth", "second", "third"]);
    const live = await streamsByName(emu);
    for (const key of toCreate) {
      const found = live[`${prefix}-${streamName(key)}`];
      if (found) adopt[key] = found[0];
    }
    expect(Object.keys(adopt).sort()).toEqual(["second", "third"]);
    // Step 4: `pulumi up`. Only the stream that never reached the API is created.
    await emu.clearRequests();
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: RESOURCES - (LAYER1_COUNT + 1), same: LAYER1_COUNT + 1 + 1 });
    expect((await emu.requestCounts())[CREATE_STREAM]).toBe(1);

    await expectConverged(emu, stack, prefix);
    // adoptId matters only to create: dropping it afterwards changes nothing.
    adopt = {};
    expect((await stack.preview()).changeSummary).toEqual({ same: RESOURCES + 1 });
  });

  it("stops gracefully on one SIGINT: in-flight steps recorded, nothing pending or locked, and the next up does the rest", async () => {
    const emu = emulator!;
    const { stack } = test!;
    const abort = new AbortController();
    const { result, prefix } = await slowUp(stack, emu, abort.signal);
    abort.abort();
    expect(String(await result)).toMatch(/canceled/i);

    // The CLI waited for the steps it had begun, then ended with its plugin hosts.
    expect(await settle(emu)).toBe(REQUESTS_AT_INTERRUPT);
    await until("the engine's processes to exit", () => engineProcesses(test!).length === 0);

    const exported = (await stack.exportStack()).deployment;
    expect(exported.pending_operations ?? []).toEqual([]);
    const recorded = new Set(exported.resources.map((r: any) => nameOf(r.urn)));
    for (const name of ["stream-second", ...LAYER3]) expect(recorded.has(name)).toBe(true);
    for (const name of LAYER4) expect(recorded.has(name)).toBe(false);
    expect(recorded.size).toBe(RESOURCES - LAYER4.length + 2);
    // Every stream the API created is in the state.
    const live = await streamsByName(emu);
    for (const key of ["first", "second", "third"] as const)
      expect(live[`${prefix}-${streamName(key)}`]).toHaveLength(1);
    expect(live[`${prefix}-${streamName("fourth")}`]).toBeUndefined();

    // Not locked: the next up runs, and creates only what was never begun.
    await emu.clearRequests();
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: LAYER4.length, same: RESOURCES - LAYER4.length + 1 });
    expect((await emu.requestCounts())[CREATE_STREAM]).toBe(1);
    await expectConverged(emu, stack, prefix);
  });
});

describe("a checkpoint sidecar emptied by a kill", () => {
  let emulator: TestEmulator | undefined;
  let test: TestStack | undefined;
  afterEach(() => stopEmulatedStack(test, emulator));

  it("fails every command with 'failed to load checkpoint: EOF' until the empty sidecar is deleted", async () => {
    ({ emulator, test } = await startEmulatedStack(async () => {
      new cdn.StreamStatus("status", { streamKind: "push", streamId: 3002, disabled: true });
    }));
    const { stack } = test;
    await stack.up();
    const sidecar = path.join(test.dir, "backend", ".pulumi", "stacks", "cdnstream-e2e", "test.json.attrs");
    fs.truncateSync(sidecar, 0); // what a kill between the truncate and the write leaves
    await expect(stack.refresh()).rejects.toThrow(/failed to load checkpoint: EOF/);
    expect(removeEmptySidecars(test)).toEqual([sidecar]);
    expect((await stack.preview()).changeSummary).toEqual({ same: 2 });
  });
});

/**
 * `pulumi refresh --import-pending-creates <urn> <id>` is the engine's own answer to a pending
 * create, but in the CLI this product is tested on (v3.246.0) it only turns the pending create
 * into a pending "importing" operation, which the next checkpoint write drops (only pending
 * creates are carried over): the resource is never recorded, and the next `up` would create a
 * second stream. The README therefore documents adoptId; this test notices when that changes.
 */
describe("refresh --import-pending-creates", () => {
  let emulator: TestEmulator | undefined;
  let test: TestStack | undefined;
  afterEach(async () => {
    if (test) {
      await killLeftovers(test);
      await test.stack.cancel().catch(() => undefined);
    }
    await stopEmulatedStack(test, emulator);
  });

  it("drops a TimeshiftStream's pending create without recording it", async () => {
    adopt = {};
    ({ emulator, test } = await startEmulatedStack(program));
    const { stack } = test;
    const { prefix } = await killMidUp(test, emulator);
    await stack.cancel();

    const urn = (await stack.exportStack()).deployment.pending_operations.find(
      (op: any) => nameOf(op.resource.urn) === "stream-second",
    ).resource.urn;
    const id = (await streamsByName(emulator))[`${prefix}-${streamName("second")}`][0];
    await promisify(execFile)(
      "pulumi",
      [
        "refresh",
        "--yes",
        "--non-interactive",
        "--stack",
        "test",
        "--import-pending-creates",
        urn,
        "--import-pending-creates",
        id,
      ],
      {
        cwd: stack.workspace.workDir,
        env: { ...process.env, ...engineEnv(test.dir), CDNSTREAM_API_KEY: emulator.apiKey },
      },
    );
    const after = (await stack.exportStack()).deployment;
    expect((after.pending_operations ?? []).map((op: any) => nameOf(op.resource.urn))).not.toContain("stream-second");
    expect(after.resources.map((r: any) => nameOf(r.urn))).not.toContain("stream-second");
  });
});
