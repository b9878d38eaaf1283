/**
 * `cdnstream drift reconcile REPORT.json` (its HELP says what it does): sets the reported
 * resources of each drifted stack back to the program's values, exactly what the report shows
 * and nothing else, after checking that the report still holds; then checks again. What may be
 * changed is decided by ./drift-reconcile-plan.ts, the engine runs are ./drift-revert.ts's.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as fs from "node:fs";
import * as path from "node:path";
import { EXIT, EXIT_HELP, parseOptions, parseOrExit, UsageError, type Command, type Env } from "./command";
import {
  code,
  cell,
  counts,
  driftReport,
  hasCountedDrift,
  parseDriftReport,
  reportFiles,
  resolveFile,
  shortType,
  toMarkdown,
  writeReport,
  type DriftReport,
  type StackReport,
} from "./drift-report";
import { planFromPreview, refusalFromReport, targetsOf, type ResourceRevert } from "./drift-reconcile-plan";
import { runTargeted } from "./drift-revert";
import { checkStack, type CheckedStackReport } from "./drift-stack";
import { missingPulumi, redacting } from "./environment";
import { projectName, settingsFileIn } from "./project-settings";
import { isStopping } from "./signals";

const HELP = `Usage: cdnstream drift reconcile REPORT.json [--cwd DIR] [--json FILE] [--markdown FILE] [--dry-run]

Sets back exactly what a drift report shows: for each stack of REPORT.json (the JSON report of
\`cdnstream drift\`, or of \`cdnstream drift merge\`) with counted drift, the reported resources
are set back to the program's values by \`pulumi up\` targeting their URNs, with refresh, the
program run as for \`up\`. Accepted findings are never reverted, nor any other change pending in
the program, nor any other resource: the state of the others is not even refreshed.

For each such stack, first:
  - the stack's state must be the one the report was checked against: updated (or refreshed,
    imported, edited) since, it is refused;
  - the reported resources are read again: if their live values are no longer the report's, it
    is refused;
  - the targeted \`up\` is previewed: unless it would change exactly the counted findings, each back
    to its recorded value, it is refused (a change pending in the program for a reported resource,
    an accepted finding beside a counted one on one resource, a replacement);
  - a resource reported deleted is created again only where its kind's create is safe to repeat
    (the six kinds that manage settings of an object the stack does not create); a deleted
    TimeshiftStream, or a resource of another provider, is refused, saying what to do.
A refused stack is left as it is: nothing is written to its account or its state. Then the
\`up\` runs, and the stack is checked again (as \`cdnstream drift\` checks it): the report says
per stack whether it was reverted, with each property's value before and after.

Options:
  -C, --cwd DIR          the Pulumi project directory (default: each stack's directory as the report
                         records it, which a CI job that checks out elsewhere must give)
      --json FILE        write the JSON report to FILE (- for stdout)
      --markdown FILE    write the markdown report (an issue or pull-request comment) to FILE
      --dry-run          check and preview as above and print what would be changed; change nothing
  -h, --help             show this help

The reports are those of \`cdnstream drift\` after the revert (stacks checked again; a stack with
nothing to revert as the report has it), each stack with what reconcile did (\`reconcile\`:
reverted, not reverted, refused, nothing to revert, or with --dry-run, would revert). The exit
code is drift's: 0 when every stack is clean afterwards (accepted findings do not count); 2 when
drift remains (with --dry-run, the drift it would revert); 1 when a stack was refused, could not
be reverted or could not be checked again; 64 for bad usage or a file that is not a drift report.

Stopped by a signal, it stops every process it started, as \`drift\` does; an \`up\` cut short is
the engine's to recover (docs/recovery.md). Environment: as for \`cdnstream drift\` and \`pulumi up\`.
No secret is ever printed.

${EXIT_HELP}`;

/** The drift report in `file`, with the checkpoint `drift` recorded for each stack; throws a UsageError naming the file and the field. */
export const readDriftReport = (file: string, text: string) =>
  parseDriftReport(file, text) as DriftReport & { stacks: CheckedStackReport[] };

/** What reconcile did to one stack. */
export interface StackReconcile {
  outcome: "reverted" | "not reverted" | "refused" | "nothing to revert" | "would revert";
  /** Why it was refused or not reverted. */
  reason?: string;
  /** The resources set back (or, with --dry-run, that would be), each property before and after. */
  resources?: ResourceRevert[];
}

/** A stack of the reconcile report: as checked again afterwards (or as the report had it), and what was done. */
export type ReconciledStack = CheckedStackReport & { reconcile: StackReconcile };

/** The reconcile report: drift's, each stack with what reconcile did. */
export interface ReconcileReport extends DriftReport {
  stacks: ReconciledStack[];
  reconciled: { report: string; dryRun: boolean };
}

/** What the command needs from the engine and the file system; replaced in unit tests. */
export interface ReconcileDeps {
  runTargeted: typeof runTargeted;
  checkStack: typeof checkStack;
  readFile(file: string): string;
  writeFile(file: string, text: string): void;
  cwd(): string;
  /** The project's name in `dir`, or undefined when there is no Pulumi project there. */
  projectIn(dir: string): string | undefined;
  /** Why this machine cannot run the engine (no `pulumi`), or undefined. */
  notReady(env: Env): string | undefined;
}

function parseReconcileArgs(argv: readonly string[], deps: ReconcileDeps) {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: {
      cwd: { type: "string", short: "C" },
      json: { type: "string" },
      markdown: { type: "string" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  if (positionals.length !== 1)
    throw new UsageError(
      `reconcile takes one report, the JSON of \`cdnstream drift --json FILE\`; got ${positionals.length ? positionals.join(" ") : "none"}`,
    );
  if (values.cwd === "") throw new UsageError("--cwd needs the project's directory");
  const file = resolveFile(deps.cwd(), positionals[0])!;
  let text: string;
  try {
    text = deps.readFile(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return {
    file,
    report: readDriftReport(file, text),
    ...(values.cwd !== undefined ? { cwd: path.resolve(deps.cwd(), values.cwd) } : {}),
    ...reportFiles(values, deps.cwd()),
    dryRun: values["dry-run"] === true,
  };
}

/** `after` with the accepted and ignored marks of the same findings in the report: a check here reads no acceptance file. */
function withMarks(after: StackReport, reported: StackReport): StackReport {
  const before = new Map(reported.resources.map((r) => [r.urn, r]));
  const resources = after.resources.map((r) => {
    const was = before.get(r.urn);
    if (!was) return r;
    const marks = new Map(was.properties.map((p) => [p.property, p]));
    return {
      ...r,
      ...(r.deleted && was.deleted && was.accepted && !r.accepted ? { accepted: was.accepted } : {}),
      properties: r.properties.map((p) => {
        const mark = marks.get(p.property);
        return {
          ...p,
          ...(mark?.accepted && !p.accepted ? { accepted: mark.accepted } : {}),
          ...(mark?.ignoredByProgram && !p.ignoredByProgram ? { ignoredByProgram: true } : {}),
        };
      }),
    };
  });
  return { ...after, resources, drifted: resources.some(hasCountedDrift) };
}

/** Each revert with the live values the check afterwards found; whether all of them hold. */
function afterValues(reverts: ResourceRevert[], after: StackReport): { resources: ResourceRevert[]; all: boolean } {
  const found = new Map(after.resources.map((r) => [r.urn, r]));
  let all = after.error === undefined;
  const resources = reverts.map((r) => {
    const now = found.get(r.urn);
    if (now?.deleted) all = false;
    return {
      ...r,
      properties: r.properties.map((p) => {
        const still = now?.properties.find((q) => q.property === p.property);
        if (still && counts(still)) all = false;
        return { ...p, after: still ? still.live : p.recorded };
      }),
    };
  });
  return { resources, all };
}

/** Reconciles one stack of the report; never throws. */
async function reconcileStack(
  reported: CheckedStackReport,
  args: { cwd?: string; dryRun: boolean },
  deps: ReconcileDeps,
  env: Env,
  progress: (text: string) => void,
  learn: (values: readonly string[]) => void,
): Promise<ReconciledStack> {
  const name = reported.stack;
  const say = (text: string) => progress(`${name}: ${text}`);
  const refuse = (reason: string): ReconciledStack => {
    say(`refused, nothing changed: ${reason}`);
    return { ...reported, reconcile: { outcome: "refused", reason } };
  };
  const targets = targetsOf(reported);
  if (!targets.length && reported.error === undefined) {
    say("no counted drift in the report: nothing to revert");
    return { ...reported, reconcile: { outcome: "nothing to revert" } };
  }
  const fromReport = refusalFromReport(reported);
  if (fromReport !== undefined) return refuse(fromReport);
  const cwd = args.cwd ?? reported.cwd;
  let project: string | undefined;
  try {
    project = deps.projectIn(cwd);
  } catch (e) {
    return refuse(`cannot read the project in ${cwd}: ${(e as Error).message}`);
  }
  if (project === undefined)
    return refuse(
      `no Pulumi project (Pulumi.yaml) in ${cwd}${args.cwd ? "" : ", where the report was written"}: give the project's directory with --cwd DIR`,
    );
  const reportedProject = targets[0]!.urn.split("::")[1];
  if (reportedProject !== project)
    return refuse(
      `the project in ${cwd} is ${project}, and the report's resources are of ${reportedProject}: give the project's directory with --cwd DIR`,
    );
  const urns = targets.map((r) => r.urn);
  const output = (line: string) => say(line);
  say(`checking again ${targets.map((r) => r.name).join(", ")} (a targeted preview with refresh)`);
  const preview = await deps.runTargeted(name, cwd, env, { kind: "preview", targets: urns }, output, learn);
  if (preview.error !== undefined) return refuse(`the targeted preview failed: ${preview.error}`);
  if (preview.checkpoint?.sha256 !== reported.checkpoint!.sha256)
    return refuse(
      `the stack was updated since the report was written (its state was written at ${preview.checkpoint?.written || "an unknown time"}; the report checked the state written at ${reported.checkpoint!.written || "an unknown time"}): check again (\`cdnstream drift\`) and review the new report`,
    );
  const plan = planFromPreview(reported, preview.events);
  if ("refusal" in plan) return refuse(plan.refusal);
  const what = plan.reverts.map((r) =>
    r.recreate ? `${r.name} (create again)` : `${r.name}.{${r.properties.map((p) => p.property).join(",")}}`,
  );
  if (args.dryRun) {
    say(`would revert ${what.join(", ")} (--dry-run: nothing changed)`);
    return { ...reported, reconcile: { outcome: "would revert", resources: plan.reverts } };
  }
  say(
    `reverting ${what.join(", ")} (pulumi up --refresh --target, ${urns.length} resource${urns.length === 1 ? "" : "s"})`,
  );
  const up = await deps.runTargeted(
    name,
    cwd,
    env,
    { kind: "up", targets: urns, checkpoint: reported.checkpoint!.sha256 },
    output,
    learn,
  );
  if (up.refused)
    return refuse(`${up.error ?? "the stack changed"}: check again (\`cdnstream drift\`) and review the new report`);
  if (up.error !== undefined) say(`the targeted up failed: ${up.error}`);
  say("checking again (a refreshing preview of the whole stack)");
  const after = withMarks(await deps.checkStack(name, cwd, env, output, learn), reported);
  const { resources, all } = afterValues(plan.reverts, after);
  const reason =
    up.error !== undefined
      ? `the targeted up failed: ${up.error}`
      : after.error !== undefined
        ? `the check afterwards did not complete: ${after.error}`
        : "the check afterwards still finds the reported drift";
  say(all && up.error === undefined ? "reverted" : `not reverted: ${reason}`);
  return {
    ...after,
    reconcile:
      all && up.error === undefined
        ? { outcome: "reverted", resources }
        : { outcome: "not reverted", reason, resources },
  };
}

/** 1 when a stack was refused, not reverted or not checked; else 2 when drift remains; else 0. */
export function reconcileExitCode(report: ReconcileReport): number {
  const failed = report.stacks.some(
    (s) => s.error !== undefined || s.reconcile.outcome === "refused" || s.reconcile.outcome === "not reverted",
  );
  if (failed) return EXIT.failed;
  return report.stacks.some((s) => s.drifted) ? EXIT.drift : EXIT.ok;
}

function revertTable(resources: readonly ResourceRevert[], dryRun: boolean): string[] {
  const lines = [
    dryRun
      ? "| Resource | Type | Property | Set back to | Live now |"
      : "| Resource | Type | Property | Set back to | Live before | Live after |",
    dryRun ? "|---|---|---|---|---|" : "|---|---|---|---|---|---|",
  ];
  for (const r of resources) {
    const head = `| ${code(r.name)} | ${code(shortType(r.type))} |`;
    if (r.recreate)
      lines.push(`${head} *(whole resource)* | created again | **deleted** |${dryRun ? "" : " exists |"}`);
    for (const p of r.properties)
      lines.push(
        `${head} ${code(p.property)} | ${cell(p.recorded)} | ${cell(p.before)} |${dryRun ? "" : ` ${cell(p.after)} |`}`,
      );
  }
  return [...lines, ""];
}

/** The report as an issue or pull-request comment: what was done per stack, then the check afterwards. */
export function reconcileMarkdown(report: ReconcileReport): string {
  const code = reconcileExitCode(report);
  const { dryRun } = report.reconciled;
  const verdict = dryRun
    ? "Drift reconcile: dry run, nothing changed"
    : code === EXIT.ok
      ? "Drift reconciled"
      : code === EXIT.drift
        ? "Drift reconciled, drift remains"
        : "Drift reconcile incomplete";
  const tally = new Map<string, number>();
  for (const s of report.stacks) tally.set(s.reconcile.outcome, (tally.get(s.reconcile.outcome) ?? 0) + 1);
  const n = report.stacks.length;
  const lines = [
    `## ${verdict}`,
    "",
    `${n} stack${n === 1 ? "" : "s"} in \`${path.basename(report.reconciled.report)}\`: ${[...tally].map(([o, k]) => `${k} ${o}`).join(", ")}.`,
    "",
  ];
  for (const s of report.stacks) {
    lines.push(`### Stack \`${s.stack}\`: ${s.reconcile.outcome}`, "");
    const reason = s.reconcile.reason?.replace(/\s*\n\s*/g, " ");
    if (reason) lines.push(`${reason[0]!.toUpperCase()}${reason.slice(1)}.`, "");
    if (s.reconcile.resources?.length) lines.push(...revertTable(s.reconcile.resources, dryRun));
  }
  // The check afterwards of the stacks an `up` ran on, one heading level down; the others were not checked again.
  const checked = report.stacks.filter(
    (s) => s.reconcile.outcome === "reverted" || s.reconcile.outcome === "not reverted",
  );
  if (!checked.length) return lines.join("\n");
  const after = toMarkdown(driftReport(checked)).replace(/^(#+) /gm, "#$1 ");
  return [...lines, "### Checked again afterwards", "", after].join("\n");
}

/** The `drift reconcile` subcommand over the given dependencies. */
export function createReconcileCommand(deps: ReconcileDeps): Command {
  return {
    summary: "set back exactly the counted drift of a drift report, after checking it still holds",
    async run(argv, given) {
      const io = redacting(given);
      const args = parseOrExit(io, "drift reconcile", HELP, () => parseReconcileArgs(argv, deps));
      if (typeof args === "number") return args;
      const progress = (text: string) => io.stderr(`cdnstream drift reconcile: ${text}`);
      const notReady = deps.notReady(io.env);
      if (notReady !== undefined) {
        progress(notReady);
        return EXIT.failed;
      }
      const learn = (values: readonly string[]) => io.redactor.add(values);
      const stacks: ReconciledStack[] = [];
      // One stack at a time: each writes to the account, and a refusal is said before the next starts.
      for (const reported of args.report.stacks) {
        stacks.push(await reconcileStack(reported, args, deps, io.env, progress, learn));
        if (isStopping()) break;
      }
      // Stopped by a signal meanwhile: the runs were cut short, so nothing is reported.
      if (isStopping()) return new Promise<number>(() => undefined);
      const { shard, shards, project } = args.report;
      const report: ReconcileReport = {
        ...driftReport(stacks, {
          ...(shard ? { shard } : {}),
          ...(shards !== undefined ? { shards } : {}),
          ...(project ? { project } : {}),
        }),
        stacks,
        reconciled: { report: args.file, dryRun: args.dryRun },
      };
      return writeReport(report, args, io.redactor, io, deps.writeFile, progress, {
        markdown: reconcileMarkdown,
        exitCode: reconcileExitCode,
      });
    },
  };
}

export const reconcileCommand = createReconcileCommand({
  runTargeted,
  checkStack,
  readFile: (file) => readFileSync(file, "utf8"),
  writeFile: writeFileSync,
  cwd: () => process.cwd(),
  projectIn: (dir) => (fs.existsSync(dir) && settingsFileIn(dir) ? projectName(dir) : undefined),
  notReady: missingPulumi,
});
