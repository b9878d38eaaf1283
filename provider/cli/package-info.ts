/** This installed package: where it is and its version, for `--version` and the plugin launcher. */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The package directory: the nearest one upwards holding a package.json. Built, this file is
 * dist/provider/cli/package-info.js; run from source (tests), provider/cli/package-info.ts.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const name = (JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string }).name;
      if (name === "pulumi-cdnstream") return dir;
    }
    if (path.dirname(dir) === dir) return path.resolve(from, "../../..");
  }
}

export const packageRoot = findRoot(__dirname);

/** The version in the package's package.json, as npm installed it. */
export const version: string = (
  JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }
).version;
