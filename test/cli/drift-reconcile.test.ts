/**
 * `cdnstream drift reconcile` over a fake engine: what a plan may change (from the report and
 * the events of the targeted preview), and that every refusal runs no `up` (the real engine and
 * emulator: test/e2e/drift-reconcile.test.ts, test/e2e/drift-reconcile-yaml.test.ts).
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { Io } from "../../provider/cli/command";
import { createReconcileCommand, readDriftReport, type ReconcileDeps } from "../../provider/cli/drift-reconcile";
import { kindOf, planFromPreview, refusalFromReport } from "../../provider/cli/drift-reconcile-plan";
import type { ResourceDrift, StackReport } from "../../provider/cli/drift-report";
import type { CheckedStackReport, EngineRun, TargetedOperation } from "../../provider/cli/drift-stack";
import { KINDS } from "../../kinds/registry";

const KEY = "k-reconcile-unit-9a8b7c6d";
const TYPE = "pulumi-nodejs:dynamic/cdnstream:StreamStatus";
const urn = (name: string, type = TYPE) => `urn:pulumi:prod::infra::${type}::${name}`;
const CHECKPOINT = { written: "2026-11-29T00:00:00.1Z", sha256: "a".repeat(64) };

const drifted = (name: string, extra: Partial<ResourceDrift> = {}): ResourceDrift => ({
  urn: urn(name, extra.type),
  name,
  type: TYPE,
  deleted: false,
  properties: [{ property: "disabled", recorded: false, live: true }],
  ...extra,
});

const stackOf = (resources: ResourceDrift[], extra: Partial<CheckedStackReport> = {}): CheckedStackReport => ({
  stack: "prod",
  cwd: "/proj",
  drifted: true,
  resources,
  checkpoint: CHECKPOINT,
  ...extra,
});

const state = (u: string, inputs: object) => ({ urn: u, type: TYPE, inputs, outputs: {} });

/** A refresh of `name` that finds `live` (null: gone), then the step the `up` would take to `declared`. */
function eventsFor(name: string, recorded: object, live: object | null, op: string, declared: object): EngineEvent[] {
  const u = urn(name);
  const refresh = {
    resOutputsEvent: {
      metadata: { op: "refresh", urn: u, type: TYPE, old: state(u, recorded), new: live && state(u, live) },
    },
  };
  const step = {
    resourcePreEvent: {
      metadata: { op, urn: u, type: TYPE, old: live ? state(u, live) : undefined, new: state(u, declared) },
    },
  };
  return [refresh, step] as unknown as EngineEvent[];
}

describe("what a reconcile plan may change", () => {
  const report = stackOf([drifted("main-event")]);

  it("reverts a counted finding back to its recorded value", () => {
    const plan = planFromPreview(
      report,
      eventsFor("main-event", { disabled: false }, { disabled: true }, "update", { disabled: false }),
    );
    expect(plan).toEqual({
      reverts: [
        {
          urn: urn("main-event"),
          name: "main-event",
          type: TYPE,
          recreate: false,
          properties: [{ property: "disabled", recorded: false, before: true }],
        },
      ],
    });
  });

  it("refuses when the live value is no longer the report's", () => {
    const plan = planFromPreview(
      report,
      eventsFor("main-event", { disabled: false }, { disabled: false }, "same", { disabled: false }),
    );
    expect(plan).toEqual({
      refusal: expect.stringMatching(/main-event\.disabled is back to its recorded value false\. Check again/),
    });
  });

  it("refuses a change pending in the program on a reported resource, and another property the up would change", () => {
    const pending = planFromPreview(
      report,
      eventsFor("main-event", { disabled: false }, { disabled: true }, "same", { disabled: true }),
    );
    expect(pending).toEqual({
      refusal: expect.stringMatching(/the program now declares main-event\.disabled as true, not its recorded false/),
    });
    const other = stackOf([drifted("zone", { properties: [{ property: "domains", recorded: ["a"], live: ["b"] }] })]);
    const extra = planFromPreview(
      other,
      eventsFor("zone", { domains: ["a"], ips: [] }, { domains: ["b"], ips: [] }, "update", {
        domains: ["a"],
        ips: ["1.2.3.4"],
      }),
    );
    expect(extra).toEqual({
      refusal: expect.stringMatching(
        /zone \(cdnstream:StreamStatus\) would also change ips from \[\] to \["1\.2\.3\.4"\]/,
      ),
    });
  });

  it("refuses a secret input it cannot compare on another provider's resource; a cdnstream kind's replaces instead", () => {
    const other = "random:index/randomPassword:RandomPassword";
    const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "x" };
    const stack = stackOf([drifted("pw", { type: other })]);
    const events = eventsFor("pw", { disabled: false, key: secret }, { disabled: true, key: secret }, "update", {
      disabled: false,
      key: secret,
    }).map((e: any) => {
      for (const m of [e.resOutputsEvent?.metadata, e.resourcePreEvent?.metadata]) {
        if (!m) continue;
        for (const st of [m.old, m.new, m]) {
          if (!st) continue;
          st.urn = urn("pw", other);
          st.type = other;
        }
      }
      return e;
    });
    expect(planFromPreview(stack, events)).toEqual({
      refusal: expect.stringMatching(/pw \(random:index\/randomPassword:RandomPassword\) has secret inputs \(key\)/),
    });
    // What lets a cdnstream kind through: each of its secret inputs replaces the resource when it changes.
    for (const folder of Object.values(KINDS).map((k) => k.folder)) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- each kind's declaration, by its folder
      const { declaration } = require(`../../kinds/${folder}/declaration`);
      for (const [key, input] of Object.entries(
        declaration.inputs as Record<string, { secret?: boolean; replaces?: boolean }>,
      ))
        if (input.secret) expect([folder, key, input.replaces]).toEqual([folder, key, true]);
    }
  });

  it("refuses a replacement and any step on a resource the report does not name", () => {
    const replace = planFromPreview(
      report,
      eventsFor("main-event", { disabled: false }, { disabled: true }, "replace", { disabled: false }),
    );
    expect(replace).toEqual({ refusal: expect.stringMatching(/would be replaced, not set back in place/) });
    const events = [
      ...eventsFor("main-event", { disabled: false }, { disabled: true }, "update", { disabled: false }),
      {
        resourcePreEvent: {
          metadata: { op: "create", urn: urn("new-one"), type: TYPE, new: state(urn("new-one"), {}) },
        },
      },
    ] as unknown as EngineEvent[];
    expect(planFromPreview(report, events)).toEqual({
      refusal: expect.stringMatching(
        /would also create new-one \(cdnstream:StreamStatus\), which the report does not name/,
      ),
    });
  });

  it("creates a deleted resource again with its recorded inputs, and refuses where the program changed them", () => {
    const gone = stackOf([drifted("slot", { deleted: true, properties: [] })]);
    expect(planFromPreview(gone, eventsFor("slot", { disabled: false }, null, "create", { disabled: false }))).toEqual({
      reverts: [{ urn: urn("slot"), name: "slot", type: TYPE, recreate: true, properties: [] }],
    });
    expect(planFromPreview(gone, eventsFor("slot", { disabled: false }, null, "create", { disabled: true }))).toEqual({
      refusal: expect.stringMatching(/would be created with disabled true \(recorded false\)/),
    });
  });

  it("from the report alone: refuses a deleted TimeshiftStream, an accepted finding beside a counted one, a report without its checkpoint", () => {
    const timeshift = "pulumi-nodejs:dynamic/cdnstream:TimeshiftStream";
    expect(refusalFromReport(stackOf([drifted("replay", { type: timeshift, deleted: true, properties: [] })]))).toMatch(
      /replay \(cdnstream:TimeshiftStream\) was deleted, and creating a TimeshiftStream makes a new object .* adopt it \(`adoptId`\)/,
    );
    // Every kind but TimeshiftStream manages settings of an object the stack does not create.
    for (const kind of Object.keys(KINDS).filter((k) => k !== "TimeshiftStream")) {
      const type = `cdnstream:index:${kind}`;
      expect(kindOf(type)).toBe(kind);
      expect(refusalFromReport(stackOf([drifted("x", { type, deleted: true, properties: [] })]))).toBeUndefined();
    }
    const accepted = { rule: "cdnstream-drift.yaml:2", reason: "event", until: "2027-01-31" };
    const both = drifted("zone", {
      properties: [
        { property: "domains", recorded: ["a"], live: ["b"] },
        { property: "ips", recorded: [], live: ["1.2.3.4"], accepted },
      ],
    });
    expect(refusalFromReport(stackOf([both]))).toMatch(
      /zone \(cdnstream:StreamStatus\) has accepted findings \(ips\) beside counted ones/,
    );
    expect(refusalFromReport(stackOf([drifted("main-event")], { checkpoint: undefined }))).toMatch(
      /does not record which state the stack was checked against/,
    );
    expect(refusalFromReport(stackOf([], { error: "boom" }))).toMatch(/could not check this stack/);
  });
});

describe("drift reconcile as a command", () => {
  function harness(report: object, preview: EngineRun) {
    const files: Record<string, string> = { "/work/r.json": JSON.stringify(report) };
    const operations: TargetedOperation[] = [];
    const deps: ReconcileDeps = {
      async runTargeted(_stack, _cwd, _env, operation, onOutput) {
        operations.push(operation);
        onOutput(`the program says hello, key ${KEY}`);
        return operation.kind === "preview" ? preview : { events: [], checkpoint: CHECKPOINT };
      },
      async checkStack(stack, cwd) {
        return { stack, cwd, drifted: false, resources: [] } satisfies StackReport;
      },
      readFile: (file) => {
        if (!(file in files)) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
        return files[file]!;
      },
      writeFile: (file, text) => void (files[file] = text),
      cwd: () => "/work",
      projectIn: (dir) => (dir === "/proj" || dir === "/elsewhere" ? "infra" : undefined),
      notReady: () => undefined,
    };
    const run = async (argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const io: Io = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: { CDNSTREAM_API_KEY: KEY } };
      const code = await createReconcileCommand(deps).run(argv, io);
      return { code, stdout: out.join("\n"), stderr: err.join("\n") };
    };
    return { run, files, operations };
  }
  const good = {
    events: eventsFor("main-event", { disabled: false }, { disabled: true }, "update", { disabled: false }),
    checkpoint: CHECKPOINT,
  };
  const reportOf = (...stacks: CheckedStackReport[]) => ({ stacks, drifted: true });

  it("reverts, checks again, writes both reports (redacted) and exits 0", async () => {
    const h = harness(reportOf(stackOf([drifted("main-event")])), good);
    const r = await h.run(["r.json", "--json", "out.json", "--markdown", "out.md"]);
    expect(r.code).toBe(0);
    expect(h.operations.map((o) => o.kind)).toEqual(["preview", "up"]);
    expect(h.operations[1]).toEqual({ kind: "up", targets: [urn("main-event")], checkpoint: CHECKPOINT.sha256 });
    const json = JSON.parse(h.files["/work/out.json"]!);
    expect(json.stacks[0].reconcile.outcome).toBe("reverted");
    expect(json.reconciled).toEqual({ report: "/work/r.json", dryRun: false });
    expect(h.files["/work/out.md"]).toMatch(/^## Drift reconciled\n/);
    expect(r.stderr).toContain("[REDACTED]");
    expect(r.stderr + r.stdout + JSON.stringify(h.files)).not.toContain(KEY);
  });

  it("refuses a stack whose state changed since the report, and with --dry-run runs no up", async () => {
    let h = harness(reportOf(stackOf([drifted("main-event")])), {
      ...good,
      checkpoint: { written: "later", sha256: "b".repeat(64) },
    });
    let r = await h.run(["r.json"]);
    expect(r.code).toBe(1);
    expect(h.operations.map((o) => o.kind)).toEqual(["preview"]);
    expect(r.stdout).toMatch(/The stack was updated since the report was written/);

    h = harness(reportOf(stackOf([drifted("main-event")])), good);
    r = await h.run(["r.json", "--dry-run"]);
    expect(r.code).toBe(2);
    expect(h.operations.map((o) => o.kind)).toEqual(["preview"]);
    expect(r.stdout).toMatch(/^## Drift reconcile: dry run, nothing changed\n/);
  });

  it("reads each stack's directory from the report unless --cwd is given, and refuses where there is no project", async () => {
    const h = harness(reportOf(stackOf([drifted("main-event")], { cwd: "/gone" })), good);
    let r = await h.run(["r.json"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /No Pulumi project \(Pulumi\.yaml\) in \/gone, where the report was written: give the project's directory with --cwd DIR/,
    );
    expect(h.operations).toEqual([]);
    r = await h.run(["r.json", "--cwd", "/elsewhere"]);
    expect(r.code).toBe(0);
  });

  it("takes a report merged from shards, and leaves a stack without counted drift alone", async () => {
    const merged = {
      ...reportOf(stackOf([drifted("main-event")]), stackOf([], { stack: "staging", drifted: false })),
      shards: 2,
      project: "infra",
    };
    const h = harness(merged, good);
    const r = await h.run(["r.json", "--json", "-"]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.shards).toBe(2);
    expect(json.stacks.map((s: any) => [s.stack, s.reconcile.outcome])).toEqual([
      ["prod", "reverted"],
      ["staging", "nothing to revert"],
    ]);
  });

  it("bad usage exits 64 naming the file and the field; --help prints the usage", async () => {
    const h = harness(reportOf(stackOf([drifted("main-event")])), good);
    h.files["/work/bad.json"] = JSON.stringify({
      stacks: [{ stack: "prod", cwd: "/p", drifted: true, resources: [{ urn: "x" }] }],
      drifted: true,
    });
    h.files["/work/r.md"] = "## Drift detected";
    let r = await h.run(["bad.json"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/bad\.json is not a drift report: stacks\[0\]\.resources\[0\]\.urn: must be a Pulumi URN/);
    r = await h.run(["r.md"]);
    expect(r.stderr).toMatch(/r\.md is not JSON: give the JSON report/);
    r = await h.run([]);
    expect(r.code).toBe(64);
    r = await h.run(["missing.json"]);
    expect(r.stderr).toMatch(/cannot read \/work\/missing\.json \(ENOENT\)/);
    expect(h.operations).toEqual([]);
    r = await h.run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: cdnstream drift reconcile REPORT\.json/);
  });

  it("parses the JSON report `cdnstream drift` writes, its checkpoint included", () => {
    const report = readDriftReport("r.json", JSON.stringify(reportOf(stackOf([drifted("main-event")]))));
    expect(report.stacks[0]!.checkpoint).toEqual(CHECKPOINT);
  });
});
