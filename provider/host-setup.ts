/**
 * What a provider host does before its first handler loads, in its two entries: the dynamic
 * resources' shim (./shim.ts) and the plugin's main (./plugin/main.ts). A host starts
 * on every `up`, `preview`, `refresh` and `destroy`, lives that one operation, and makes at most
 * one request per resource, so what it pays once per start weighs on every operation
 * (docs/benchmarks.md).
 */
import Module from "node:module";
import * as v8 from "node:v8";
import { deferZodLocales } from "./client/zod-locales";

/**
 * Node majors whose V8 honours `--liftoff-only` set at run time (measured: 20 and 22; 24's V8
 * reads its WebAssembly tiering once, at start, and ignores it).
 */
const LIFTOFF_AT_RUN_TIME = new Set([20, 22]);

/**
 * Keeps WebAssembly at V8's baseline compiler (Liftoff). undici parses HTTP with llhttp compiled
 * to WebAssembly, and V8 recompiles its hot functions with its optimizing compiler on background
 * threads, which for llhttp costs more CPU than a host's few hundred requests ever win back, and
 * whose working memory was most of a host's peak memory above the floor's: on Node 20, 504
 * requests through undici took 150 ms of CPU and peaked at 130 MB with Liftoff only, against
 * 260 ms and 161-174 MB with the recompilation. Set before undici first compiles llhttp, and only
 * where it takes effect: the flag is V8's, not Node's, and V8 prints an error on the host's output
 * for a flag it does not know.
 */
export function keepWasmAtBaseline(nodeMajor = Number(process.versions.node.split(".")[0])): boolean {
  if (!LIFTOFF_AT_RUN_TIME.has(nodeMajor)) return false;
  v8.setFlagsFromString("--liftoff-only");
  return true;
}

/** What Node's `node:module` offers from 22.1 on. */
type CompileCacheApi = { enableCompileCache?: () => unknown };

/**
 * Turns on Node's module compile cache (Node 22.1 and later; Node 20 has none): the modules a
 * host loads at every start (ours, zod, undici) are compiled once and read from the cache
 * directory after that. Returns whether this Node has it. A cache Node cannot use (a directory it
 * cannot write) throws nothing: modules are then compiled as usual.
 */
export function enableCompileCache(node: CompileCacheApi = Module as CompileCacheApi): boolean {
  if (!node.enableCompileCache) return false;
  node.enableCompileCache();
  return true;
}

/**
 * Has zod parse without generating code. zod's own parser of an object schema generates a
 * function for it at its first parse (`new Function`), which a host that parses each schema a
 * few hundred times at most never wins back: measured on Node 20, a stream's answer parsed 500
 * times costs 62 ms of CPU with the generated code (11 of them the first parse) and 53 ms without
 * (3). `jitless` is zod's setting for that; it leaves an explicit `z.compile` alone
 * (./client/response-parser.ts). Loads zod, which every host uses: after the locales are deferred.
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
  enableCompileCache();
  deferZodLocales();
  parseWithoutCodegen();
  keepWasmAtBaseline();
}
