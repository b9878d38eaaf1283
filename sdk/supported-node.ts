/**
 * The Node.js floor, `engines.node` of the package's manifest, checked before anything else runs in
 * each entry (the program's SDK, the plugin, the `cdnstream` command): on an older Node the first
 * missing API would otherwise surface as a TypeError deep inside a provider host. (The dynamic
 * resources' host runs on the program's Node, which the SDK's import has already checked.)
 */
import { manifest } from "../kinds/package-info";

const floor = /(\d+)\.(\d+)\.(\d+)/.exec(manifest().engines.node)!;

const older = (found: string): boolean => {
  const parts = found.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (parts[i] !== Number(floor[i + 1])) return parts[i] < Number(floor[i + 1]);
  return false;
};

/** The one sentence an unsupported Node gets, or undefined on a supported one. */
export const unsupportedNode: string | undefined = older(process.versions.node)
  ? `pulumi-cdnstream needs Node.js ${floor[0]} or newer, but this is Node.js ${process.versions.node}: ` +
    `install Node.js ${floor[0]} or newer (https://nodejs.org/en/download) and put it first on PATH.`
  : undefined;

/** In a program: the sentence as the error of the import. */
export function throwOnUnsupportedNode(): void {
  if (unsupportedNode) throw new Error(unsupportedNode);
}

/** In an executable (the plugin, the `cdnstream` command): the sentence on stderr, exit 1. */
export function exitOnUnsupportedNode(): void {
  if (!unsupportedNode) return;
  process.stderr.write(`${unsupportedNode}\n`);
  process.exit(1);
}
