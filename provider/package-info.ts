/**
 * Where this package is installed and its version, found the same way from the sources (tests)
 * and from the built `dist/` (users): the nearest directory above holding our package.json.
 */
import * as fs from "node:fs";
import * as path from "node:path";

function findPackageRoot(): { root: string; version: string } {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version: string };
      if (manifest.name === "pulumi-cdnstream") return { root: dir, version: manifest.version };
    }
    if (path.dirname(dir) === dir)
      throw new Error(`pulumi-cdnstream: no package.json of the package above ${__dirname}`);
  }
}

const found = findPackageRoot();

/** The package's directory (the one holding package.json, `dist/` and `provider/plugin/schema.json`). */
export const packageRoot: string = found.root;

/** The package version, as published; also the version of the provider plugin it ships. */
export const packageVersion: string = found.version;
