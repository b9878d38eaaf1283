/**
 * The package as users get it: `npm pack`ed and unpacked into the repo's node_modules, beside
 * @pulumi/pulumi, as `npm install` puts it in a user's project. Test programs load the SDK from
 * there (by path: inside the repo the package name refers to the sources), so each resource's
 * serialized provider is the one-line `require("pulumi-cdnstream/provider/shims/<kind>")` users
 * get, and the dynamic-provider host, running in a project directory below the repo, resolves it
 * as it does in a user's project. There is one @pulumi/pulumi, the repo's.
 */
import * as path from "node:path";
import { installPackedPackage as installAtomically } from "../../scripts/demo/project-build";
import { repoRoot } from "./engine";

export const installedPackageDir = path.join(repoRoot, "node_modules", "pulumi-cdnstream");

/**
 * Packs the built package and unpacks it into `node_modules/pulumi-cdnstream`: the demo's install
 * (scripts/demo/project-build.ts), which skips the pack when the installed copy already equals
 * dist/ and swaps a new copy in by rename, so suites running meanwhile (several jest runs share
 * this directory) never load a half-unpacked package.
 */
export async function installPackedPackage(): Promise<void> {
  await installAtomically();
}

/** The SDK as a user's program imports it. */
export function loadSdk(): typeof import("../../sdk") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the packed package, by its path
  return require(installedPackageDir);
}
