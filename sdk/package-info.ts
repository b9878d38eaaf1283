/**
 * Where this package is installed and its version, from its own manifest by its public name
 * (`pulumi-cdnstream/package.json`, an export of the package), which resolves to this package
 * wherever it runs: the sources (tests), the built `dist/` (users) and the plugin's layout.
 */
import * as path from "node:path";

/** The package's directory (the one holding package.json, `dist/` and `provider/plugin/schema.json`). */
export const packageRoot: string = path.dirname(require.resolve("pulumi-cdnstream/package.json"));

/** The package version, as published; also the version of the provider plugin it ships. */
export const packageVersion: string = (require("pulumi-cdnstream/package.json") as { version: string }).version;
