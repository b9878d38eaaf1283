/**
 * Drift findings from recorded engine events. The fixture is the event stream of a real
 * `preview --refresh` (StreamStatus `a` on push/3001 changed out of band from enabled to
 * disabled; `b` on push/3002 declared with a secret `disabled` and changed too; CampaignArchive
 * `c` unarchived out of band, so its read reports it gone), with serialized providers shortened.
 * `b` is not found, and cannot be: the events carry a secret as `[secret]` on both sides.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import {
  driftReport,
  exitCodeOf,
  findingsFromEvents,
  maskSecrets,
  SECRET,
  toMarkdown,
  type StackReport,
} from "../../provider/cli/drift-report";

const events: EngineEvent[] = require("./fixtures/preview-refresh-events.json");
const secret = (ciphertext: string) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext,
});
const urn = (name: string, type = "pulumi-nodejs:dynamic/cdnstream:StreamStatus") =>
  `urn:pulumi:prod::p::${type}::${name}`;

/** A refresh step's outputs event, as the engine emits it after the provider's read. */
function refreshed(
  name: string,
  oldInputs: Record<string, unknown>,
  newInputs: Record<string, unknown> | null,
): EngineEvent {
  const state = (inputs: Record<string, unknown>) => ({
    urn: urn(name),
    type: "pulumi-nodejs:dynamic/cdnstream:StreamStatus",
    custom: true,
    id: name,
    parent: "",
    inputs,
    outputs: inputs,
    provider: "",
  });
  return {
    sequence: 1,
    timestamp: 0,
    resOutputsEvent: {
      metadata: {
        op: "refresh",
        urn: urn(name),
        type: "pulumi-nodejs:dynamic/cdnstream:StreamStatus",
        old: state(oldInputs),
        new: newInputs && state(newInputs),
        provider: "",
      },
    },
  } as unknown as EngineEvent;
}

describe("findings from a refreshing preview's events", () => {
  it("reports recorded vs live per input property, and a gone object as deleted", () => {
    const { resources, errors } = findingsFromEvents(events);
    expect(errors).toEqual([]);
    expect(resources).toEqual([
      {
        urn: "urn:pulumi:prod::drift-fixture::pulumi-nodejs:dynamic/cdnstream:CampaignArchive::c",
        name: "c",
        type: "pulumi-nodejs:dynamic/cdnstream:CampaignArchive",
        deleted: true,
        properties: [],
      },
      {
        urn: "urn:pulumi:prod::drift-fixture::pulumi-nodejs:dynamic/cdnstream:StreamStatus::a",
        name: "a",
        type: "pulumi-nodejs:dynamic/cdnstream:StreamStatus",
        deleted: false,
        properties: [{ property: "disabled", recorded: false, live: true }],
      },
    ]);
  });

  it("ignores the update steps (declared vs live), the stack, providers and the plugin-path notice", () => {
    const onlyRefresh = events.filter((e) => e.resOutputsEvent?.metadata.op === "refresh" || e.diagnosticEvent);
    expect(findingsFromEvents(onlyRefresh)).toEqual(findingsFromEvents(events));
    const updates = events.filter((e) => e.resourcePreEvent?.metadata.op === "update");
    expect(updates.length).toBeGreaterThan(0);
    expect(findingsFromEvents(updates).resources).toEqual([]);
    expect(findingsFromEvents(events).warnings).toEqual([]);
  });

  it("compares values structurally and skips __provider", () => {
    const { resources } = findingsFromEvents([
      refreshed(
        "same",
        { __provider: "x", list: ["a", "b"], obj: { p: 1, q: 2 } },
        { __provider: "y", list: ["a", "b"], obj: { q: 2, p: 1 } },
      ),
      refreshed("order", { list: ["a", "b"] }, { list: ["b", "a"] }),
      refreshed("added", { disabled: false }, { disabled: false, extra: 1 }),
    ]);
    expect(resources.map((r) => [r.name, r.properties])).toEqual([
      ["order", [{ property: "list", recorded: ["a", "b"], live: ["b", "a"] }]],
      ["added", [{ property: "extra", recorded: null, live: 1 }]],
    ]);
  });

  it("never carries a secret's value: secrets become [secret] whatever the event held", () => {
    const withPlaintext = { ...secret("[secret]"), plaintext: '"hunter2-very-secret"' };
    expect(maskSecrets({ a: [withPlaintext], b: 1 })).toEqual({ a: [SECRET], b: 1 });
    const { resources } = findingsFromEvents([
      refreshed("s", { password: withPlaintext, mode: "x" }, { password: "hunter2-now-plain", mode: "x" }),
    ]);
    expect(resources[0]!.properties).toEqual([{ property: "password", recorded: SECRET, live: "hunter2-now-plain" }]);
    expect(JSON.stringify(findingsFromEvents(events))).not.toContain("ciphertext");
  });

  it("collects provider warnings (stderr) and error diagnostics, without the plugin-path notice", () => {
    const diag = (severity: string, message: string, extra = {}) =>
      ({
        sequence: 1,
        timestamp: 0,
        diagnosticEvent: { message, color: "never", severity, ...extra },
      }) as unknown as EngineEvent;
    const found = findingsFromEvents([
      diag("warning", "using pulumi-resource-pulumi-nodejs from $PATH at /x\n", { prefix: "warning: " }),
      diag(
        "info#err",
        "warning: PushZoneSettings: the API has no read for this object (405); refresh keeps the last applied state\n\n",
      ),
      diag(
        "info#err",
        "warning: PushZoneSettings: the API has no read for this object (405); refresh keeps the last applied state\n\n",
      ),
      diag("info", "plain program output\n"),
      diag("error", "error: preview failed\n", { urn: urn("a") }),
    ]);
    expect(found.warnings).toEqual([
      "PushZoneSettings: the API has no read for this object (405); refresh keeps the last applied state",
    ]);
    expect(found.errors).toEqual(["a: preview failed"]);
  });
});

describe("reports", () => {
  const drifted: StackReport = {
    stack: "prod",
    cwd: "/p",
    drifted: true,
    resources: findingsFromEvents(events).resources,
  };
  const clean: StackReport = { stack: "staging", cwd: "/p", drifted: false, resources: [] };
  const broken: StackReport = {
    stack: "nope",
    cwd: "/p",
    drifted: false,
    resources: [],
    error: "error: no stack named 'nope' found",
  };

  it("exit codes: 0 clean, 2 drift, 1 when any stack could not be checked", () => {
    expect(exitCodeOf(driftReport([clean]))).toBe(0);
    expect(exitCodeOf(driftReport([clean, drifted]))).toBe(2);
    expect(exitCodeOf(driftReport([drifted, broken]))).toBe(1);
    expect(driftReport([clean, drifted]).drifted).toBe(true);
    expect(driftReport([clean, broken]).drifted).toBe(false);
  });

  it("markdown: a heading, a table per drifted stack, No drift, errors", () => {
    const md = toMarkdown(driftReport([drifted, clean, broken]));
    expect(md).toMatch(
      /^## Drift check incomplete\n\n3 stacks checked: 1 drifted, 1 clean, 1 could not be checked\.\n/,
    );
    expect(md).toContain(
      [
        "### Stack `prod`: drift (2 findings)",
        "",
        "| Resource | Type | Property | Recorded | Live |",
        "|---|---|---|---|---|",
        "| `c` | `cdnstream:CampaignArchive` | *(whole resource)* | exists | **deleted** |",
        "| `a` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` |",
      ].join("\n"),
    );
    expect(md).toContain(
      "### Stack `staging`: No drift\n\nNo drift: every resource's live values match the recorded state.",
    );
    expect(md).toContain(
      "### Stack `nope`: error\n\nThe check did not complete:\n\n```text\nerror: no stack named 'nope' found\n```",
    );
    expect(toMarkdown(driftReport([clean]))).toMatch(/^## No drift\n\n1 stack checked: 0 drifted, 1 clean\.\n/);
  });

  it("markdown cells: secrets as [secret], pipes and backticks escaped, long values cut", () => {
    const resources = findingsFromEvents([
      refreshed(
        "x",
        { pw: secret("[secret]"), note: "a|b `c`", big: "y".repeat(300) },
        { pw: "plain", note: "d", big: "z" },
      ),
    ]).resources;
    const md = toMarkdown(driftReport([{ stack: "s", cwd: "/p", drifted: true, resources }]));
    expect(md).toContain('| `pw` | `[secret]` | `"plain"` |');
    expect(md).toContain('| `note` | ``"a\\|b `c`"`` | `"d"` |');
    expect(md).toMatch(/\| `big` \| `"y{116}\.\.\.` \|/);
    expect(md).not.toContain("y".repeat(200));
  });
});
