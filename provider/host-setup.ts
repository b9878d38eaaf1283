/**
 * What a provider host does before its first handler loads, in its two entries: the dynamic
 * resources' shim (./shim.ts) and the plugin's main (./plugin/main.ts). A host starts on every
 * `up`, `preview`, `refresh` and `destroy` and lives that one operation, so what it pays once per
 * start weighs on every operation (each step is measured in docs/benchmarks.md).
 */
import { enableCompileCache } from "node:module";
import * as v8 from "node:v8";
import { deferZodLocales } from "../client/core/zod-locales";

/** Node majors whose V8 honours `--liftoff-only` set at run time (24's reads it only at start). */
const LIFTOFF_AT_RUN_TIME = new Set([20, 22]);

/**
 * Keeps WebAssembly at V8's baseline compiler (Liftoff): V8's optimizing recompilation of
 * undici's HTTP parser (llhttp) costs a host more CPU than it wins back, and most of its memory
 * above the floor's. Set before undici first compiles llhttp, and only where it takes effect:
 * the flag is V8's, not Node's, and V8 prints an error on the host's output for a flag it does
 * not know.
 */
export function keepWasmAtBaseline(nodeMajor = Number(process.versions.node.split(".")[0])): boolean {
  if (!LIFTOFF_AT_RUN_TIME.has(nodeMajor)) return false;
  v8.setFlagsFromString("--liftoff-only");
  return true;
}

/**
 * Has zod parse without generating code: its parser generates a function for each object schema
 * at its first parse (`new Function`), which a host that parses each schema a few hundred times
 * at most never wins back. `jitless` leaves an explicit `z.compile` alone
 * (client/core/response-parser.ts). Loads zod, which every host uses: after the locales are deferred.
 */
export function parseWithoutCodegen(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after deferZodLocales (see above)
  (require("zod") as typeof import("zod")).z.config({ jitless: true });
}

/** Everything a provider host does before its first handler loads; once per process. */
let setUp = false;
export function setUpProviderHost(): void {
  if (setUp) return;
  setUp = true;
  // The modules a host loads at every start (ours, zod, undici) are compiled once and read from
  // Node's cache after that; a cache directory Node cannot write throws nothing.
  enableCompileCache();
  deferZodLocales();
  parseWithoutCodegen();
  keepWasmAtBaseline();
}
