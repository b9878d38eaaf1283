/**
 * `cdnstream drift` (its HELP says what it does): arguments, concurrency, output files and exit
 * codes. The engine run is ./drift-stack.ts, the findings and reports ./drift-report.ts, shards
 * (`--shard i/n`) and `drift merge` ./drift-fleet.ts.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  EXIT,
  EXIT_HELP,
  parseOptions,
  parseOrExit,
  usageFailure,
  UsageError,
  type Command,
  type Env,
} from "./command";
import { mergeCommand, parseShard, stacksInShard } from "./drift-fleet";
import { acceptCommand } from "./drift-accept";
import { acceptanceSummary, applyRules, loadRules, rulesSource, todayUtc, type AcceptRule } from "./drift-accept-rules";
import { reconcileCommand } from "./drift-reconcile";
import { counts, driftReport, hasCountedDrift, reportFiles, writeReport, type StackReport } from "./drift-report";
import { checkStack, errorMessage, listStacks } from "./drift-stack";
import { missingPulumi, redacting } from "./environment";
import { projectName, settingsFileIn } from "./project-settings";
import { isStopping } from "./signals";

const HELP = `Usage: cdnstream drift [--stack NAME ...] [--cwd DIR] [--json FILE] [--markdown FILE] [--concurrency N]
                       [--shard I/N] [--accept FILE | --no-accept]
       cdnstream drift merge REPORT.json... [--json FILE] [--markdown FILE]
       cdnstream drift accept REPORT.json --reason TEXT --until DATE [--file FILE]
       cdnstream drift reconcile REPORT.json [--dry-run] [--cwd DIR] [--json FILE] [--markdown FILE]

Finds out-of-band changes: for each stack, a preview with refresh reads every resource from the
API and compares it with the stack's state. The state is not written (unlike
\`pulumi refresh --expect-no-changes\`), so a later \`up\` still sees and undoes the drift.
Reports each drifted resource and input property with its recorded and live value; a resource
whose object is gone is reported as deleted. Secrets show as [secret].

Options:
  -s, --stack NAME       a stack to check; repeat for more (default: every stack of the project)
  -C, --cwd DIR          the Pulumi project directory, with Pulumi.yaml (default: .)
      --json FILE        write the JSON report to FILE (- for stdout)
      --markdown FILE    write the markdown report (a pull-request comment) to FILE
  -j, --concurrency N    stacks checked at once (default 2)
      --shard I/N        check only shard I of N (1 <= I <= N) of the stacks, for a CI matrix of N jobs
      --accept FILE      the acceptance rules (default: cdnstream-drift.yaml in the project directory)
      --no-accept        read no acceptance rules: every change counts
  -h, --help             show this help

Accepted drift: a change the team expects (a stream the live-operations team disables during an
event) is accepted by a rule of cdnstream-drift.yaml beside Pulumi.yaml, with a reason and an end
date at most 366 days ahead:

  accept:
    - resource: main-event    # name, type token (cdnstream:index:StreamStatus) or URN; * and ? match
      property: disabled      # optional: an input property or a path in one; omitted = whole resource
      stack: prod             # optional glob; omitted = every stack
      reason: toggled by live operations during events
      until: 2027-01-31       # YYYY-MM-DD (UTC); from the day after, the rule has expired

An accepted change stays in both reports, marked with the rule's reason and date, and does not
count: a run whose every change is accepted exits 0. A property in the resource's ignoreChanges
is reported as "ignored by the program" and does not count either. The reports list expired
rules (they accept nothing) and stale ones (they matched nothing in the run). A bad file (YAML,
an unknown key, no reason, a bad or too distant date, a glob that cannot match) is bad usage:
exit 64 naming the file, line and field, and nothing is checked. A missing default file means
no rules; a missing --accept FILE is bad usage. \`cdnstream drift accept --help\` writes rules
from a report.

A fleet of stacks fans out over N jobs: each runs \`cdnstream drift --shard I/N --json drift-I.json\`
and \`cdnstream drift merge drift-*.json\` makes one report of them all, with the fleet's exit code
(\`cdnstream drift merge --help\`). A stack's shard is a hash of its fully qualified name
(organization/project/stack, as far as the name carries them) modulo N, so it stays in its shard
as stacks come and go; every stack is in exactly one shard, and a shard may get none (exit 0).
The report records the shard it covers.

The project's program runs inside this command through the Automation API (no separate Node.js
language host is needed), one process per stack, as \`pulumi preview\` runs it: TypeScript is
compiled on the fly with the project's tsconfig.json (\`main: index.ts\`, or no main and an
index.ts), as are JavaScript, a compiled \`main\` such as bin/index.js and a \`main\` directory;
runtime.options typescript, tsconfig and nodeargs are honoured.

A project of another runtime (\`runtime: yaml\`, python, go, ...) is checked through the
\`pulumi\` CLI on the project directory, the same preview with refresh, so its own language host
runs the program and the provider plugin pulumi-resource-cdnstream reads the objects (install it
with \`cdnstream plugin install\`); the report and exit codes are the same.

The preview runs the program (\`--run-program\`), so resources are read with today's stack config
and environment, never with an API key the state recorded at the last \`up\`: after a key is
regenerated, set the new one and run this command; no \`up\` is needed first.

Environment: as for \`pulumi up\`: PULUMI_BACKEND_URL (or \`pulumi login\`),
PULUMI_CONFIG_PASSPHRASE, PULUMI_ACCESS_TOKEN; the API key as stack config (cdnstream:apiKey)
or CDNSTREAM_API_KEY. The \`pulumi\` CLI must be on PATH: without it the command says so and
exits 1 before checking anything (the environment is not ready; the command line was right).
No secret is ever printed.

Without --json -, stdout gets the markdown report; progress and the program's own output go to
stderr. A stack that could not be checked keeps its entry in the reports, with the reason.

${EXIT_HELP}`;

/** Parses the arguments after `drift`; `undefined` means help was asked for. */
export function parseDriftArgs(argv: readonly string[], baseDir: string) {
  const { values } = parseOptions({
    args: argv,
    options: {
      stack: { type: "string", short: "s", multiple: true },
      cwd: { type: "string", short: "C" },
      json: { type: "string" },
      markdown: { type: "string" },
      concurrency: { type: "string", short: "j" },
      shard: { type: "string" },
      accept: { type: "string" },
      "no-accept": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  if (values.accept !== undefined && values["no-accept"])
    throw new UsageError("--accept FILE and --no-accept exclude each other: give one");
  if (values.accept === "") throw new UsageError("--accept needs a file name");
  const stacks = [...new Set(values.stack ?? [])];
  for (const s of stacks) if (!s.trim()) throw new UsageError("--stack needs a stack name");
  const raw = values.concurrency ?? "2";
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 32)
    throw new UsageError(`--concurrency takes a whole number from 1 to 32, got "${raw}"`);
  const cwd = path.resolve(baseDir, values.cwd ?? ".");
  return {
    stacks,
    cwd,
    ...reportFiles(values, baseDir),
    concurrency: Number(raw),
    ...(values.shard !== undefined ? { shard: parseShard(values.shard) } : {}),
    rules: values["no-accept"] ? undefined : rulesSource(values.accept, cwd, baseDir),
  };
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the items' order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** What the command needs from the engine and the file system; replaced in unit tests. */
export interface DriftDeps {
  /** `onSecrets` is given the stack's secret config values as soon as they are known, before its output. */
  checkStack(
    stack: string,
    cwd: string,
    env: Env,
    onOutput: (line: string) => void,
    onSecrets: (values: readonly string[]) => void,
  ): Promise<StackReport>;
  listStacks(cwd: string, env: Env): Promise<string[]>;
  /** The project's name, for the fully qualified stack names shards are chosen by. */
  projectName(cwd: string): string;
  writeFile(file: string, text: string): void;
  cwd(): string;
  /** Before any run: `usage` when no project is there (exit 64), `notReady` when the machine cannot check (exit 1). */
  preflight(cwd: string, env: Env): { usage?: string; notReady?: string };
  /** The day of the run, YYYY-MM-DD (UTC), which acceptance rules expire by; the clock's unless given. */
  today?(): string;
  /** Reads the acceptance file; the file system's unless given. */
  readFile?(file: string): string;
}

function summaryLine(s: StackReport, seconds: string): string {
  if (s.error !== undefined) return `${s.stack}: could not be checked (${seconds}s): ${s.error.split("\n")[0]}`;
  const all = s.resources.reduce((n, r) => n + (r.deleted ? 1 : r.properties.length), 0);
  const counted = s.resources.filter(hasCountedDrift);
  const findings = counted.reduce((n, r) => n + (r.deleted ? 1 : r.properties.filter(counts).length), 0);
  if (!s.drifted) return `${s.stack}: no drift${all ? ` (${all} accepted or ignored)` : ""} (${seconds}s)`;
  const notCounted = all > findings ? `; ${all - findings} accepted or ignored` : "";
  const names = counted.map((r) =>
    r.deleted
      ? `${r.name} (deleted)`
      : `${r.name}.{${r.properties
          .filter(counts)
          .map((p) => p.property)
          .join(",")}}`,
  );
  return `${s.stack}: drift in ${names.join(", ")}${notCounted} (${seconds}s)`;
}

/** The `drift` subcommand over the given dependencies. */
export function createDriftCommand(deps: DriftDeps): Command {
  return {
    summary: "report out-of-band changes per stack, resource and property without writing state",
    async run(argv, given) {
      if (argv[0] === "merge") return mergeCommand.run(argv.slice(1), given);
      if (argv[0] === "accept") return acceptCommand.run(argv.slice(1), given);
      if (argv[0] === "reconcile") return reconcileCommand.run(argv.slice(1), given);
      // Engine messages can echo anything: what leaves (stderr, the reports) is redacted of every
      // secret the run knows, the stacks' secret config too, learnt as each stack is checked.
      const io = redacting(given);
      const args = parseOrExit(io, "drift", HELP, () => parseDriftArgs(argv, deps.cwd()));
      if (typeof args === "number") return args;
      const { cwd, concurrency } = args;
      const ready = deps.preflight(cwd, io.env);
      if (ready.usage !== undefined) return usageFailure(io, "drift", ready.usage);
      // A bad acceptance file is bad usage, said before whether the machine is ready.
      const today = deps.today?.() ?? todayUtc();
      let rules: AcceptRule[] | undefined;
      try {
        rules = args.rules && loadRules(args.rules, today, deps.readFile);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        return usageFailure(io, "drift", e.message);
      }
      if (ready.notReady !== undefined) {
        io.stderr(`cdnstream drift: ${ready.notReady}`);
        return EXIT.failed;
      }
      const progress = (text: string) => io.stderr(`cdnstream drift: ${text}`);
      let stacks: StackReport[] = [];
      let names = args.stacks;
      // Which stacks to check is unknown: none is, and the report's one entry says why.
      const noneChecked = (why: string, error: string) => {
        names = [];
        progress(`${why}: ${error}`);
        stacks = [{ stack: "(project stacks)", cwd, drifted: false, resources: [], error }];
      };
      if (!names.length) {
        try {
          names = await deps.listStacks(cwd, io.env);
          if (!names.length) throw new Error(`no stacks of the project in ${cwd} in this backend`);
        } catch (e) {
          noneChecked("cannot list the project's stacks", errorMessage(e, []));
        }
      }
      // A shard's report names the project whose stacks were sharded, so that merge can refuse another's.
      let project: string | undefined;
      if (names.length && args.shard) {
        const { index, count } = args.shard;
        const all = names;
        try {
          project = deps.projectName(cwd);
          names = stacksInShard(all, project, args.shard);
          progress(`shard ${index}/${count}: ${names.length} of the ${all.length} stacks`);
        } catch (e) {
          // The project name could not be read.
          noneChecked(`cannot choose the stacks of shard ${index}/${count}`, (e as Error).message);
        }
      }
      const matched = new Set<string>();
      if (names.length) {
        progress(`checking ${names.join(", ")} in ${cwd} (${Math.min(concurrency, names.length)} at a time)`);
        stacks = await mapBounded(names, concurrency, async (name) => {
          const started = Date.now();
          const result = await deps.checkStack(
            name,
            cwd,
            io.env,
            (line) => progress(`${name}: ${line}`),
            (values) => io.redactor.add(values),
          );
          if (rules) for (const rule of applyRules([result], rules, today)) matched.add(rule);
          progress(`${summaryLine(result, ((Date.now() - started) / 1000).toFixed(1))}`);
          return result;
        });
      }
      // Stopped by a signal meanwhile: the checks were cut short, so nothing is reported.
      if (isStopping()) return new Promise<number>(() => undefined);
      const report = driftReport(
        stacks,
        args.shard ? { shard: args.shard, ...(project ? { project } : {}) } : {},
        rules && args.rules && acceptanceSummary(args.rules.name, rules, today, matched),
      );
      return writeReport(report, args, io.redactor, io, deps.writeFile, progress);
    },
  };
}

export const driftCommand = createDriftCommand({
  checkStack,
  listStacks,
  projectName,
  preflight: (cwd, env) =>
    settingsFileIn(cwd)
      ? { notReady: missingPulumi(env) }
      : {
          usage: `no Pulumi.yaml (or Pulumi.yml, Pulumi.json) in ${cwd}: run in the Pulumi project directory or give it with --cwd DIR`,
        },
  writeFile: writeFileSync,
  cwd: () => process.cwd(),
});
