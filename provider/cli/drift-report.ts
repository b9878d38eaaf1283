/**
 * `cdnstream drift` findings: from the engine events of one refreshing preview to per-property
 * drift, and the JSON and markdown reports.
 *
 * Where drift is in the events (see the fixtures of test/cli/drift-report.test.ts): per resource,
 * `preview --refresh` emits a `resourcePreEvent` with op `refresh` (the recorded state twice),
 * then a `resOutputsEvent` with op `refresh` whose `old` is the recorded state and `new` what the
 * provider's `read` returned (`new: null` when the object is gone). Our `read` returns the
 * declared inputs unless the live value differs (kinds/common/inputs.ts `inputsFromLive`), so
 * recorded-vs-live is `old.inputs` vs `new.inputs` of that event. The later `update` steps compare
 * live with the program's declarations: what `up` would change, not drift, so they are not
 * findings; they only say which drift the program ignores.
 *
 * ignoreChanges: no event names a resource's `ignoreChanges` (StepEventStateMetadata has no such
 * field). But after a resource's refresh the engine sets each ignored property of the program's
 * inputs to the refreshed (live) value before the provider's check and diff
 * (pkg/resource/deploy/step_generator.go `processIgnoreChanges`), so the resource's next step
 * (`same` or `update`) carries the live value in `new.inputs`, where a property the program sets
 * carries the declared one. A drifted property whose next step carries its live value is one `up`
 * would leave as it is: drift the program already accepts, reported as ignored by the program.
 */
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { z } from "zod";
import type { Redactor } from "../../client/core/redact";
import { EXIT, UsageError, type Io } from "./command";

/**
 * A rule of the acceptance file (`cdnstream-drift.yaml`) that a finding matched: the finding stays
 * in the reports, marked, and does not count towards the exit code.
 */
export interface Acceptance {
  /** Where the rule is written: `cdnstream-drift.yaml:3` (the file as given, and the rule's line). */
  rule: string;
  reason: string;
  /** The rule's last day, YYYY-MM-DD (UTC). */
  until: string;
}

/** One input property whose live value differs from the recorded one. */
export interface PropertyDrift {
  property: string;
  /** The value in the stack's state (null when absent); secrets are "[secret]". */
  recorded: unknown;
  /** The value the provider read from the API (null when absent); secrets are "[secret]". */
  live: unknown;
  /** Accepted by a rule of the acceptance file: reported, not counted. */
  accepted?: Acceptance;
  /** In the resource's `ignoreChanges`: drift the program already accepts, reported, not counted. */
  ignoredByProgram?: boolean;
}

export interface ResourceDrift {
  urn: string;
  name: string;
  type: string;
  /** The object no longer exists (the provider's read reported it gone). */
  deleted: boolean;
  properties: PropertyDrift[];
  /** A deleted resource accepted by a rule of the acceptance file: reported, not counted. */
  accepted?: Acceptance;
}

export interface StackReport {
  stack: string;
  cwd: string;
  /** Some finding counts: one neither accepted by a rule nor ignored by the program. */
  drifted: boolean;
  resources: ResourceDrift[];
  /** Why the stack could not be checked; its findings are then incomplete. */
  error?: string;
  /** Warnings the engine or provider reported, e.g. a kind whose drift cannot be read. */
  warnings?: string[];
}

/** Which share of a project's stacks a run of `drift --shard i/n` checked (./drift-fleet.ts). */
export interface Shard {
  /** 1 to count. */
  index: number;
  count: number;
}

/** A rule of the acceptance file, as a report lists it: stale or expired. */
export interface RuleNote {
  /** `file:line` of the rule, as in {@link Acceptance}. */
  rule: string;
  /** A glob (`*`, `?`) over the resource's name, type token (also without `pulumi-nodejs:dynamic/`) or URN. */
  resource: string;
  /** An input property (`disabled`) or a path in one (`origin.hostname`, `domains[0]`); absent: the whole resource. */
  property?: string;
  /** A glob over the stack's name; absent: every stack. */
  stack?: string;
  reason: string;
  /** The rule's last day, YYYY-MM-DD (UTC). */
  until: string;
}

/** What the run's acceptance file did: only in a report of a run that read one. */
export interface AcceptanceSummary {
  /** The file, as named in messages and `rule`s. */
  file: string;
  /** Unexpired rules that matched no finding of the run (in a merged report: of any shard). */
  stale: RuleNote[];
  /** Rules whose `until` is before the day of the run: they matched nothing. */
  expired: RuleNote[];
}

export interface DriftReport {
  stacks: StackReport[];
  drifted: boolean;
  /** The acceptance file the run read (absent with --no-accept, or when the default file does not exist). */
  acceptance?: AcceptanceSummary;
  /** Only in a report of `drift --shard i/n`: the shard it covers. */
  shard?: Shard;
  /** Only in a report of `drift --shard i/n` (and their merge): the project whose stacks were sharded. */
  project?: string;
  /** Only in a report of `drift merge`: how many shards, every one of them, it combines. */
  shards?: number;
}

/** A finding that counts towards the exit code: neither accepted by a rule nor ignored by the program. */
export const counts = (finding: PropertyDrift | ResourceDrift): boolean =>
  finding.accepted === undefined && !("ignoredByProgram" in finding && finding.ignoredByProgram);

/** Whether a resource has a finding that counts: it was deleted unaccepted, or a property counts. */
export const hasCountedDrift = (r: ResourceDrift): boolean => (r.deleted ? counts(r) : r.properties.some(counts));

/** What a masked secret shows as, in both reports. */
export const SECRET = "[secret]";

// Pulumi's marker for a secret value in serialized properties (runtime/rpc.ts specialSigKey,
// specialSecretSig). Events carry secrets in this wrapper; only the marker is kept.
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A copy of `value` with every secret replaced by "[secret]", whatever the event carried. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record[SIG_KEY] === SECRET_SIG) return SECRET;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, maskSecrets(v)]));
}

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
export function canonical(value: unknown): string {
  const sortKeys = (_key: string, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v;
  return JSON.stringify(value, sortKeys) ?? "null";
}

// Not objects of the account: the stack itself and provider instances (their inputs are the
// stack config, which a refresh cannot find changed).
const skipType = (type: string) => type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");

// The engine's note that it runs a plugin or language host from PATH (the dynamic-provider
// plugin, pulumi-resource-cdnstream, pulumi-language-yaml): noise in every run.
const noise = /^using pulumi-(resource|language)-[\w-]+ from \$PATH/;

/** Drifted resources, warnings and error diagnostics found in one preview's events. */
export function findingsFromEvents(events: readonly EngineEvent[]) {
  const resources: ResourceDrift[] = [];
  const warnings = new Set<string>();
  const errors = new Set<string>();
  // Each resource's first step after its refresh: the inputs `up` would send (see the top of the file).
  const nextInputs = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    const step = event.resourcePreEvent?.metadata;
    if (step && step.op !== "refresh" && step.new && !nextInputs.has(step.urn))
      nextInputs.set(step.urn, maskSecrets(step.new.inputs ?? {}) as Record<string, unknown>);
  }
  for (const event of events) {
    const diag = event.diagnosticEvent;
    if (diag) {
      const message = diag.message.trim().replace(/^(warning|error): /, "");
      const where = diag.urn ? `${diag.urn.split("::").pop()}: ` : "";
      if (diag.severity === "error") errors.add(where + message);
      // Our provider's warn() writes "warning: …" to stderr, which arrives as info#err.
      else if ((diag.severity === "warning" || /^warning: /.test(diag.message)) && !noise.test(message))
        warnings.add(where + message);
      continue;
    }
    const meta = event.resOutputsEvent?.metadata;
    if (!meta || meta.op !== "refresh" || skipType(meta.type) || !meta.old) continue;
    const base = { urn: meta.urn, name: meta.urn.split("::").pop() ?? meta.urn, type: meta.type };
    if (!meta.new) {
      resources.push({ ...base, deleted: true, properties: [] });
      continue;
    }
    const recorded = maskSecrets(meta.old.inputs ?? {}) as Record<string, unknown>;
    const live = maskSecrets(meta.new.inputs ?? {}) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(live)])]
      .filter((k) => k !== "__provider")
      .sort();
    const next = nextInputs.get(meta.urn);
    const properties = keys
      .filter((k) => canonical(recorded[k]) !== canonical(live[k]))
      .map((property): PropertyDrift => {
        const finding = { property, recorded: recorded[property] ?? null, live: live[property] ?? null };
        return next && canonical(next[property]) === canonical(live[property])
          ? { ...finding, ignoredByProgram: true }
          : finding;
      });
    if (properties.length) resources.push({ ...base, deleted: false, properties });
  }
  return { resources, warnings: [...warnings], errors: [...errors] };
}

/** The report of several stacks; `coverage` says which shard, or how many merged shards, it covers, and of which project. */
export function driftReport(
  stacks: StackReport[],
  coverage: { shard?: Shard; shards?: number; project?: string } = {},
  acceptance?: AcceptanceSummary,
): DriftReport {
  return { stacks, drifted: stacks.some((s) => s.drifted), ...coverage, ...(acceptance ? { acceptance } : {}) };
}

/** Exit status: 1 when any stack could not be checked (its absence of drift proves nothing), else 2 on drift, else 0. */
export function exitCodeOf(report: DriftReport): number {
  if (report.stacks.some((s) => s.error !== undefined)) return EXIT.failed;
  return report.drifted ? EXIT.drift : EXIT.ok;
}

/** Text as a markdown code span inside a table: pipes escaped, newlines flattened, long text cut. */
export function code(raw: string): string {
  let text = raw.length > 120 ? `${raw.slice(0, 117)}...` : raw;
  text = text.replace(/\|/g, "\\|").replace(/[\r\n]+/g, " ");
  // A code span cannot contain a backtick run as long as its own fence: use a longer fence.
  const fence = "`".repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A recorded or live value: compact JSON, so `"1"` and `1` stay distinct; a secret as [secret]. */
export const cell = (value: unknown) => code(value === SECRET ? SECRET : canonical(value));

/** The dynamic-provider prefix says nothing to a reader; `cdnstream:StreamStatus` does. */
export const shortType = (type: string) => type.replace(/^pulumi-nodejs:dynamic\//, "");

/** Why a finding does not count, as the markdown says it. */
function notCounted(finding: PropertyDrift | ResourceDrift): string {
  if (finding.accepted)
    return `accepted until ${finding.accepted.until} (${code(finding.accepted.rule)}): ${code(finding.accepted.reason)}`;
  return "ignored by the program (`ignoreChanges`)";
}

function stackSection(s: StackReport): string[] {
  const rows = s.resources.flatMap((r) =>
    r.deleted ? [{ r, finding: r as PropertyDrift | ResourceDrift }] : r.properties.map((p) => ({ r, finding: p })),
  );
  const counted = rows.filter((x) => counts(x.finding));
  const others = rows.filter((x) => !counts(x.finding));
  const findings = counted.length;
  const state =
    s.error !== undefined
      ? "error"
      : s.drifted
        ? `drift (${findings} finding${findings === 1 ? "" : "s"})`
        : "No drift";
  const lines = [`### Stack \`${s.stack}\`: ${state}`, ""];
  if (s.error !== undefined) {
    lines.push("The check did not complete:", "", "```text", s.error.replace(/```/g, "'''"), "```", "");
  }
  const row = ({ r, finding }: (typeof rows)[number]) => {
    const head = `| ${code(r.name)} | ${code(shortType(r.type))} |`;
    return "property" in finding
      ? `${head} ${code(finding.property)} | ${cell(finding.recorded)} | ${cell(finding.live)} |`
      : `${head} *(whole resource)* | exists | **deleted** |`;
  };
  if (counted.length)
    lines.push("| Resource | Type | Property | Recorded | Live |", "|---|---|---|---|---|", ...counted.map(row), "");
  else if (s.error === undefined && others.length)
    lines.push("No drift that counts: every change below is accepted or ignored by the program.", "");
  else if (s.error === undefined) lines.push("No drift: every resource's live values match the recorded state.", "");
  // Kept in sight, so that an accepted change is seen in every report until its rule ends.
  if (others.length)
    lines.push(
      "Accepted or ignored (not counted):",
      "",
      "| Resource | Type | Property | Recorded | Live | Why |",
      "|---|---|---|---|---|---|",
      ...others.map((x) => `${row(x)} ${notCounted(x.finding)} |`),
      "",
    );
  if (s.warnings?.length) lines.push("Warnings:", "", ...s.warnings.map((w) => `- ${w.replace(/\s*\n\s*/g, " ")}`), "");
  return lines;
}

/** A rule as a list item: where, what it matches, until when and why. */
function ruleItem(r: RuleNote): string {
  const what = `${r.resource}${r.property !== undefined ? `.${r.property}` : ""}${r.stack !== undefined ? ` in stack ${r.stack}` : ""}`;
  return `- ${code(r.rule)} ${code(what)}, until ${r.until}: ${code(r.reason)}`;
}

/** The acceptance file's expired and stale rules, for a person to renew or remove. */
function rulesSection(acceptance?: AcceptanceSummary): string[] {
  if (!acceptance || (!acceptance.expired.length && !acceptance.stale.length)) return [];
  const lines = [`### Acceptance rules (${code(acceptance.file)})`, ""];
  if (acceptance.expired.length)
    lines.push("Expired (they no longer accept anything):", "", ...acceptance.expired.map(ruleItem), "");
  if (acceptance.stale.length)
    lines.push("Stale (they matched nothing in this run):", "", ...acceptance.stale.map(ruleItem), "");
  return lines;
}

/** The report as a pull-request comment: a heading, a summary line, a section per stack. */
export function toMarkdown(report: DriftReport): string {
  const n = report.stacks.length;
  const drifted = report.stacks.filter((s) => s.drifted).length;
  const failed = report.stacks.filter((s) => s.error !== undefined).length;
  const clean = report.stacks.filter((s) => !s.drifted && s.error === undefined).length;
  const verdict = failed ? "Drift check incomplete" : drifted ? "Drift detected" : "No drift";
  const summary = `${n} stack${n === 1 ? "" : "s"} checked: ${drifted} drifted, ${clean} clean${failed ? `, ${failed} could not be checked` : ""}.`;
  // Said under the summary, so a reader knows whether the counts are of a share or of the fleet.
  const coverage = report.shard
    ? [
        `Shard ${report.shard.index} of ${report.shard.count} of the project's stacks (\`--shard ${report.shard.index}/${report.shard.count}\`).`,
        "",
      ]
    : report.shards !== undefined
      ? [`Merged from the reports of ${report.shards === 1 ? "the one shard" : `all ${report.shards} shards`}.`, ""]
      : [];
  return [
    `## ${verdict}`,
    "",
    summary,
    "",
    ...coverage,
    ...report.stacks.flatMap(stackSection),
    ...rulesSection(report.acceptance),
    "<sub>Recorded: the stack's state. Live: what a refreshing preview read from the API, without changing the state. Secrets show as `[secret]`.</sub>",
    "",
  ].join("\n");
}

/** What a report file must hold, checked before anything runs (zod's messages, with the field's path); `checkpoint` is what drift-stack.ts records for `drift reconcile`. */
const property = z.looseObject({
  property: z.string(),
  recorded: z.unknown(),
  live: z.unknown(),
  accepted: z.looseObject({ rule: z.string(), reason: z.string(), until: z.string() }).optional(),
  ignoredByProgram: z.boolean().optional(),
});
const resource = z.looseObject({
  urn: z.string().startsWith("urn:pulumi:", { error: 'must be a Pulumi URN ("urn:pulumi:...")' }),
  name: z.string(),
  type: z.string(),
  deleted: z.boolean(),
  properties: z.array(property),
  accepted: property.shape.accepted,
});
const reportSchema = z.looseObject({
  stacks: z.array(
    z.looseObject({
      stack: z.string().min(1),
      cwd: z.string(),
      drifted: z.boolean(),
      resources: z.array(resource),
      error: z.string().optional(),
      warnings: z.array(z.string()).optional(),
      checkpoint: z.looseObject({ written: z.string(), sha256: z.string() }).optional(),
    }),
  ),
  drifted: z.boolean(),
});

/**
 * The JSON report in `file` (its `text`), parsed by zod; throws a UsageError naming the file and,
 * for a file that is JSON but not a drift report, the first field that is not as `drift` writes it.
 */
export function parseDriftReport(file: string, text: string): DriftReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(
      `${file} is not JSON: give the JSON report of \`cdnstream drift --json FILE\`, not the markdown`,
    );
  }
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path
      .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
      .join("")
      .replace(/^\./, "");
    throw new UsageError(
      `${file} is not a drift report: ${where || "the file"}: ${issue.message}. Give the JSON report of \`cdnstream drift --json FILE\` (or of \`drift merge\`)`,
    );
  }
  return parsed.data as DriftReport;
}

/** Where the reports go (`--json FILE`, `--markdown FILE`): "-" is stdout, undefined none. */
export interface ReportFiles {
  json?: string;
  markdown?: string;
}

/** `file` resolved against `baseDir`; "-" and undefined stay as they are. */
export const resolveFile = (baseDir: string, file?: string) =>
  file === undefined || file === "-" ? file : path.resolve(baseDir, file);

/** --json and --markdown checked (throws a UsageError) and resolved against `baseDir`. */
export function reportFiles(given: ReportFiles, baseDir: string): ReportFiles {
  if (given.json === "-" && given.markdown === "-")
    throw new UsageError("only one of --json and --markdown can be - (stdout)");
  if (given.json === "") throw new UsageError("--json needs a file name (or - for stdout)");
  if (given.markdown === "") throw new UsageError("--markdown needs a file name (or - for stdout)");
  return { json: resolveFile(baseDir, given.json), markdown: resolveFile(baseDir, given.markdown) };
}

/**
 * Writes the report, redacted by the run's `redactor`, to its files and to stdout (the JSON with
 * `--json -`, else the markdown). Returns its exit code, or 1 after `complain`ing of a file it cannot write.
 * `render` gives another report's markdown and exit code (`drift reconcile`'s).
 */
export function writeReport<R extends DriftReport>(
  report: R,
  files: ReportFiles,
  redactor: Redactor,
  io: Io,
  writeFile: (file: string, text: string) => void,
  complain: (text: string) => void,
  render: { markdown(report: R): string; exitCode(report: R): number } = { markdown: toMarkdown, exitCode: exitCodeOf },
): number {
  // Each string before it is escaped or cut for a table: a secret then never shows in part.
  const redacted = redactor.value(report);
  const json = `${JSON.stringify(redacted, null, 2)}\n`;
  const markdown = render.markdown(redacted);
  try {
    if (files.json !== undefined && files.json !== "-") writeFile(files.json, json);
    if (files.markdown !== undefined && files.markdown !== "-") writeFile(files.markdown, markdown);
  } catch (e) {
    complain(`cannot write the report: ${(e as Error).message}`);
    return EXIT.failed;
  }
  io.stdout(files.json === "-" ? json : markdown);
  return render.exitCode(report);
}
