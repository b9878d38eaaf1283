/**
 * `cdnstream drift accept REPORT.json`: a rule of the acceptance file for each counted finding of
 * a report, written into the file through the YAML document (its comments, order and other rules
 * kept), so that reviewing a report and accepting what it shows is one command.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { isMap, isScalar, isSeq, parseDocument, YAMLSeq, type Document } from "yaml";
import { EXIT, EXIT_HELP, parseOptions, parseOrExit, UsageError, type Command } from "./command";
import { DEFAULT_RULES_FILE, parseRules, todayUtc, untilProblem } from "./drift-accept-rules";
import { counts, parseDriftReport, type DriftReport } from "./drift-report";
import { redacting } from "./environment";

const HELP = `Usage: cdnstream drift accept REPORT.json --reason TEXT --until DATE [--file FILE]

Accepts the drift a report shows: for each change of REPORT.json (the --json report of
\`cdnstream drift\` or \`cdnstream drift merge\`) that counted, neither accepted nor ignored by the
program, writes a rule into the acceptance file, so that later runs report the change as
accepted and do not count it until DATE:

  - resource: main-event      # the resource's name
    property: disabled        # the changed property (none for a deleted resource)
    stack: prod               # the stack of the report
    reason: TEXT
    until: DATE

A rule for the same resource, property and stack already in the file gets the new reason and
date in its place; every other rule, comment and blank line of the file stays as it was. The
file is created when it does not exist.

Options:
      --reason TEXT      why the changes are accepted (required)
      --until DATE       the rules' last day, YYYY-MM-DD (UTC), at most 366 days from today (required)
      --file FILE        the acceptance file (default: ${DEFAULT_RULES_FILE} in the current directory,
                         the one \`cdnstream drift\` reads beside Pulumi.yaml)
  -h, --help             show this help

A report that is not a drift report, a bad date, no reason or an acceptance file that is not
valid is bad usage (exit 64); the file is then left as it was. A report with nothing to accept
exits 0 and writes nothing.

${EXIT_HELP}`;

/** One rule to write: what it matches. */
interface RuleSpec {
  resource: string;
  property?: string;
  stack: string;
}

/** The rules that accept each counted finding of `report`, once each. */
export function rulesFor(report: DriftReport): RuleSpec[] {
  const specs = new Map<string, RuleSpec>();
  for (const s of report.stacks)
    for (const r of s.resources) {
      const found: RuleSpec[] = r.deleted
        ? counts(r)
          ? [{ resource: r.name, stack: s.stack }]
          : []
        : r.properties.filter(counts).map((p) => ({ resource: r.name, property: p.property, stack: s.stack }));
      for (const spec of found) specs.set(JSON.stringify([spec.stack, spec.resource, spec.property ?? null]), spec);
    }
  return [...specs.values()];
}

/** A report file, read and parsed as a drift report; throws a UsageError naming the file. */
function readReport(file: string, read: (file: string) => string): DriftReport {
  let text: string;
  try {
    text = read(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "unreadable";
    throw new UsageError(`cannot read ${file} (${code}): give the JSON report of \`cdnstream drift --json FILE\``);
  }
  return parseDriftReport(file, text);
}

/** The value of `key` in a rule mapping, when it is a plain scalar. */
const valueOf = (rule: unknown, key: string) => {
  if (!isMap(rule)) return undefined;
  const node = rule.get(key, true);
  return isScalar(node) ? node.value : undefined;
};

/**
 * `text` (the acceptance file, maybe empty) with a rule for each of `specs`: an existing rule of
 * the same resource, property and stack updated in place, the others appended to `accept`.
 */
export function addRules(text: string, specs: readonly RuleSpec[], reason: string, until: string): string {
  const doc: Document = parseDocument(text);
  if (!isMap(doc.contents)) {
    // An empty file, or one of comments only: the rules are its mapping, the comments stay above it.
    const comment = doc.commentBefore ?? doc.comment;
    doc.contents = doc.createNode({ accept: [] });
    doc.commentBefore =
      comment ?? " Accepted drift, read by every `cdnstream drift` run of this project (docs/drift.md)";
    doc.comment = null;
  }
  let list = doc.get("accept", true);
  if (!isSeq(list)) {
    list = new YAMLSeq();
    doc.set("accept", list);
  }
  const rules = list as YAMLSeq;
  for (const spec of specs) {
    const same = rules.items.find(
      (rule) =>
        valueOf(rule, "resource") === spec.resource &&
        valueOf(rule, "property") === spec.property &&
        valueOf(rule, "stack") === spec.stack,
    );
    if (isMap(same)) {
      same.set("reason", reason);
      same.set("until", until);
      continue;
    }
    rules.add(
      doc.createNode({
        resource: spec.resource,
        ...(spec.property !== undefined ? { property: spec.property } : {}),
        stack: spec.stack,
        reason,
        until,
      }),
    );
  }
  return doc.toString();
}

/** What `drift accept` needs from the file system and the clock; replaced in unit tests. */
export interface AcceptDeps {
  readFile(file: string): string;
  writeFile(file: string, text: string): void;
  cwd(): string;
  /** YYYY-MM-DD (UTC). */
  today(): string;
}

function parseAcceptArgs(argv: readonly string[], deps: AcceptDeps) {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: {
      reason: { type: "string" },
      until: { type: "string" },
      file: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  if (positionals.length !== 1)
    throw new UsageError(
      `accept takes one report (REPORT.json), got ${positionals.length ? positionals.join(" ") : "none"}`,
    );
  const reason = values.reason?.trim();
  if (!reason) throw new UsageError("--reason TEXT is required: say why the changes are accepted");
  if (values.until === undefined)
    throw new UsageError("--until DATE is required: the rules' last day, YYYY-MM-DD (UTC)");
  const today = deps.today();
  const problem = untilProblem(values.until, today);
  if (problem) throw new UsageError(`--until: ${problem}`);
  if (values.until < today)
    throw new UsageError(`--until: ${values.until} is before today (${today}): a rule must end today or later`);
  if (values.file === "") throw new UsageError("--file needs a file name");
  const name = values.file ?? DEFAULT_RULES_FILE;
  return {
    report: readReport(path.resolve(deps.cwd(), positionals[0]!), deps.readFile),
    reason,
    until: values.until,
    file: path.resolve(deps.cwd(), name),
    name,
    today,
  };
}

/** The `drift accept` subcommand over the given dependencies. */
export function createAcceptCommand(deps: AcceptDeps): Command {
  return {
    summary: "write an acceptance rule for each change of a drift report",
    async run(argv, given) {
      const io = redacting(given);
      const say = (text: string) => io.stderr(`cdnstream drift accept: ${text}`);
      const args = parseOrExit(io, "drift accept", HELP, () => {
        const parsed = parseAcceptArgs(argv, deps);
        if (!parsed) return undefined;
        let text = "";
        try {
          text = parsed && deps.readFile(parsed.file);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "ENOENT")
            throw new UsageError(`cannot read ${parsed.name}: ${(e as Error).message}`);
        }
        // The file as it is must be valid: its rules are kept, and a bad one would fail every later run.
        parseRules(text, parsed.name, parsed.today);
        return { ...parsed, text };
      });
      if (typeof args === "number") return args;
      const specs = rulesFor(args.report);
      if (!specs.length) {
        say(`nothing to accept: the report has no change that counts; ${args.name} left as it was`);
        return EXIT.ok;
      }
      try {
        deps.writeFile(args.file, addRules(args.text, specs, args.reason, args.until));
      } catch (e) {
        say(`cannot write ${args.name}: ${(e as Error).message}`);
        return EXIT.failed;
      }
      for (const spec of specs)
        say(
          `${spec.stack}: ${spec.resource}${spec.property ? `.${spec.property}` : " (deleted)"} accepted until ${args.until}`,
        );
      say(`${specs.length} rule${specs.length === 1 ? "" : "s"} written to ${args.name}`);
      return EXIT.ok;
    },
  };
}

export const acceptCommand = createAcceptCommand({
  readFile: (file) => readFileSync(file, "utf8"),
  writeFile: writeFileSync,
  cwd: () => process.cwd(),
  today: () => todayUtc(),
});
