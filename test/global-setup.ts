/**
 * Runs once before the end-to-end suites: puts the real Pulumi engine on PATH (workers inherit
 * this process's environment), installs the packed package where the test programs load it,
 * puts the provider plugin and the YAML language host beside the engine, gives every Node.js
 * process the suites start a compile cache, and lets the Go programs they start collect less often.
 */
import * as path from "node:path";
import { enginePath, ensureEngine, projectCacheDir } from "./helpers/engine";
import { installPackedPackage } from "./helpers/package";
import { ensureYamlHost, pluginBinDir } from "./helpers/plugin";

export default async function globalSetup(): Promise<void> {
  // Most of a provider host's start is V8 compiling @pulumi/pulumi, about 0.4 s of CPU in every
  // engine operation; Node.js (22.1 and later) keeps the compiled code here for every process the
  // suites start, and checks it against each file's contents, so it never runs stale code.
  process.env.NODE_COMPILE_CACHE ??= path.join(projectCacheDir, "node-compile-cache");
  // The suites start thousands of short `pulumi` processes (and Go's YAML host and programs), most
  // of whose CPU is the CLI's start, where Go's default pacing collects garbage again and again:
  // `pulumi stack output` takes 0.34 s of CPU at the default and 0.26 s here, for 2 % more memory.
  process.env.GOGC ??= "400";
  process.env.PATH = [pluginBinDir(), await ensureYamlHost(), enginePath(await ensureEngine())].join(path.delimiter);
  await installPackedPackage();
}
