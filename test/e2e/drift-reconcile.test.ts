/**
 * `cdnstream drift reconcile` end to end on a TypeScript project (laid out as `pulumi new
 * typescript` lays it out, the program compiled on the fly): the built command run as a pipeline
 * runs it, against the emulator, on one stack shared by the cases in order. A refusal writes
 * nothing: no write request reaches the emulator and the stack's checkpoint keeps its bytes.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "../../scripts/child";
import { createTestStack, ENGINE_COMMAND_DEADLINE_MS, engineEnv, repoRoot, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { installedPackageDir, loadSdk } from "../helpers/package";
import { PULUMI_NEW_TSCONFIG } from "../helpers/pulumi-new";

// The command as installed from the packed package.
const cli = path.join(installedPackageDir, "dist", "provider", "cli", "index.js");
const PROJECT = "reconcile-e2e";
const type = "pulumi-nodejs:dynamic/cdnstream:StreamStatus";
const urn = (name: string) => `urn:pulumi:prod::${PROJECT}::${type}::${name}`;

/** A slot of VoD push zone 301's ad-break roster: a kind whose create is safe to repeat. */
const SLOT = { zoneId: 301, type: "preroll", maxDurationS: 30 } as const;

const STREAMS: [string, "push" | "timeshift", number][] = [
  ["main-event", "push", 3001],
  ["studio-b", "push", 3002],
  ["backup", "timeshift", 5001],
];

/**
 * index.ts as this process runs it for the test's own `up`s: a function, which runs afresh each
 * time (jest's module registry would not load index.ts again, and a second `up` would delete all).
 */
async function program() {
  const pulumi = await import("@pulumi/pulumi");
  const cdn = loadSdk();
  const config = new pulumi.Config(PROJECT);
  for (const [name, streamKind, streamId] of STREAMS)
    new cdn.StreamStatus(name, { streamKind, streamId, disabled: config.getBoolean(name) ?? false });
  new cdn.AdBreakSlot("preroll", SLOT);
}

// Three streams; each one's `disabled` comes from stack config, so that a test can make a change
// pending in the program (config set, no `up`) without editing the code.
const project = {
  "Pulumi.yaml": `name: ${PROJECT}\nruntime: nodejs\ndescription: three stream statuses, reconciled\n`,
  "package.json": JSON.stringify({
    name: PROJECT,
    main: "index.ts",
    devDependencies: { typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": "^3.246.0", "pulumi-cdnstream": "^0.1.0" },
  }),
  "tsconfig.json": JSON.stringify(PULUMI_NEW_TSCONFIG),
  "index.ts": `import * as pulumi from "@pulumi/pulumi";
import * as cdn from "pulumi-cdnstream";

const config = new pulumi.Config("${PROJECT}");
const streams: [string, "push" | "timeshift", number][] = ${JSON.stringify(STREAMS)};
for (const [name, streamKind, streamId] of streams)
  new cdn.StreamStatus(name, { streamKind, streamId, disabled: config.getBoolean(name) ?? false });
new cdn.AdBreakSlot("preroll", ${JSON.stringify(SLOT)});
`,
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
  markdown: string;
}

describe("cdnstream drift reconcile on a TypeScript project", () => {
  let emulator: TestEmulator;
  let dir: string;
  let test: TestStack;
  let env: Record<string, string>;

  /** The built command, with a deadline; its reports read back and searched for the key. */
  async function cdnstream(name: string, ...args: string[]): Promise<Run> {
    const json = path.join(dir, `${name}.json`);
    const markdown = path.join(dir, `${name}.md`);
    fs.rmSync(markdown, { force: true });
    const {
      status: code,
      stdout,
      stderr,
    } = await run(process.execPath, [cli, ...args, "--json", json, "--markdown", markdown], {
      cwd: dir,
      env,
      deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
      allowFailure: true,
    });
    if (!fs.existsSync(markdown))
      throw new Error(`cdnstream ${args.join(" ")} exited ${code} without a report:\n${stderr}`);
    const out = {
      code,
      stdout,
      stderr,
      json: JSON.parse(fs.readFileSync(json, "utf8")),
      markdown: fs.readFileSync(markdown, "utf8"),
    };
    expect(stdout + stderr + out.markdown + JSON.stringify(out.json)).not.toContain(emulator.apiKey);
    return out;
  }
  const drift = (name: string) => cdnstream(name, "drift", "--stack", "prod");
  const reconcile = (report: string, ...args: string[]) =>
    cdnstream(`${report}-reconciled`, "drift", "reconcile", `${report}.json`, ...args);

  const checkpoint = () =>
    fs.readFileSync(path.join(test.dir, "backend", ".pulumi", "stacks", PROJECT, "prod.json"), "utf8");
  const disabled = async (id: number) =>
    (await emulator.object(id === 5001 ? "timeshiftStreams" : "pushStreams", id)).disabled;
  /** The API requests since the last clear that were not reads. */
  const writes = async () =>
    Object.entries(await emulator.requestCounts()).filter(([operation]) => !operation.startsWith("GET "));

  /** What a refusal must leave: no write sent, the state's checkpoint byte for byte, exit 1. */
  async function expectNothingChanged(run: Run, stateBefore: string) {
    expect(await writes()).toEqual([]);
    expect(checkpoint()).toBe(stateBefore);
    expect(run.code).toBe(1);
    expect(run.json.stacks[0].reconcile.outcome).toBe("refused");
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    dir = path.join(repoRoot, ".tmp", "e2e", `reconcile-${crypto.randomBytes(6).toString("hex")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(dir, name), text);
    test = await createTestStack({
      workDir: dir,
      projectName: PROJECT,
      stackName: "prod",
      program,
      config: { "cdnstream:baseUrl": { value: emulator.url } },
      env: { CDNSTREAM_API_KEY: emulator.apiKey },
    });
    env = { ...(process.env as Record<string, string>), ...engineEnv(test.dir), CDNSTREAM_API_KEY: emulator.apiKey };
    expect((await test.stack.up()).summary.resourceChanges).toEqual({ create: 5 });
  });
  afterAll(async () => {
    await test?.cleanup();
    await emulator?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses when the account changed after the report, and when the stack was updated since: nothing written", async () => {
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    expect((await drift("r1")).code).toBe(2);
    const r1 = JSON.parse(fs.readFileSync(path.join(dir, "r1.json"), "utf8"));
    expect(r1.stacks[0].checkpoint).toEqual({
      written: expect.any(String),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    // Someone puts it back by hand, then disables it again: the live value differs from the report's.
    await emulator.mutate("pushStreams", 3001, { disabled: "0" });
    let state = checkpoint();
    await emulator.clearRequests();
    let r = await reconcile("r1");
    await expectNothingChanged(r, state);
    expect(r.json.stacks[0].reconcile.reason).toMatch(
      /live values of the reported resources are no longer the report's: main-event\.disabled is back to its recorded value false\. Check again/,
    );
    expect(r.stderr).toMatch(/prod: refused, nothing changed/);
    expect(r.markdown).toMatch(/^## Drift reconcile incomplete\n/);

    // The stack is updated (an `up` that changes nothing still writes its state) after the report.
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    expect((await drift("r2")).code).toBe(2);
    await test.stack.up();
    state = checkpoint();
    await emulator.clearRequests();
    r = await reconcile("r2");
    await expectNothingChanged(r, state);
    expect(r.json.stacks[0].reconcile.reason).toMatch(/the stack was updated since the report was written/);
    expect(await disabled(3001)).toBe("1");
  });

  it("reverts only the counted findings of the reported resources, never an accepted one nor a change pending in the program", async () => {
    // main-event drifted (above), studio-b drifts too; backup gets a change pending in the program.
    await emulator.mutate("pushStreams", 3002, { disabled: "1" });
    await test.stack.setConfig(`${PROJECT}:backup`, { value: "true" });
    expect((await drift("r3")).code).toBe(2);
    // studio-b's finding accepted, as a rule of the acceptance file marks it.
    const r3 = JSON.parse(fs.readFileSync(path.join(dir, "r3.json"), "utf8"));
    expect(r3.stacks[0].resources.map((x: any) => x.name)).toEqual(["main-event", "studio-b"]);
    const acceptance = { rule: "cdnstream-drift.yaml:2", reason: "studio off for the event", until: "2027-01-31" };
    r3.stacks[0].resources[1].properties[0].accepted = acceptance;
    r3.stacks[0].drifted = true;
    fs.writeFileSync(path.join(dir, "r3.json"), JSON.stringify(r3));

    // The dry run says what it would do, and does nothing.
    let state = checkpoint();
    await emulator.clearRequests();
    const dry = await reconcile("r3", "--dry-run");
    expect(dry.code).toBe(2);
    expect(await writes()).toEqual([]);
    expect(checkpoint()).toBe(state);
    expect(dry.json.stacks[0].reconcile).toEqual({
      outcome: "would revert",
      resources: [
        {
          urn: urn("main-event"),
          name: "main-event",
          type,
          recreate: false,
          properties: [{ property: "disabled", recorded: false, before: true }],
        },
      ],
    });
    expect(dry.stderr).toMatch(/prod: would revert main-event\.\{disabled\} \(--dry-run: nothing changed\)/);
    expect(dry.markdown).toContain("| `main-event` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` |");

    await emulator.clearRequests();
    const r = await reconcile("r3");
    expect(r.stderr).toMatch(/prod: reverted$/m);
    expect(r.code).toBe(0);
    // One write: main-event's status. studio-b keeps its accepted value, backup its live one.
    expect(await writes()).toEqual([["POST /v2/streams/push/{streamid}/status", 1]]);
    expect(await disabled(3001)).toBe("0");
    expect(await disabled(3002)).toBe("1");
    expect(await disabled(5001)).toBe("0");
    const s = r.json.stacks[0];
    expect(s.reconcile).toEqual({
      outcome: "reverted",
      resources: [
        {
          urn: urn("main-event"),
          name: "main-event",
          type,
          recreate: false,
          properties: [{ property: "disabled", recorded: false, before: true, after: false }],
        },
      ],
    });
    // Checked again: the accepted finding is still there, still accepted, so the stack counts as clean.
    expect(s.drifted).toBe(false);
    expect(s.resources).toEqual([
      {
        urn: urn("studio-b"),
        name: "studio-b",
        type,
        deleted: false,
        properties: [{ property: "disabled", recorded: false, live: true, accepted: acceptance }],
      },
    ]);
    expect(r.markdown).toMatch(/^## Drift reconciled\n/);
    expect(r.markdown).toContain(
      "| `main-event` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` | `false` |",
    );
    // studio-b's drift was not written into the state, and backup's change is still pending.
    const resources = (await test.stack.exportStack()).deployment.resources;
    expect(resources.find((x: any) => x.urn === urn("studio-b")).inputs.disabled).toBe(false);
    state = checkpoint();
    const pending: any[] = [];
    await test.stack.preview({ onEvent: (e) => pending.push(e) });
    expect(
      pending.flatMap((e) => (e.resourcePreEvent?.metadata.op === "update" ? [e.resourcePreEvent.metadata.urn] : [])),
    ).toEqual([urn("backup")]);
  });

  it("refuses a reported resource whose program changed since the last up, then reverts and leaves a clean check behind", async () => {
    // main-event drifts again; studio-b is still drifted (its finding was accepted, not reverted).
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    expect((await drift("r4")).code).toBe(2);
    // The program now declares main-event's live value: a revert would apply that change, not undo the drift.
    await test.stack.setConfig(`${PROJECT}:main-event`, { value: "true" });
    const state = checkpoint();
    await emulator.clearRequests();
    let r = await reconcile("r4");
    await expectNothingChanged(r, state);
    expect(r.json.stacks[0].reconcile.reason).toMatch(
      /the program now declares main-event\.disabled as true, not its recorded false: a change is pending in the program for it/,
    );

    await test.stack.removeConfig(`${PROJECT}:main-event`);
    await emulator.clearRequests();
    r = await reconcile("r4");
    expect(r.code).toBe(0);
    expect(r.json.stacks[0].reconcile.resources.map((x: any) => x.name)).toEqual(["main-event", "studio-b"]);
    expect(await writes()).toEqual([["POST /v2/streams/push/{streamid}/status", 2]]);
    expect([await disabled(3001), await disabled(3002)]).toEqual(["0", "0"]);
    // What is left behind: `cdnstream drift` finds nothing.
    const check = await drift("r5");
    expect(check.code).toBe(0);
    expect(check.json.stacks[0].resources).toEqual([]);
  });

  it("creates a deleted resource again where its kind's create is safe to repeat: an ad-break slot", async () => {
    const preRoll = async () => (await emulator.object("vodPushZones", 301)).adinsertion.vodAdBreakPolicy.preRoll;
    await emulator.mutate("vodPushZones", 301, { adinsertion: { vodAdBreakPolicy: { preRoll: null } } });
    const report = await drift("r6");
    expect(report.code).toBe(2);
    expect(report.json.stacks[0].resources).toEqual([
      expect.objectContaining({ name: "preroll", deleted: true, properties: [] }),
    ]);
    await emulator.clearRequests();
    const r = await reconcile("r6");
    expect(r.code).toBe(0);
    expect(r.json.stacks[0].reconcile).toEqual({
      outcome: "reverted",
      resources: [expect.objectContaining({ name: "preroll", recreate: true, properties: [] })],
    });
    expect(r.markdown).toContain(
      "| `preroll` | `cdnstream:AdBreakSlot` | *(whole resource)* | created again | **deleted** | exists |",
    );
    expect(await preRoll()).toMatchObject({ maxDurationS: 30 });
    expect(r.json.stacks[0].resources).toEqual([]);
  });
});
