/**
 * A Go program using the generated Go SDK (sdk/go) drives the provider plugin through the real
 * CLI and the real emulator: the program (test/plugin-langs/go) runs inline in Pulumi's Go
 * Automation API, built once by scripts/ensure-go-programs, with `pulumi-resource-cdnstream` on
 * PATH (global setup). The cases are in test/helpers/plugin-program-suite.ts.
 */
import { ensureGoDriver } from "../helpers/languages";
import { describePluginProgram } from "../helpers/plugin-program-suite";

describePluginProgram("Go", "cdnstream-go", async () => [await ensureGoDriver()]);
