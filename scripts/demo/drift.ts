/**
 * The demo's drift check: the built `cdnstream drift` command run as a child process, as a
 * scheduled pipeline runs it, with its JSON and markdown reports written beside the state.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { shortType, type DriftReport, type ResourceDrift } from "../../provider/cli/drift-report";
import { run } from "../child";
import { repoRoot } from "./project-build";

/**
 * Runs `cdnstream drift --cwd <repoRoot> --stack <stack>` with `env`; never throws for a non-zero
 * exit. Gives the command as a user would type it, its exit code, its progress lines (stderr) and
 * the drifted resources of its JSON report.
 */
export async function runDriftCheck(stack: string, env: Record<string, string>, reportDir: string, tag: string) {
  const cli = path.join(repoRoot, "dist", "provider", "cli", "index.js");
  const json = path.join(reportDir, `drift-${tag}.json`);
  const markdown = path.join(reportDir, `drift-${tag}.md`);
  const args = ["drift", "--cwd", repoRoot, "--stack", stack, "--json", json, "--markdown", markdown];
  fs.rmSync(json, { force: true });
  // A refresh of the demo's few resources per stack: seconds; minutes on a busy machine.
  const { status: code, stderr } = await run(process.execPath, [cli, ...args], {
    env: { ...process.env, ...env },
    deadlineMs: 10 * 60_000,
    allowFailure: true,
  });
  let resources: ResourceDrift[] = [];
  try {
    resources = (JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport).stacks.flatMap((s) => s.resources);
  } catch {
    // No report: the command failed before writing one; its stderr says why.
  }
  const shown = args.map((a) => (path.isAbsolute(a) ? path.relative(process.cwd(), a) || "." : a));
  return {
    command: `cdnstream ${shown.join(" ")}`,
    code,
    progress: stderr.trim().split("\n").filter(Boolean),
    resources,
    markdownFile: markdown,
  };
}

/** `vod-catalog-lock (cdnstream:VodPullDomainLock): enabled recorded true, live false`. */
export function findingLines(resources: readonly ResourceDrift[]): string[] {
  return resources.flatMap((r) => {
    const kind = shortType(r.type);
    if (r.deleted) return [`${r.name} (${kind}): deleted out of band`];
    return r.properties.map(
      (p) =>
        `${r.name} (${kind}): ${p.property} recorded ${JSON.stringify(p.recorded)}, live ${JSON.stringify(p.live)}`,
    );
  });
}
