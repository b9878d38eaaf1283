/**
 * Runs once before all suites: makes the real Pulumi engine available to every test worker by
 * putting it on PATH (workers inherit this process's environment).
 */
import { enginePath, ensureEngine } from "./helpers/engine";

export default function globalSetup(): void {
  process.env.PATH = enginePath(ensureEngine());
}
