/**
 * Runs once before the end-to-end suites: puts the real Pulumi engine on PATH (workers inherit
 * this process's environment), installs the packed package where the test programs load it,
 * and puts the provider plugin and the YAML language host beside the engine.
 */
import * as path from "node:path";
import { enginePath, ensureEngine } from "./helpers/engine";
import { installPackedPackage } from "./helpers/package";
import { ensureYamlHost, pluginBinDir } from "./helpers/plugin";

export default function globalSetup(): void {
  process.env.PATH = [pluginBinDir(), ensureYamlHost(), enginePath(ensureEngine())].join(path.delimiter);
  installPackedPackage();
}
