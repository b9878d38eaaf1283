/**
 * This package's manifest, version and plugin package name, read or stated here only. The manifest
 * is required by the package's public name, which resolves to this package wherever it runs: the
 * sources (tests, scripts), the built `dist/` (users) and the plugin's layout.
 */
import * as path from "node:path";

/** The package's directory (the one holding package.json, `dist/` and `provider/plugin/schema.json`). */
export const packageRoot: string = path.dirname(require.resolve("pulumi-cdnstream/package.json"));
export const manifest = (): {
  name: string;
  version: string;
  description: string;
  license: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
} => require("pulumi-cdnstream/package.json");
/** The package version, as published; also the version of the provider plugin it ships. */
export const packageVersion: string = manifest().version;
/** The plugin's package name: the `cdnstream` of `pulumi:providers:cdnstream` and `cdnstream:index:*`. */
export const PLUGIN_PACKAGE = "cdnstream";
