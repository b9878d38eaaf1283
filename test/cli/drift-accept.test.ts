/**
 * Accepted drift without an engine: the rules file (its checks and their file:line:field
 * messages), matching rules against findings, ignoreChanges found in recorded events, the marks
 * in both reports and through `drift merge`, and the `drift` and `drift accept` commands over fake
 * dependencies. End to end, on a TypeScript and a YAML project: test/e2e/drift-accept.test.ts.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { main } from "../../provider/cli";
import { UsageError, type Io } from "../../provider/cli/command";
import { createDriftCommand, type DriftDeps } from "../../provider/cli/drift";
import { addRules, createAcceptCommand, rulesFor } from "../../provider/cli/drift-accept";
import {
  acceptanceSummary,
  applyRules,
  coversProperty,
  loadRules,
  parseRules,
  resourceGlobProblem,
  type AcceptRule,
} from "../../provider/cli/drift-accept-rules";
import { mergeReports } from "../../provider/cli/drift-fleet";
import {
  driftReport,
  exitCodeOf,
  findingsFromEvents,
  toMarkdown,
  type DriftReport,
  type ResourceDrift,
  type StackReport,
} from "../../provider/cli/drift-report";

const TODAY = "2026-11-29";
const FILE = "cdnstream-drift.yaml";

const rules = (text: string) => parseRules(text, FILE, TODAY);
const failure = (text: string) => {
  try {
    rules(text);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error("the file was accepted");
};
const rule = (body: string) => `accept:\n  - ${body.trim().split("\n").join("\n    ")}\n`;

describe("the rules file", () => {
  it("reads each rule with its line, the optional fields only when given", () => {
    expect(
      rules(`# expected drift
accept:
  # live operations
  - resource: main-event   # the main stream
    property: disabled
    stack: prod
    reason: toggled by live operations during events
    until: 2027-01-31

  - resource: "urn:pulumi:prod::infra::cdnstream:index:StreamStatus::*"
    reason: "  another system owns it  "
    until: 2020-01-01
`),
    ).toEqual([
      {
        rule: `${FILE}:4`,
        resource: "main-event",
        property: "disabled",
        stack: "prod",
        reason: "toggled by live operations during events",
        until: "2027-01-31",
      },
      {
        rule: `${FILE}:10`,
        resource: "urn:pulumi:prod::infra::cdnstream:index:StreamStatus::*",
        reason: "another system owns it",
        until: "2020-01-01",
      },
    ]);
    expect(rules("")).toEqual([]);
    expect(rules("# nothing accepted yet\n")).toEqual([]);
    expect(rules("accept: []\n")).toEqual([]);
    expect(rules("accept:\n")).toEqual([]);
  });

  it("until: at most 366 days after the day of the run, inclusive", () => {
    expect(rules(rule("resource: a\nreason: r\nuntil: 2027-11-30"))[0]!.until).toBe("2027-11-30");
    expect(failure(rule("resource: a\nreason: r\nuntil: 2027-12-01"))).toBe(
      `${FILE}:4: accept[0].until: 2027-12-01 is more than 366 days after today (2026-11-29): choose 2027-11-30 or earlier, so that every acceptance comes up for review (see "Accepted drift" in docs/drift.md); nothing was checked`,
    );
  });

  it.each([
    [
      "an unknown key, at its own line",
      rule("resource: a\nreason: r\nuntil: 2027-01-31\ncolour: red"),
      /:5: accept\[0\]: unknown key colour: a rule has resource, property, stack, reason and until/,
    ],
    [
      "an unknown top-level key",
      "acept:\n  - resource: a\n",
      /:1: the file: unknown key acept: the file has one key, accept/,
    ],
    [
      "no reason",
      rule("resource: a\nuntil: 2027-01-31"),
      /:2: accept\[0\]\.reason: is required: say why the change is accepted/,
    ],
    [
      "a blank reason",
      rule("resource: a\nreason: '  '\nuntil: 2027-01-31"),
      /:3: accept\[0\]\.reason: must say why the change is accepted/,
    ],
    [
      "no until",
      rule("resource: a\nreason: r"),
      /:2: accept\[0\]\.until: is required: the rule's last day, YYYY-MM-DD/,
    ],
    ["no resource", rule("reason: r\nuntil: 2027-01-31"), /:2: accept\[0\]\.resource: is required/],
    [
      "a date that does not exist",
      rule("resource: a\nreason: r\nuntil: 2027-02-30"),
      /:4: accept\[0\]\.until: "2027-02-30" is not a date: write it as YYYY-MM-DD \(UTC\)/,
    ],
    [
      "a date that is not text",
      rule("resource: a\nreason: r\nuntil: 20270131"),
      /:4: accept\[0\]\.until: must be a date written YYYY-MM-DD/,
    ],
    [
      "a date with a time",
      rule("resource: a\nreason: r\nuntil: 2027-01-31T00:00:00Z"),
      /:4: accept\[0\]\.until: "2027-01-31T00:00:00Z" is not a date/,
    ],
    [
      "an empty resource glob",
      rule("resource: ''\nreason: r\nuntil: 2027-01-31"),
      /:2: accept\[0\]\.resource: is empty/,
    ],
    [
      "a URN glob that is no URN",
      rule("resource: 'urn:aws:s3:::bucket'\nreason: r\nuntil: 2027-01-31"),
      /:2: accept\[0\]\.resource: "urn:aws:s3:::bucket" cannot match a URN/,
    ],
    [
      "a resource glob with a newline",
      rule('resource: "a\\nb"\nreason: r\nuntil: 2027-01-31'),
      /:2: accept\[0\]\.resource: holds a control character/,
    ],
    [
      "a stack glob no stack name can match",
      rule("resource: a\nstack: 'prod eu'\nreason: r\nuntil: 2027-01-31"),
      /:3: accept\[0\]\.stack: must be a stack name or a glob of one/,
    ],
    [
      "a property that is no path",
      rule("resource: a\nproperty: 'origin..host'\nreason: r\nuntil: 2027-01-31"),
      /:3: accept\[0\]\.property: must be an input property or a path in one/,
    ],
    ["a list that is not one", "accept: main-event\n", /:1: accept: must be a list of rules/],
    [
      "a rule that is not a mapping",
      "accept:\n  - main-event\n",
      /:2: accept\[0\]: must be a rule: a mapping with resource, reason and until/,
    ],
    ["not YAML", "accept: [\n", /^cdnstream-drift\.yaml:\d+: not YAML: /],
    [
      "a key given twice",
      rule("resource: a\nresource: b\nreason: r\nuntil: 2027-01-31"),
      /^cdnstream-drift\.yaml:3: not YAML: Map keys must be unique/,
    ],
  ])("%s is bad usage naming file, line and field", (_what, text, message) => {
    expect(failure(text)).toMatch(message);
    expect(failure(text)).toMatch(/nothing was checked$/);
  });

  it("a glob cannot match a URN when blank, with a control character, or a urn: that is no Pulumi URN", () => {
    expect(resourceGlobProblem("main-event")).toBeUndefined();
    expect(resourceGlobProblem("cdnstream:index:*")).toBeUndefined();
    expect(resourceGlobProblem("urn:pulumi:prod::infra::*")).toBeUndefined();
    expect(resourceGlobProblem("urn:*")).toBeUndefined();
    expect(resourceGlobProblem(" ")).toMatch(/is empty/);
    expect(resourceGlobProblem("urn:pulumi:prod")).toMatch(/cannot match a URN/);
  });

  it("the default file may be absent (no rules); a file named with --accept must exist", () => {
    const missing = () => {
      throw Object.assign(new Error("no such file"), { code: "ENOENT" });
    };
    expect(loadRules({ file: "/p/cdnstream-drift.yaml", name: FILE, required: false }, TODAY, missing)).toBeUndefined();
    expect(() => loadRules({ file: "/p/rules.yaml", name: "rules.yaml", required: true }, TODAY, missing)).toThrow(
      "cannot read the acceptance file rules.yaml (ENOENT): give an existing file to --accept, or --no-accept",
    );
  });
});

const DYNAMIC = "pulumi-nodejs:dynamic/cdnstream:StreamStatus";
const resource = (
  name: string,
  properties: ResourceDrift["properties"],
  type = DYNAMIC,
  deleted = false,
): ResourceDrift => ({
  urn: `urn:pulumi:prod::infra::${type}::${name}`,
  name,
  type,
  deleted,
  properties,
});
const disabled = { property: "disabled", recorded: false, live: true };
const stackOf = (stack: string, resources: ResourceDrift[]): StackReport => ({
  stack,
  cwd: "/p",
  drifted: true,
  // Through JSON, as a report travels: no object shared between findings.
  resources: JSON.parse(JSON.stringify(resources)) as ResourceDrift[],
});
const one = (fields: Partial<AcceptRule>, line = 3): AcceptRule => ({
  rule: `${FILE}:${line}`,
  resource: "*",
  reason: "expected",
  until: "2027-01-31",
  ...fields,
});

describe("matching rules to findings", () => {
  /** Whether `r` accepts the `disabled` finding of main-event (a StreamStatus) in stack prod. */
  const accepts = (r: Partial<AcceptRule>, stack = "prod") => {
    const s = stackOf(stack, [resource("main-event", [disabled])]);
    applyRules([s], [one(r)], TODAY);
    return s.resources[0]!.properties[0]!.accepted !== undefined;
  };

  it.each([
    [{ resource: "main-event" }, true],
    [{ resource: "main-*" }, true],
    [{ resource: "main-even?" }, true],
    [{ resource: "main" }, false],
    [{ resource: DYNAMIC }, true],
    [{ resource: "cdnstream:StreamStatus" }, true],
    [{ resource: "cdnstream:*" }, true],
    [{ resource: `urn:pulumi:prod::infra::${DYNAMIC}::main-event` }, true],
    [{ resource: "urn:pulumi:staging::*" }, false],
    [{ resource: "main-event", property: "disabled" }, true],
    [{ resource: "main-event", property: "streamId" }, false],
    [{ resource: "main-event", stack: "prod" }, true],
    [{ resource: "main-event", stack: "pr*" }, true],
    [{ resource: "main-event", stack: "staging" }, false],
    [{ resource: "main-event", until: TODAY }, true],
    [{ resource: "main-event", until: "2026-11-28" }, false],
  ])("%j accepts: %s", (r, expected) => {
    expect(accepts(r)).toBe(expected);
  });

  it("a stack glob matches the stack's name or its last part (prod of acme/prod)", () => {
    expect(accepts({ stack: "prod" }, "acme/prod")).toBe(true);
    expect(accepts({ stack: "acme/*" }, "acme/prod")).toBe(true);
    expect(accepts({ stack: "other/*" }, "acme/prod")).toBe(false);
  });

  it("a path covers a finding of its top-level property only where the values differ at that path alone", () => {
    const origin = { property: "origin", recorded: { hostname: "a", port: 80 }, live: { hostname: "b", port: 80 } };
    expect(coversProperty("origin", origin)).toBe(true);
    expect(coversProperty("origin.hostname", origin)).toBe(true);
    expect(coversProperty("origin.port", origin)).toBe(false);
    expect(coversProperty("origin.hostname", { ...origin, live: { hostname: "b", port: 81 } })).toBe(false);
    const domains = { property: "domains", recorded: ["a.example", "b.example"], live: ["c.example", "b.example"] };
    expect(coversProperty("domains[0]", domains)).toBe(true);
    expect(coversProperty("domains[1]", domains)).toBe(false);
    expect(coversProperty("domain", domains)).toBe(false);
  });

  it("marks what matches, counts the rest, lists stale and expired rules; the first rule in file order wins", () => {
    const stacks = [
      stackOf("prod", [
        resource("main-event", [disabled, { property: "streamId", recorded: 1, live: 2 }]),
        resource("gone", [], "pulumi-nodejs:dynamic/cdnstream:CampaignArchive", true),
        resource("delayed", [{ ...disabled, ignoredByProgram: true }]),
      ]),
      stackOf("staging", [resource("main-event", [disabled])]),
    ];
    const list = [
      one({ resource: "main-event", property: "disabled", stack: "prod", reason: "live ops" }, 3),
      one({ resource: "main-event", reason: "whole resource" }, 8),
      one({ resource: "gone", property: "projectId" }, 12),
      one({ resource: "delayed" }, 16),
      one({ resource: "old", until: "2026-01-01", reason: "long ago" }, 20),
    ];
    const matched = new Set(applyRules(stacks, list, TODAY));
    const [prod, staging] = stacks;
    expect(prod!.resources[0]!.properties.map((p) => p.accepted?.rule)).toEqual([`${FILE}:3`, `${FILE}:8`]);
    expect(prod!.resources[0]!.properties[0]!.accepted).toEqual({
      rule: `${FILE}:3`,
      reason: "live ops",
      until: "2027-01-31",
    });
    // A deleted resource is accepted only by a rule without a property.
    expect(prod!.resources[1]!.accepted).toBeUndefined();
    // Ignored by the program: no rule needed, none applied.
    expect(prod!.resources[2]!.properties[0]).toEqual({ ...disabled, ignoredByProgram: true });
    expect(prod!.drifted).toBe(true);
    expect(staging!.resources[0]!.properties[0]!.accepted?.rule).toBe(`${FILE}:8`);
    expect(staging!.drifted).toBe(false);
    expect(acceptanceSummary(FILE, list, TODAY, matched)).toEqual({
      file: FILE,
      stale: [list[2], list[3]],
      expired: [list[4]],
    });
  });

  it("a deleted resource accepted by a whole-resource rule no longer counts", () => {
    const s = stackOf("prod", [resource("gone", [], DYNAMIC, true)]);
    applyRules([s], [one({ resource: "gone" })], TODAY);
    expect(s.resources[0]!.accepted?.rule).toBe(`${FILE}:3`);
    expect(s.drifted).toBe(false);
  });
});

describe("ignoreChanges in a refreshing preview's events", () => {
  const events: EngineEvent[] = require("./fixtures/preview-refresh-events.json");

  it("a drifted property whose next step carries the live value (the engine's ignoreChanges) is ignored by the program", () => {
    // The recorded preview, with `a` declared `ignoreChanges: ["disabled"]`: the engine gives the
    // update step the refreshed value of `disabled`, so the step is a `same`.
    const ignoring = structuredClone(events).map((e) => {
      const step = e.resourcePreEvent?.metadata;
      if (step?.op === "update" && step.urn.endsWith("::a")) {
        step.op = "same" as typeof step.op;
        step.new!.inputs = { ...step.new!.inputs, disabled: true };
      }
      return e;
    });
    const a = findingsFromEvents(ignoring).resources.find((r) => r.name === "a")!;
    expect(a.properties).toEqual([{ property: "disabled", recorded: false, live: true, ignoredByProgram: true }]);
    // Without it, the update step declares the recorded value: the finding counts.
    expect(findingsFromEvents(events).resources.find((r) => r.name === "a")!.properties).toEqual([
      { property: "disabled", recorded: false, live: true },
    ]);
  });
});

describe("reports with accepted and ignored findings", () => {
  const accepted = { rule: `${FILE}:3`, reason: "live ops | events", until: "2027-01-31" };
  const stack: StackReport = {
    stack: "prod",
    cwd: "/p",
    drifted: true,
    resources: [
      resource("delayed", [{ ...disabled, ignoredByProgram: true }]),
      { ...resource("gone", [], DYNAMIC, true), accepted },
      resource("main-event", [{ ...disabled, accepted }]),
      resource("studio-b", [disabled]),
    ],
  };
  const summary = {
    file: FILE,
    stale: [one({ resource: "nothing" }, 9)],
    expired: [
      one({ resource: "studio-b", property: "disabled", stack: "prod", until: "2026-10-01", reason: "rebuild" }, 14),
    ],
  };

  it("markdown: counted findings in the table, the others below it with why; expired and stale rules listed", () => {
    const md = toMarkdown(driftReport([stack], {}, summary));
    expect(md).toContain(
      [
        "### Stack `prod`: drift (1 finding)",
        "",
        "| Resource | Type | Property | Recorded | Live |",
        "|---|---|---|---|---|",
        "| `studio-b` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` |",
        "",
        "Accepted or ignored (not counted):",
        "",
        "| Resource | Type | Property | Recorded | Live | Why |",
        "|---|---|---|---|---|---|",
        "| `delayed` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` | ignored by the program (`ignoreChanges`) |",
        "| `gone` | `cdnstream:StreamStatus` | *(whole resource)* | exists | **deleted** | accepted until 2027-01-31 (`cdnstream-drift.yaml:3`): `live ops \\| events` |",
        "| `main-event` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` | accepted until 2027-01-31 (`cdnstream-drift.yaml:3`): `live ops \\| events` |",
      ].join("\n"),
    );
    expect(md).toContain(
      [
        "### Acceptance rules (`cdnstream-drift.yaml`)",
        "",
        "Expired (they no longer accept anything):",
        "",
        "- `cdnstream-drift.yaml:14` `studio-b.disabled in stack prod`, until 2026-10-01: `rebuild`",
        "",
        "Stale (they matched nothing in this run):",
        "",
        "- `cdnstream-drift.yaml:9` `nothing`, until 2027-01-31: `expected`",
      ].join("\n"),
    );
    const onlyAccepted = { ...stack, drifted: false, resources: stack.resources.slice(0, 3) };
    const clean = toMarkdown(driftReport([onlyAccepted]));
    expect(clean).toMatch(/^## No drift\n\n1 stack checked: 0 drifted, 1 clean\./);
    expect(clean).toContain(
      "### Stack `prod`: No drift\n\nNo drift that counts: every change below is accepted or ignored by the program.",
    );
    expect(exitCodeOf(driftReport([onlyAccepted]))).toBe(0);
  });

  it("merge keeps every mark; a rule is stale only when stale in every shard, expired when any shard says so", () => {
    const shard = (index: number, s: StackReport, stale: AcceptRule[]): DriftReport => ({
      ...driftReport(
        [s],
        { shard: { index, count: 2 }, project: "infra" },
        { file: FILE, stale, expired: summary.expired },
      ),
    });
    const a = one({ resource: "a" }, 3);
    const b = one({ resource: "b" }, 7);
    const merged = mergeReports([
      { file: "1.json", report: shard(1, stack, [a, b]) as DriftReport & { shard: { index: number; count: number } } },
      {
        file: "2.json",
        report: shard(2, { ...stack, stack: "staging" }, [b]) as DriftReport & {
          shard: { index: number; count: number };
        },
      },
    ]);
    expect(merged.acceptance).toEqual({ file: FILE, stale: [b], expired: summary.expired });
    expect(merged.stacks.map((s) => s.resources.map((r) => r.accepted ?? r.properties[0]?.accepted ?? null))).toEqual([
      [null, accepted, accepted, null],
      [null, accepted, accepted, null],
    ]);
    expect(merged.drifted).toBe(true);
  });
});

/** An Io that records what the command prints. */
function recorder(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env };
  return { io, stdout: () => out.join("\n"), stderr: () => err.join("\n") };
}

describe("cdnstream drift with an acceptance file", () => {
  function harness(files: Record<string, string>) {
    const checked: string[] = [];
    const written: Record<string, string> = {};
    const deps: DriftDeps = {
      cwd: () => "/work",
      listStacks: async () => ["prod"],
      async checkStack(stack) {
        checked.push(stack);
        return stackOf(stack, [resource("main-event", [disabled]), resource("studio-b", [disabled])]);
      },
      writeFile: (file, text) => void (written[file] = text),
      preflight: () => ({}),
      projectName: () => "infra",
      today: () => TODAY,
      readFile(file) {
        if (!(file in files)) throw Object.assign(new Error(`ENOENT: ${file}`), { code: "ENOENT" });
        return files[file]!;
      },
    };
    const command = createDriftCommand(deps);
    return {
      checked,
      written,
      async run(argv: string[]) {
        const r = recorder();
        const code = await command.run(argv, r.io);
        return { code, stdout: r.stdout(), stderr: r.stderr() };
      },
    };
  }
  const acceptMain = rule("resource: main-event\nreason: live ops\nuntil: 2027-01-31");
  const acceptBoth = `${acceptMain}  - resource: studio-*\n    reason: rebuild\n    until: 2027-02-01\n`;

  it("reads cdnstream-drift.yaml in the project directory: one change accepted, one counted, exit 2", async () => {
    const h = harness({ "/work/infra/cdnstream-drift.yaml": acceptMain });
    const r = await h.run(["--cwd", "infra", "--json", "r.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/prod: drift in studio-b\.\{disabled\}; 1 accepted or ignored/);
    const report = JSON.parse(h.written["/work/r.json"]!);
    expect(report.stacks[0].resources[0].properties[0].accepted).toEqual({
      rule: "infra/cdnstream-drift.yaml:2",
      reason: "live ops",
      until: "2027-01-31",
    });
    expect(report.acceptance).toEqual({ file: "infra/cdnstream-drift.yaml", stale: [], expired: [] });
  });

  it("every change accepted: exit 0; --no-accept counts them all; no default file means no rules", async () => {
    const h = harness({ "/work/cdnstream-drift.yaml": acceptBoth });
    const all = await h.run([]);
    expect(all.code).toBe(0);
    expect(all.stderr).toMatch(/prod: no drift \(2 accepted or ignored\)/);
    expect(all.stdout).toMatch(/^## No drift\n/);
    expect((await h.run(["--no-accept", "--json", "-"])).code).toBe(2);
    expect(JSON.parse((await h.run(["--no-accept", "--json", "-"])).stdout).acceptance).toBeUndefined();
    const none = harness({});
    const r = await none.run(["--json", "-"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).acceptance).toBeUndefined();
  });

  it("--accept FILE names another file, relative to the working directory", async () => {
    const h = harness({ "/work/ops/rules.yaml": acceptBoth });
    const r = await h.run(["--accept", "ops/rules.yaml", "--json", "-"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).stacks[0].resources[1].properties[0].accepted.rule).toBe("ops/rules.yaml:5");
  });

  it.each([
    [["--accept", "missing.yaml"], /cannot read the acceptance file missing\.yaml \(ENOENT\)/, {}],
    [["--accept", "r.yaml", "--no-accept"], /--accept FILE and --no-accept exclude each other/, {}],
    [["--accept", ""], /--accept needs a file name/, {}],
    [
      [],
      /cdnstream-drift\.yaml:4: accept\[0\]\.until: 2028-01-31 is more than 366 days/,
      {
        "/work/cdnstream-drift.yaml": rule("resource: a\nreason: r\nuntil: 2028-01-31"),
      },
    ],
  ])("%j is bad usage: exit 64, nothing checked, no report", async (argv, message, files) => {
    const h = harness(files);
    const r = await h.run([...argv, "--json", "r.json"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Run `cdnstream drift --help` for usage\./);
    expect(h.checked).toEqual([]);
    expect(h.written).toEqual({});
  });
});

describe("cdnstream drift accept", () => {
  const report: DriftReport = driftReport([
    {
      stack: "prod",
      cwd: "/p",
      drifted: true,
      resources: [
        resource("delayed", [{ ...disabled, ignoredByProgram: true }]),
        resource("gone", [], DYNAMIC, true),
        resource("main-event", [
          disabled,
          { property: "streamId", recorded: 1, live: 2, accepted: { rule: "x:1", reason: "r", until: "2027-01-01" } },
        ]),
      ],
    },
    { stack: "staging", cwd: "/p", drifted: true, resources: [resource("main-event", [disabled])] },
  ]);

  function harness(files: Record<string, string>) {
    const command = createAcceptCommand({
      cwd: () => "/work",
      today: () => TODAY,
      readFile(file) {
        if (!(file in files)) throw Object.assign(new Error(`ENOENT: ${file}`), { code: "ENOENT" });
        return files[file]!;
      },
      writeFile: (file, text) => void (files[file] = text),
    });
    return async (argv: string[]) => {
      const r = recorder();
      const code = await command.run(argv, r.io);
      return { code, stdout: r.stdout(), stderr: r.stderr() };
    };
  }

  it("a rule per counted finding: never for accepted or ignored ones", () => {
    expect(rulesFor(report)).toEqual([
      { resource: "gone", stack: "prod" },
      { resource: "main-event", property: "disabled", stack: "prod" },
      { resource: "main-event", property: "disabled", stack: "staging" },
    ]);
  });

  it("writes them into the file, keeping its comments, order and other rules; a rule of the same finding is renewed in place", async () => {
    const before = `# Expected drift of the infra project.
accept:
  # Owned by the ad-ops team until the migration.
  - resource: campaign-*   # every campaign
    reason: ad-ops
    until: 2027-03-01
  - resource: main-event
    property: disabled
    stack: staging
    reason: old reason
    until: 2026-01-01   # expired

# End of the rules.
`;
    const files: Record<string, string> = {
      "/work/report.json": JSON.stringify(report),
      "/work/cdnstream-drift.yaml": before,
    };
    const r = await harness(files)([
      "report.json",
      "--reason",
      "reviewed in the nightly issue",
      "--until",
      "2027-01-15",
    ]);
    expect(r.stderr).toContain("cdnstream drift accept: prod: gone (deleted) accepted until 2027-01-15");
    expect(r.stderr).toContain("3 rules written to cdnstream-drift.yaml");
    expect(r.code).toBe(0);
    expect(files["/work/cdnstream-drift.yaml"]).toBe(`# Expected drift of the infra project.
accept:
  # Owned by the ad-ops team until the migration.
  - resource: campaign-* # every campaign
    reason: ad-ops
    until: 2027-03-01
  - resource: main-event
    property: disabled
    stack: staging
    reason: reviewed in the nightly issue
    until: 2027-01-15 # expired
  - resource: gone
    stack: prod
    reason: reviewed in the nightly issue
    until: 2027-01-15
  - resource: main-event
    property: disabled
    stack: prod
    reason: reviewed in the nightly issue
    until: 2027-01-15

# End of the rules.
`);
    // What it wrote is a valid file that accepts every counted finding of the report.
    const written = parseRules(files["/work/cdnstream-drift.yaml"]!, FILE, TODAY);
    const again = structuredClone(report);
    applyRules(again.stacks, written, TODAY);
    expect(again.stacks.map((s) => s.drifted)).toEqual([false, false]);
  });

  it("creates the file when there is none, at --file FILE", async () => {
    const files: Record<string, string> = { "/work/report.json": JSON.stringify(report) };
    const r = await harness(files)([
      "report.json",
      "--reason",
      "r",
      "--until",
      "2027-01-15",
      "--file",
      "ops/rules.yaml",
    ]);
    expect(r.code).toBe(0);
    expect(files["/work/ops/rules.yaml"]).toMatch(
      /^# Accepted drift, read by every `cdnstream drift` run of this project/,
    );
    expect(parseRules(files["/work/ops/rules.yaml"]!, "rules.yaml", TODAY)).toHaveLength(3);
  });

  it("nothing to accept: exit 0, the file left as it was", async () => {
    const clean = driftReport([{ stack: "prod", cwd: "/p", drifted: false, resources: [] }]);
    const files: Record<string, string> = { "/work/report.json": JSON.stringify(clean) };
    const r = await harness(files)(["report.json", "--reason", "r", "--until", "2027-01-15"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/nothing to accept/);
    expect(Object.keys(files)).toEqual(["/work/report.json"]);
  });

  it.each([
    [["--reason", "r", "--until", "2027-01-15"], /accept takes one report \(REPORT\.json\), got none/],
    [["report.json", "--until", "2027-01-15"], /--reason TEXT is required/],
    [["report.json", "--reason", " ", "--until", "2027-01-15"], /--reason TEXT is required/],
    [["report.json", "--reason", "r"], /--until DATE is required/],
    [["report.json", "--reason", "r", "--until", "15/01/2027"], /--until: "15\/01\/2027" is not a date/],
    [
      ["report.json", "--reason", "r", "--until", "2028-01-15"],
      /--until: 2028-01-15 is more than 366 days after today/,
    ],
    [["report.json", "--reason", "r", "--until", "2026-11-28"], /--until: 2026-11-28 is before today \(2026-11-29\)/],
    [["nope.json", "--reason", "r", "--until", "2027-01-15"], /cannot read \/work\/nope\.json \(ENOENT\)/],
    [["notes.md", "--reason", "r", "--until", "2027-01-15"], /notes\.md is not JSON/],
    [["other.json", "--reason", "r", "--until", "2027-01-15"], /other\.json is not a drift report/],
    [
      ["report.json", "--reason", "r", "--until", "2027-01-15", "--file", "bad.yaml"],
      /^cdnstream drift accept: bad\.yaml:1: the file: unknown key rules/,
    ],
  ])("%j is bad usage: exit 64, no file written", async (argv, message) => {
    const files: Record<string, string> = {
      "/work/report.json": JSON.stringify(report),
      "/work/notes.md": "## Drift detected\n",
      "/work/other.json": JSON.stringify({ stacks: [{ name: "x" }] }),
      "/work/bad.yaml": "rules: []\n",
    };
    const before = { ...files };
    const r = await harness(files)(argv);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(message);
    expect(files).toEqual(before);
  });

  it("addRules on a file of another shape adds the accept list without losing what is there", () => {
    expect(addRules("accept:\n", [{ resource: "a", stack: "prod" }], "r", "2027-01-15")).toBe(
      "accept:\n  - resource: a\n    stack: prod\n    reason: r\n    until: 2027-01-15\n",
    );
  });

  it("has a help text, reachable from the top-level command", async () => {
    const r = recorder();
    expect(await main(["drift", "accept", "--help"], r.io)).toBe(0);
    expect(r.stdout()).toMatch(
      /^Usage: cdnstream drift accept REPORT\.json --reason TEXT --until DATE \[--file FILE\]/,
    );
    expect(r.stdout()).toMatch(/Exit status \(every command\):/);
    const d = recorder();
    expect(await main(["drift", "--help"], d.io)).toBe(0);
    expect(d.stdout()).toMatch(/--accept FILE/);
    expect(d.stdout()).toMatch(/--no-accept/);
    expect(d.stdout()).toMatch(/ignored by the program/);
  });
});
