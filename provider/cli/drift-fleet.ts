/**
 * Drift across a fleet of stacks, fanned out over a CI matrix: `cdnstream drift --shard i/n` and
 * `cdnstream drift merge` (their HELP says how, and why a shard is a hash of the stack's name).
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { EXIT_HELP, parseOptions, parseOrExit, UsageError, type Command } from "./command";
import {
  driftReport,
  reportFiles,
  resolveFile,
  writeReport,
  type AcceptanceSummary,
  type DriftReport,
  type Shard,
} from "./drift-report";
import { redacting } from "./environment";

const SHARD_RULE =
  "--shard takes i/n: shard i of n, whole numbers with 1 <= i <= n (e.g. --shard 2/4 for the second of four)";

const isShard = (index: number, count: number) =>
  Number.isSafeInteger(index) && Number.isSafeInteger(count) && index >= 1 && index <= count;

/** `--shard i/n` as given on the command line; throws a UsageError naming the option, the rule and an example. */
export function parseShard(raw: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || !isShard(index, count)) throw new UsageError(`${SHARD_RULE}, got "${raw}"`);
  return { index, count };
}

/**
 * The name a stack is sharded by: organization/project/stack, as far as the name the backend
 * lists (or --stack gives) carries an organization. `prod` of project `infra` is `infra/prod`;
 * `acme/prod` is `acme/infra/prod`; `acme/infra/prod` stays as it is.
 */
export function fullyQualifiedName(stack: string, project: string): string {
  const parts = stack.split("/");
  if (parts.length >= 3) return stack;
  if (parts.length === 2) return `${parts[0]}/${project}/${parts[1]}`;
  return `${project}/${stack}`;
}

/** The shard (1 to `count`) a stack belongs in: the first 48 bits of SHA-256 of its fully qualified name, modulo `count`. */
export function shardOf(stack: string, project: string, count: number): number {
  const digest = createHash("sha256").update(fullyQualifiedName(stack, project)).digest();
  return (digest.readUIntBE(0, 6) % count) + 1;
}

/** The stacks of `stacks` that fall in `shard`, in their order. */
export function stacksInShard(stacks: readonly string[], project: string, shard: Shard): string[] {
  return stacks.filter((s) => shardOf(s, project, shard.count) === shard.index);
}

const MERGE_HELP = `Usage: cdnstream drift merge REPORT.json... [--json FILE] [--markdown FILE]

Combines the JSON reports of one sharded drift check, \`cdnstream drift --shard i/n\` run once for
each i from 1 to n (e.g. the jobs of a CI matrix), into one report of the whole fleet: the JSON
and the markdown of \`cdnstream drift\`, stacks ordered by name, and the exit code of the fleet.

Options:
      --json FILE        write the merged JSON report to FILE (- for stdout)
      --markdown FILE    write the merged markdown report (an issue or pull-request comment) to FILE
  -h, --help             show this help

Every shard must be there exactly once, all of the same n: a missing shard's stacks were never
checked, so a fleet without it could read as clean when it is not. Reports of different n or of
different projects, a shard given twice, a missing shard, a stack in two shards, a report written
without --shard or a file that is not a drift report are bad usage (exit 64); nothing is written
then.

The exit code is the one a single run over every stack would give: 1 when any stack could not
be checked (even beside drift elsewhere: a stack not checked may hide drift, and the command
line was right, the fleet was not fully seen), else 2 when any stack drifted, else 0.

Acceptance (\`cdnstream drift --help\`): each shard applied the project's rules to its own stacks,
and the merged report keeps every finding's mark; a rule is listed as stale only when it matched
nothing in any shard, and as expired when a shard found it so.

Without --json -, stdout gets the markdown report.

${EXIT_HELP}`;

type ShardReport = DriftReport & { shard: Shard };

/** One report file, read and checked to be a shard's drift report; throws a UsageError naming the file. */
function readShardReport(file: string): ShardReport {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(
      `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give the JSON report (--json FILE) of each shard`,
    );
  }
  let r: Partial<DriftReport> | null;
  try {
    r = JSON.parse(text) as Partial<DriftReport> | null;
  } catch {
    throw new UsageError(`${file} is not JSON: give the JSON report (--json FILE) of each shard, not the markdown`);
  }
  if (r === null || typeof r !== "object" || !Array.isArray(r.stacks) || typeof r.drifted !== "boolean")
    throw new UsageError(`${file} is not a drift report: it needs "stacks" (a list) and "drifted" (true or false)`);
  if (r.shard === null || typeof r.shard !== "object" || !isShard(r.shard.index, r.shard.count))
    throw new UsageError(
      `${file} covers no shard (it was written without --shard, or is a merged report): merge combines the reports of \`cdnstream drift --shard i/n\`, one for each i from 1 to n`,
    );
  for (const s of r.stacks)
    if (s === null || typeof s !== "object" || typeof s.stack !== "string" || typeof s.drifted !== "boolean")
      throw new UsageError(`${file} is not a drift report: each entry of "stacks" needs "stack" and "drifted"`);
  if (r.project !== undefined && typeof r.project !== "string")
    throw new UsageError(`${file} is not a drift report: its "project" must be the project's name`);
  return r as ShardReport;
}

/**
 * The one report of the fleet from the reports of every shard, given as file names and reports;
 * throws a UsageError when the shards are not exactly 1 to n of one n.
 */
export function mergeReports(reports: readonly { file: string; report: ShardReport }[]): DriftReport {
  if (!reports.length) throw new UsageError("merge needs the JSON report of every shard, e.g. drift-*.json");
  const counts = [...new Set(reports.map((r) => r.report.shard.count))];
  if (counts.length > 1)
    throw new UsageError(
      `the reports are of different shard counts (${reports.map((r) => `${r.file} is shard ${r.report.shard.index}/${r.report.shard.count}`).join(", ")}): merge the reports of one run, every shard made with the same n`,
    );
  const count = counts[0]!;
  // Reports written before shard reports named their project name none; the others must agree.
  const projects = [...new Set(reports.flatMap((r) => r.report.project ?? []))];
  if (projects.length > 1)
    throw new UsageError(
      `the reports are of different projects (${reports.map((r) => `${r.file} is of ${r.report.project ?? "an unnamed project"}`).join(", ")}): merge the shards of one project's run, and each project's apart`,
    );
  const byIndex = new Map<number, string>();
  for (const { file, report } of reports) {
    const seen = byIndex.get(report.shard.index);
    if (seen !== undefined)
      throw new UsageError(
        `shard ${report.shard.index}/${count} is given twice (${seen} and ${file}): give each shard's report once`,
      );
    byIndex.set(report.shard.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new UsageError(
      `shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${count}`).join(", ")} missing: ` +
        "its stacks were not checked, so the fleet cannot be reported clean; give the report of every shard from 1 to " +
        `${count} (a shard whose job failed must be run again)`,
    );
  // A stack is in one shard: in two, the reports are of runs that listed different stacks (or of
  // renamed projects), and the fleet's report would count it twice.
  const shardOfStack = new Map<string, string>();
  for (const { file, report } of reports)
    for (const { stack } of report.stacks) {
      const seen = shardOfStack.get(stack);
      if (seen !== undefined)
        throw new UsageError(
          `stack ${stack} is in two shards (${seen} and ${file}), and a stack is in one shard: merge the reports of one run of \`cdnstream drift --shard i/n\` over one project`,
        );
      shardOfStack.set(stack, file);
    }
  // By name, whatever order the shards came in: the same issue body night after night.
  const stacks = reports
    .flatMap((r) => r.report.stacks)
    .sort((a, b) => (a.stack < b.stack ? -1 : a.stack > b.stack ? 1 : 0));
  return driftReport(
    stacks,
    { shards: count, ...(projects.length ? { project: projects[0] } : {}) },
    mergedAcceptance(reports.map((r) => r.report)),
  );
}

/**
 * The acceptance file's account over every shard. Each shard applied the rules to its own
 * stacks, and its findings keep their marks; a rule is stale in the fleet only when it matched
 * nothing in any shard, and expired when any shard found it so.
 */
function mergedAcceptance(reports: readonly DriftReport[]): AcceptanceSummary | undefined {
  const read = reports.flatMap((r) => (r.acceptance ? [r.acceptance] : []));
  if (!read.length) return undefined;
  const staleIn = (a: AcceptanceSummary, rule: string) => a.stale.some((x) => x.rule === rule);
  const expired = new Map(read.flatMap((a) => a.expired.map((x) => [x.rule, x] as const)));
  return {
    file: read[0]!.file,
    stale: read[0]!.stale.filter((x) => read.every((a) => staleIn(a, x.rule))),
    expired: [...expired.values()],
  };
}

/** What `drift merge` needs from the file system; replaced in unit tests. */
export interface MergeDeps {
  readReport(file: string): ShardReport;
  writeFile(file: string, text: string): void;
  cwd(): string;
}

/** Parses the arguments after `drift merge` and merges the reports; `undefined` means help was asked for. */
function parseMergeArgs(argv: readonly string[], deps: MergeDeps) {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: { json: { type: "string" }, markdown: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) return undefined;
  const files = reportFiles(values, deps.cwd());
  const merged = mergeReports(
    positionals.map((f) => ({ file: f, report: deps.readReport(resolveFile(deps.cwd(), f)!) })),
  );
  return { files, merged };
}

/** The `drift merge` subcommand over the given dependencies. */
export function createMergeCommand(deps: MergeDeps): Command {
  return {
    summary: "combine the reports of every shard of `drift --shard i/n` into one",
    async run(argv, given) {
      const io = redacting(given);
      const args = parseOrExit(io, "drift merge", MERGE_HELP, () => parseMergeArgs(argv, deps));
      if (typeof args === "number") return args;
      // The shard reports were redacted when written; a secret of this environment is redacted again all the same.
      return writeReport(args.merged, args.files, io.redactor, io, deps.writeFile, (text) =>
        io.stderr(`cdnstream drift merge: ${text}`),
      );
    },
  };
}

export const mergeCommand = createMergeCommand({
  readReport: readShardReport,
  writeFile: writeFileSync,
  cwd: () => process.cwd(),
});
