/**
 * What a provider host does before its first handler loads, in its two entries: the dynamic
 * resources' shim (./shim.ts) and the plugin's main (./plugin/main.ts). A host starts
 * on every `up`, `preview`, `refresh` and `destroy`, lives that one operation, and makes at most
 * one request per resource, so what it pays once per start weighs on every operation
 * (docs/benchmarks.md).
 */
import * as v8 from "node:v8";
import { deferZodLocales } from "./zod-locales";

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

/** Everything a provider host does before its first handler loads; once per process. */
let setUp = false;
export function setUpProviderHost(): void {
  if (setUp) return;
  setUp = true;
  deferZodLocales();
  keepWasmAtBaseline();
}
