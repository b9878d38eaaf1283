/**
 * The acceptance file of `cdnstream drift` (`cdnstream-drift.yaml` beside Pulumi.yaml): its rules
 * read and checked with their line numbers, and matched against a run's findings. A finding a rule
 * matches stays in the reports, marked, and does not count (./drift-report.ts `counts`).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import { z } from "zod";
import { UsageError } from "./command";
import {
  canonical,
  hasCountedDrift,
  shortType,
  type AcceptanceSummary,
  type ResourceDrift,
  type RuleNote,
  type StackReport,
} from "./drift-report";

/** The file a project's rules are read from, in the project directory, unless `--accept FILE` names another. */
export const DEFAULT_RULES_FILE = "cdnstream-drift.yaml";

/** Every acceptance comes up for review: a rule's `until` is at most this many days after the day of the run. */
export const MAX_DAYS_AHEAD = 366;

/** One rule of the file, as written, with where it is (`rule`: `file:line`); reports list stale and expired ones as they are. */
export type AcceptRule = RuleNote;

/** The day of the run, YYYY-MM-DD in UTC. */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/** `day` (YYYY-MM-DD) plus `days`, as YYYY-MM-DD. */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A calendar date written YYYY-MM-DD that exists (not 2027-02-30). */
export const isIsoDate = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && addDays(text, 0) === text;

/**
 * Why an `until` cannot be used on `today`, or undefined when it can. A past date is allowed in the
 * file (the rule has expired and the report says so); on the command line `drift accept` refuses it.
 */
export function untilProblem(until: string, today: string): string | undefined {
  if (!isIsoDate(until)) return `"${until}" is not a date: write it as YYYY-MM-DD (UTC), e.g. ${addDays(today, 30)}`;
  const latest = addDays(today, MAX_DAYS_AHEAD);
  if (until > latest)
    return `${until} is more than ${MAX_DAYS_AHEAD} days after today (${today}): choose ${latest} or earlier, so that every acceptance comes up for review`;
  return undefined;
}

// No resource name, type token, URN or stack name holds a control character (a newline, a tab).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// Stack names are letters, digits, -, _ and ., with organization/ and project/ before them.
const STACK_GLOB = /^[A-Za-z0-9._\-/*?]+$/;
// A top-level input property, then .name or [index] steps into it.
const PROPERTY_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;

/**
 * Why a resource glob cannot match any resource, or undefined. It matches a name, a type token or
 * a URN; it cannot when it is blank or holds a control character, and a glob written as a URN
 * (beginning `urn:`) must begin `urn:pulumi:` and join its parts with `::` (or a `*` standing for them).
 */
export function resourceGlobProblem(glob: string): string | undefined {
  if (!glob.trim()) return "is empty: name a resource, a type token or a URN (* and ? match)";
  if (CONTROL.test(glob))
    return "holds a control character (a newline or a tab), which no resource name, type or URN holds";
  if (glob.startsWith("urn:") && (!/^urn:(?:pulumi:|[^:]*[*?])/.test(glob) || !/::|\*/.test(glob)))
    return `"${glob}" cannot match a URN: a URN is urn:pulumi:STACK::PROJECT::TYPE::NAME (copy it from the report)`;
  return undefined;
}

const rulesSchema = z.strictObject({
  accept: z
    .array(
      z.strictObject({
        resource: z.string().superRefine((glob, ctx) => {
          const problem = resourceGlobProblem(glob);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        }),
        property: z
          .string()
          .regex(PROPERTY_PATH, "must be an input property or a path in one: disabled, origin.hostname, domains[0]")
          .optional(),
        stack: z
          .string()
          .regex(STACK_GLOB, "must be a stack name or a glob of one: letters, digits, - _ . / and * ?")
          .optional(),
        reason: z.string().trim().min(1, "must say why the change is accepted"),
        until: z.string(),
      }),
    )
    .nullish(),
});

/** What a zod issue means for a rule's field, said as the rest of the message after `field:`. */
function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys")
    return issue.path.length
      ? `unknown key${issue.keys.length === 1 ? "" : "s"} ${issue.keys.join(", ")}: a rule has resource, property, stack, reason and until`
      : `unknown key${issue.keys.length === 1 ? "" : "s"} ${issue.keys.join(", ")}: the file has one key, accept (a list of rules)`;
  if (issue.code === "invalid_type") {
    const field = String(issue.path.at(-1) ?? "");
    const required = ["resource", "reason", "until"].includes(field);
    // zod v4 reports a missing key as an invalid_type whose input is undefined.
    if (issue.message.includes("received undefined") && required)
      return field === "until"
        ? "is required: the rule's last day, YYYY-MM-DD (UTC), at most 366 days ahead"
        : field === "reason"
          ? "is required: say why the change is accepted"
          : "is required: a resource name, type token or URN (* and ? match)";
    if (issue.path.length === 0) return "the file must be a mapping with the key accept: a list of rules";
    if (field === "accept") return "must be a list of rules (- resource: ...)";
    if (typeof issue.path.at(-1) === "number") return "must be a rule: a mapping with resource, reason and until";
    return field === "until" ? "must be a date written YYYY-MM-DD (UTC)" : "must be text";
  }
  return issue.message;
}

/** The line (1-based) of the node at `path` in the document, or of the nearest mapping that holds it. */
function lineOf(doc: Document, counter: LineCounter, path: readonly PropertyKey[]): number {
  for (let n = path.length; n >= 0; n--) {
    const parent = n > 0 ? doc.getIn(path.slice(0, n - 1) as unknown[], true) : undefined;
    const key = path[n - 1];
    // The key's own position: a value on another line than its key still reads as the key's line.
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
      const at = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (at !== undefined) return counter.linePos(at).line;
    }
    const node = n > 0 ? doc.getIn(path.slice(0, n) as unknown[], true) : doc.contents;
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return counter.linePos(range[0]).line;
  }
  return 1;
}

/** The rules of `text` (the file `name`, as the user gave it); throws a UsageError naming the file, line and field. */
export function parseRules(text: string, name: string, today: string): AcceptRule[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const bad = (line: number, what: string) =>
    new UsageError(`${name}:${line}: ${what} (see "Accepted drift" in docs/drift.md); nothing was checked`);
  const syntax = doc.errors[0];
  if (syntax) throw bad(counter.linePos(syntax.pos[0]).line, `not YAML: ${syntax.message.split("\n")[0]}`);
  const parsed = rulesSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");
    // An unknown key is pointed at where it is written, not at the rule that holds it.
    const at = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]!] : issue.path;
    throw bad(lineOf(doc, counter, at), `${where || "the file"}: ${issueText(issue)}`);
  }
  return (parsed.data.accept ?? []).map((r, i) => {
    const line = (field: string) => lineOf(doc, counter, ["accept", i, field]);
    const problem = untilProblem(r.until, today);
    if (problem) throw bad(line("until"), `accept[${i}].until: ${problem}`);
    const rule: AcceptRule = {
      rule: `${name}:${lineOf(doc, counter, ["accept", i])}`,
      resource: r.resource,
      reason: r.reason.trim(),
      until: r.until,
    };
    if (r.property !== undefined) rule.property = r.property;
    if (r.stack !== undefined) rule.stack = r.stack;
    return rule;
  });
}

/** Where a run's rules come from: the file, how it is named in messages, and whether it must exist. */
export interface RulesSource {
  file: string;
  name: string;
  /** Named with --accept: a missing file is bad usage. The default file may be absent (no rules). */
  required: boolean;
}

/** The rules of `source` (none when the default file is absent); throws a UsageError for a bad or missing named file. */
export function loadRules(
  source: RulesSource,
  today: string,
  read: (file: string) => string = readText,
): AcceptRule[] | undefined {
  let text: string;
  try {
    text = read(source.file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !source.required) return undefined;
    throw new UsageError(
      `cannot read the acceptance file ${source.name} (${code ?? (e as Error).message}): give an existing file to --accept, or --no-accept`,
    );
  }
  return parseRules(text, source.name, today);
}

const readText = (file: string) => readFileSync(file, "utf8");

/** `glob` (with * and ?) as an anchored regular expression. */
const globRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
    "s",
  );

function matchesResource(rule: AcceptRule, r: ResourceDrift): boolean {
  const glob = globRegExp(rule.resource);
  return [r.name, r.type, shortType(r.type), r.urn].some((text) => glob.test(text));
}

/** The stack's name as the report has it, or its last part (`prod` of `acme/prod`). */
function matchesStack(rule: AcceptRule, stack: string): boolean {
  if (rule.stack === undefined) return true;
  const glob = globRegExp(rule.stack);
  return glob.test(stack) || glob.test(stack.split("/").pop()!);
}

/** A property path's steps: `origin.hostname` is ["origin", "hostname"], `domains[0]` ["domains", 0]. */
export const pathSteps = (property: string): (string | number)[] =>
  [...property.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]!));

/** A copy of `value` with the value at `steps` set to null (created where absent), so two values compare without it. */
function blankAt(value: unknown, steps: readonly (string | number)[]): unknown {
  if (!steps.length) return null;
  const [step, ...rest] = steps;
  if (Array.isArray(value) && typeof step === "number") {
    const copy = [...value];
    copy[step] = blankAt(copy[step], rest);
    return copy;
  }
  if (value !== null && typeof value === "object" && typeof step === "string")
    return { ...(value as Record<string, unknown>), [step]: blankAt((value as Record<string, unknown>)[step], rest) };
  return value;
}

/**
 * Whether a property rule covers a finding of a top-level property: the same property, or a path
 * in it at which alone the recorded and live values differ (`origin.hostname` does not cover a
 * change of `origin.port`).
 */
export function coversProperty(property: string, finding: { property: string; recorded: unknown; live: unknown }) {
  const [top, ...rest] = pathSteps(property);
  if (top !== finding.property) return false;
  return !rest.length || canonical(blankAt(finding.recorded, rest)) === canonical(blankAt(finding.live, rest));
}

/**
 * Marks each finding of `stacks` that an unexpired rule matches as accepted (the first rule in
 * file order), and sets each stack's `drifted` to whether a finding still counts. Findings the
 * program ignores need no rule and are not matched. A deleted resource is matched only by a rule
 * without `property`. Returns the `rule` of each rule that matched.
 */
export function applyRules(stacks: StackReport[], rules: readonly AcceptRule[], today: string): string[] {
  const active = rules.filter((r) => r.until >= today);
  const used = new Set<string>();
  const acceptance = (rule: AcceptRule) => (
    used.add(rule.rule),
    { rule: rule.rule, reason: rule.reason, until: rule.until }
  );
  for (const s of stacks) {
    const forStack = active.filter((rule) => matchesStack(rule, s.stack));
    for (const r of s.resources) {
      const forResource = forStack.filter((rule) => matchesResource(rule, r));
      if (r.deleted) {
        const rule = forResource.find((x) => x.property === undefined);
        if (rule) r.accepted = acceptance(rule);
        continue;
      }
      for (const p of r.properties) {
        if (p.ignoredByProgram) continue;
        const rule = forResource.find((x) => x.property === undefined || coversProperty(x.property, p));
        if (rule) p.accepted = acceptance(rule);
      }
    }
    s.drifted = s.resources.some(hasCountedDrift);
  }
  return [...used];
}

/** The report's account of the file `file`: its expired rules, and its unexpired ones that matched none of `matched`. */
export function acceptanceSummary(
  file: string,
  rules: readonly AcceptRule[],
  today: string,
  matched: ReadonlySet<string>,
): AcceptanceSummary {
  return {
    file,
    stale: rules.filter((r) => r.until >= today && !matched.has(r.rule)),
    expired: rules.filter((r) => r.until < today),
  };
}

/**
 * Where `cdnstream drift` reads rules from: `--accept FILE` (relative to `baseDir`, named as given,
 * required), else cdnstream-drift.yaml in the project directory `cwd` (optional).
 */
export function rulesSource(accept: string | undefined, cwd: string, baseDir: string): RulesSource {
  if (accept !== undefined) return { file: path.resolve(baseDir, accept), name: accept, required: true };
  const file = path.join(cwd, DEFAULT_RULES_FILE);
  const relative = path.relative(baseDir, file);
  return { file, name: relative.startsWith("..") || path.isAbsolute(relative) ? file : relative, required: false };
}
