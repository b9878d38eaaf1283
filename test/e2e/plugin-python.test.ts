/**
 * A Python program using the generated Python SDK (sdk/python) drives the provider plugin
 * through the real CLI and the real emulator: the program (test/plugin-langs/python/driver.py)
 * runs inline in Pulumi's Python Automation API, in the cached environment scripts/ensure-python
 * makes, with `pulumi-resource-cdnstream` on PATH (global setup). The cases are in
 * test/helpers/plugin-program-suite.ts.
 */
import * as path from "node:path";
import { repoRoot } from "../helpers/engine";
import { ensurePython } from "../helpers/languages";
import { describePluginProgram } from "../helpers/plugin-program-suite";

describePluginProgram("Python", "cdnstream-python", async () => [
  await ensurePython(),
  path.join(repoRoot, "test", "plugin-langs", "python", "driver.py"),
]);
