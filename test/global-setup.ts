/**
 * Runs once before the end-to-end suites: puts the real Pulumi engine on PATH (workers inherit
 * this process's environment) and installs the packed package where the test programs load it.
 */
import { enginePath, ensureEngine } from "./helpers/engine";
import { installPackedPackage } from "./helpers/package";

export default function globalSetup(): void {
  process.env.PATH = enginePath(ensureEngine());
  installPackedPackage();
}
