/**
 * `cdnstream plugin install`'s layout (provider/cli/plugin.ts) on a small package built here: the
 * production dependencies copied so that each resolves in the copy as it did in the source
 * (hoisted ones to the top, nested ones under their dependent), nothing of the development
 * dependencies, and an install that is whole or absent. The real package, through the engine:
 * test/e2e/plugin-release.test.ts.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  installPlugin,
  layOutPlugin,
  PLUGIN_LAYOUT,
  pluginCacheDir,
  productionDependencies,
} from "../../provider/cli/plugin";
import { repoRoot } from "../helpers/engine";

let root: string;

/** Writes a package.json (and an index.js) into `dir`. */
function writePackage(dir: string, manifest: Record<string, unknown>): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, "index.js"), `module.exports = ${JSON.stringify(manifest.name)};\n`);
}

/**
 * A project with the package installed in its node_modules: `a` hoisted, `b` nested under `a`
 * (another version of `b` is hoisted for someone else), `@scope/c` hoisted; `dev-only` installed
 * but a development dependency.
 */
function project(): { packageDir: string; modules: string } {
  const modules = path.join(root, "project", "node_modules");
  const packageDir = path.join(modules, "pulumi-cdnstream");
  writePackage(packageDir, {
    name: "pulumi-cdnstream",
    version: "9.8.7",
    files: ["dist"],
    dependencies: { a: "1", "@scope/c": "1" },
    devDependencies: { "dev-only": "1" },
  });
  fs.mkdirSync(path.join(packageDir, "dist", "provider", "plugin"), { recursive: true });
  fs.writeFileSync(path.join(packageDir, "dist", "provider", "plugin", "main.js"), "require('a');\n");
  fs.writeFileSync(path.join(packageDir, "README.unshipped"), "not in files\n");
  writePackage(path.join(modules, "a"), { name: "a", version: "1.0.0", dependencies: { b: "2" } });
  writePackage(path.join(modules, "a", "node_modules", "b"), { name: "b", version: "2.0.0" });
  writePackage(path.join(modules, "b"), { name: "b", version: "1.0.0" });
  writePackage(path.join(modules, "@scope", "c"), { name: "@scope/c", version: "1.0.0", dependencies: { b: "1" } });
  writePackage(path.join(modules, "dev-only"), { name: "dev-only", version: "1.0.0" });
  return { packageDir, modules };
}

beforeEach(() => {
  root = path.join(repoRoot, ".tmp", "cli-plugin", crypto.randomBytes(6).toString("hex"));
  fs.mkdirSync(root, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the plugin's production dependencies", () => {
  it("keeps each where it resolves from, hoisted or nested, and leaves development dependencies out", () => {
    const { packageDir, modules } = project();
    const target = path.join(root, "out", "package");
    const found = productionDependencies(packageDir, target);
    expect(
      Object.fromEntries([...found].map(([source, to]) => [path.relative(modules, source), path.relative(target, to)])),
    ).toEqual({
      a: path.join("node_modules", "a"),
      [path.join("a", "node_modules", "b")]: path.join("node_modules", "a", "node_modules", "b"),
      [path.join("@scope", "c")]: path.join("node_modules", "@scope", "c"),
      b: path.join("node_modules", "b"),
    });
  });

  it("names a dependency that is not installed", () => {
    const { modules, packageDir } = project();
    fs.rmSync(path.join(modules, "@scope"), { recursive: true });
    expect(() => productionDependencies(packageDir, path.join(root, "out"))).toThrow(
      "pulumi-cdnstream depends on @scope/c, which is not installed (run `npm install`)",
    );
  });
});

describe("the plugin's directory", () => {
  it("holds the launcher, the Node.js binary and the shipped package with its dependencies", () => {
    const { packageDir } = project();
    const node = path.join(root, "fake-node");
    fs.writeFileSync(node, "#!/bin/sh\n");
    const dir = path.join(root, "plugin");
    layOutPlugin(dir, { packageDir, node });

    expect(fs.readdirSync(dir).sort()).toEqual(
      [PLUGIN_LAYOUT.launcher, PLUGIN_LAYOUT.node, PLUGIN_LAYOUT.package].sort(),
    );
    expect(fs.statSync(path.join(dir, PLUGIN_LAYOUT.node)).mode & 0o111).toBe(0o111);
    const launcher = fs.readFileSync(path.join(dir, PLUGIN_LAYOUT.launcher), "utf8");
    expect(launcher).toContain(`exec "$here/node" "$here/${PLUGIN_LAYOUT.main}" "$@"`);
    expect(launcher).not.toContain(root);
    const pkg = path.join(dir, PLUGIN_LAYOUT.package);
    expect(fs.existsSync(path.join(dir, PLUGIN_LAYOUT.main))).toBe(true);
    expect(fs.existsSync(path.join(pkg, "README.unshipped"))).toBe(false);
    expect(fs.existsSync(path.join(pkg, "node_modules", "dev-only"))).toBe(false);
    // Each dependency resolves in the copy to the version it resolved to in the project.
    const resolveFrom = (from: string, name: string) =>
      JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`, { paths: [from] }), "utf8")).version;
    expect(resolveFrom(path.join(pkg, "node_modules", "a"), "b")).toBe("2.0.0");
    expect(resolveFrom(path.join(pkg, "node_modules", "@scope", "c"), "b")).toBe("1.0.0");
  });

  it("is installed whole or not at all", () => {
    const { packageDir } = project();
    const home = path.join(root, "pulumi-home");
    // A Node.js binary that cannot be copied fails the install after the package was copied.
    expect(() => installPlugin(home, { packageDir, node: path.join(root, "no-such-node") })).toThrow(/no-such-node/);
    expect(fs.readdirSync(path.join(home, "plugins"))).toEqual([]);

    const node = path.join(root, "fake-node");
    fs.writeFileSync(node, "#!/bin/sh\n");
    const launcher = installPlugin(home, { packageDir, node });
    expect(launcher).toBe(path.join(pluginCacheDir(home), PLUGIN_LAYOUT.launcher));
    // Again: the earlier install is replaced, nothing is left beside it.
    installPlugin(home, { packageDir, node });
    expect(fs.readdirSync(path.join(home, "plugins"))).toEqual([path.basename(pluginCacheDir(home))]);
  });
});
