/**
 * A Node.js project's `up` as `pulumi up` runs its program: a process of its own, node started with
 * the project's nodeargs in the program's directory, the runtime prepared (TypeScript through
 * ts-node), the program loaded by the installed package's loader (provider/cli/project.ts), as
 * `cdnstream drift` later loads it. Outside jest, whose module registry would not run ts-node.
 */
import * as path from "node:path";
import { programLocation, readProject } from "../../provider/cli/project";
import { run } from "../../scripts/child";
import { ENGINE_COMMAND_DEADLINE_MS } from "./engine";
import { installedPackageDir } from "./package";

/** Creates stack `stack` of the project in `dir`, sets `cdnstream:baseUrl` and runs `up`; resolves to its resource changes. */
export async function upNodeProject(
  dir: string,
  options: { stack: string; baseUrl: string; env: NodeJS.ProcessEnv },
): Promise<Record<string, number>> {
  const settings = readProject(dir);
  const script = `
    const { prepareRuntime, projectProgram, readProject } = require(${JSON.stringify(path.join(installedPackageDir, "dist", "provider", "cli", "project.js"))});
    const { LocalWorkspace } = require("@pulumi/pulumi/automation");
    (async () => {
      const dir = ${JSON.stringify(dir)};
      const settings = readProject(dir);
      prepareRuntime(settings);
      const stack = await LocalWorkspace.createStack({ stackName: ${JSON.stringify(options.stack)}, projectName: settings.name, program: projectProgram(dir) }, { workDir: dir, envVars: process.env });
      await stack.setConfig("cdnstream:baseUrl", { value: ${JSON.stringify(options.baseUrl)} });
      const result = await stack.up({ color: "never" });
      console.log(JSON.stringify(result.summary.resourceChanges));
    })().catch((e) => { console.error(e.message); process.exit(1); });`;
  const {
    status: code,
    stdout,
    stderr,
  } = await run(process.execPath, [...settings.nodeargs, "-e", script], {
    cwd: programLocation(settings).programDir,
    env: options.env,
    deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
    allowFailure: true,
  });
  // Exit 0; else the failure's output is the mismatch shown (node's own warnings may be on stderr).
  if (code !== 0) throw new Error(`up of ${dir} exited ${code}: ${stderr}`);
  return JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, number>;
}
