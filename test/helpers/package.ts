/**
 * The package as users get it: `npm pack`ed and unpacked into the repo's node_modules, beside
 * @pulumi/pulumi, as `npm install` puts it in a user's project. Test programs load the SDK from
 * there (by path: inside the repo the package name refers to the sources), so each resource's
 * serialized provider is the one-line `require("pulumi-cdnstream/provider/shims/<kind>")` users
 * get, and the dynamic-provider host, running in a project directory below the repo, resolves it
 * as it does in a user's project. There is one @pulumi/pulumi, the repo's.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./engine";

export const installedPackageDir = path.join(repoRoot, "node_modules", "pulumi-cdnstream");

/** Packs the built package and unpacks it into `node_modules/pulumi-cdnstream`. */
export function installPackedPackage(): void {
  if (!fs.existsSync(path.join(repoRoot, "dist", "sdk", "index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does) before the end-to-end suites.");
  }
  const packDir = path.join(repoRoot, ".tmp", "pack");
  fs.rmSync(packDir, { recursive: true, force: true });
  fs.mkdirSync(packDir, { recursive: true });
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: repoRoot, encoding: "utf8" }),
  );
  fs.rmSync(installedPackageDir, { recursive: true, force: true });
  fs.mkdirSync(installedPackageDir, { recursive: true });
  execFileSync("tar", ["-xzf", path.join(packDir, packed.filename), "-C", installedPackageDir, "--strip-components=1"]);
}

/** The SDK as a user's program imports it. */
export function loadSdk(): typeof import("../../sdk") {
  return require(installedPackageDir);
}
