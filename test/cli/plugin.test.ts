/**
 * `cdnstream plugin install`'s layout (provider/cli/plugin.ts) on a small package built here: the
 * production dependencies copied so that each resolves in the copy as it did in the source
 * (hoisted ones to the top, nested ones under their dependent), nothing of the development
 * dependencies, and an install that is whole or absent. The real package, through the engine:
 * test/e2e/plugin-release.test.ts. And the install beside others: the engine's per-version lock
 * and `.partial` marker (Pulumi's pkg/pluginstorage), two installs at once, a kill and an
 * interrupt of the real `cdnstream` bin mid-copy, a failure once the earlier install was moved aside.
 */
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "../../scripts/child";
import {
  installPlugin,
  layOutPlugin,
  PLUGIN_LAYOUT,
  pluginCacheDir,
  productionDependencies,
} from "../../provider/cli/plugin";
import { packageVersion } from "../../kinds/package-info";
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

  it("is installed whole or not at all", async () => {
    const { packageDir } = project();
    const home = path.join(root, "pulumi-home");
    // A Node.js binary that cannot be copied fails the install after the package was copied.
    await expect(installPlugin(home, { packageDir, node: path.join(root, "no-such-node") })).rejects.toThrow(
      /no-such-node/,
    );
    // Only the engine's lock file, which the engine keeps too.
    expect(fs.readdirSync(path.join(home, "plugins"))).toEqual([`${path.basename(pluginCacheDir(home))}.lock`]);

    const node = path.join(root, "fake-node");
    fs.writeFileSync(node, "#!/bin/sh\n");
    const launcher = await installPlugin(home, { packageDir, node });
    expect(launcher).toBe(path.join(pluginCacheDir(home), PLUGIN_LAYOUT.launcher));
    // Again: the earlier install is replaced, nothing is left beside it.
    await installPlugin(home, { packageDir, node });
    const dir = path.basename(pluginCacheDir(home));
    expect(fs.readdirSync(path.join(home, "plugins")).sort()).toEqual([dir, `${dir}.lock`]);
  });
});

/** A file that tells an install apart: the small package's version (the real one is ${packageVersion}). */
const installedVersion = (home: string): string =>
  (
    JSON.parse(fs.readFileSync(path.join(pluginCacheDir(home), PLUGIN_LAYOUT.package, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

/** The plugin cache's entries: a whole install leaves its directory and the engine's lock file, nothing else. */
const cacheEntries = (home: string): string[] => fs.readdirSync(path.join(home, "plugins")).sort();
const whole = (home: string) => [path.basename(pluginCacheDir(home)), `${path.basename(pluginCacheDir(home))}.lock`];

/** The real `cdnstream` bin installing the real package into `home`: the built dist/, as users run it. */
function cdnstreamInstall(home: string) {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, "dist", "provider", "cli", "index.js"), "plugin", "install", `--pulumi-home=${home}`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, exited };
}

/** Resolves to the staging directory once `pid`'s copy has put the package's dependencies in it. */
async function midCopy(home: string, pid: number): Promise<string> {
  const plugins = path.join(home, "plugins");
  const prefix = `.${path.basename(pluginCacheDir(home))}.installing-${pid}-`;
  for (;;) {
    const staging = fs.existsSync(plugins) && fs.readdirSync(plugins).find((name) => name.startsWith(prefix));
    if (staging && fs.existsSync(path.join(plugins, staging, PLUGIN_LAYOUT.package, "node_modules")))
      return path.join(plugins, staging);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("cdnstream plugin install beside other installs", () => {
  const fakeNode = () => {
    const node = path.join(root, "fake-node");
    fs.writeFileSync(node, "#!/bin/sh\n");
    return node;
  };

  it("two installs at once: the second waits for the first's lock, and one whole install is left", async () => {
    const home = path.join(root, "pulumi-home");
    const first = cdnstreamInstall(home);
    await midCopy(home, first.child.pid!);
    const second = cdnstreamInstall(home);
    const [one, two] = await Promise.all([first.exited, second.exited]);
    expect([one.code, two.code, one.stderr]).toEqual([0, 0, ""]);
    expect(two.stderr).toBe(
      `cdnstream plugin install: waiting for another install of pulumi-resource-cdnstream v${packageVersion} to finish (it holds ${pluginCacheDir(home)}.lock)\n`,
    );
    for (const { stdout } of [one, two])
      expect(stdout).toBe(
        `installed pulumi-resource-cdnstream v${packageVersion} at ${path.join(pluginCacheDir(home), PLUGIN_LAYOUT.launcher)}\n`,
      );
    expect(cacheEntries(home)).toEqual(whole(home));
    expect(installedVersion(home)).toBe(packageVersion);
    expect(fs.existsSync(path.join(pluginCacheDir(home), PLUGIN_LAYOUT.main))).toBe(true);
  }, 240_000);

  it("waits while the engine's lock is held with flock(2), as Pulumi's FileMutex holds it while it downloads", async () => {
    const { packageDir } = project();
    const home = path.join(root, "pulumi-home");
    fs.mkdirSync(path.join(home, "plugins"), { recursive: true });
    // flock(1) makes the same flock(2) call on the same file as the engine's installer.
    const engine = spawn("flock", ["--exclusive", `${pluginCacheDir(home)}.lock`, "sh", "-c", "echo held && read x"], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    await new Promise((resolve) => engine.stdout.once("data", resolve));
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    const install = installPlugin(home, { packageDir, node: fakeNode() }, { waiting });
    await waited;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Nothing written while the engine holds the version.
    expect(cacheEntries(home)).toEqual([`${path.basename(pluginCacheDir(home))}.lock`]);
    engine.stdin.end("\n");
    await install;
    expect(cacheEntries(home)).toEqual(whole(home));
  });

  it("a failure after the earlier install was moved aside puts it back as it was", async () => {
    const { packageDir } = project();
    const node = fakeNode();
    const home = path.join(root, "pulumi-home");
    await installPlugin(home, { packageDir, node });
    // The next install moves the earlier one aside, then cannot write the engine's `.partial`
    // marker, a file, where a directory stands: the step between its two renames fails for real.
    const partial = `${pluginCacheDir(home)}.partial`;
    fs.mkdirSync(path.join(partial, "in-the-way"), { recursive: true });
    const manifest = path.join(packageDir, "package.json");
    fs.writeFileSync(manifest, fs.readFileSync(manifest, "utf8").replace("9.8.7", "9.8.8"));
    await expect(installPlugin(home, { packageDir, node })).rejects.toThrow(
      /EISDIR.*\.partial.*; the earlier install is back in place$/,
    );
    expect(installedVersion(home)).toBe("9.8.7");
    expect(cacheEntries(home)).toEqual([...whole(home), path.basename(partial)].sort());
    // Once it is out of the way, the same install goes through and clears the marker.
    fs.rmSync(partial, { recursive: true });
    await installPlugin(home, { packageDir, node });
    expect(installedVersion(home)).toBe("9.8.8");
    expect(cacheEntries(home)).toEqual(whole(home));
  });

  it("an install killed mid-copy leaves its staging directory, which the next install removes", async () => {
    const home = path.join(root, "pulumi-home");
    const { child, exited } = cdnstreamInstall(home);
    const staging = await midCopy(home, child.pid!);
    child.kill("SIGKILL");
    expect((await exited).signal).toBe("SIGKILL");
    expect(fs.existsSync(staging)).toBe(true);
    expect(fs.existsSync(pluginCacheDir(home))).toBe(false);

    // The killed install's lock went with it: the next one does not wait, and clears the leftover.
    const { packageDir } = project();
    const waited: string[] = [];
    await installPlugin(home, { packageDir, node: fakeNode() }, { waiting: () => waited.push("waited") });
    expect(waited).toEqual([]);
    expect(cacheEntries(home)).toEqual(whole(home));
  }, 120_000);

  it("Ctrl-C mid-copy stops it, removes what it copied, leaves the earlier install and exits 130", async () => {
    const { packageDir } = project();
    const home = path.join(root, "pulumi-home");
    await installPlugin(home, { packageDir, node: fakeNode() });
    const { child, exited } = cdnstreamInstall(home);
    const staging = await midCopy(home, child.pid!);
    child.kill("SIGINT");
    const { code, stdout, stderr } = await exited;
    expect(code).toBe(130);
    expect(stderr).toContain("cdnstream plugin install: stopped: nothing was installed");
    expect(stdout).not.toContain("installed");
    expect(fs.existsSync(staging)).toBe(false);
    expect(installedVersion(home)).toBe("9.8.7");
    expect(cacheEntries(home)).toEqual(whole(home));
  }, 120_000);
});

describe("the Node.js an install copies", () => {
  const libraries = async (env: NodeJS.ProcessEnv = {}) =>
    JSON.parse(
      (
        await run(
          process.execPath,
          [
            "-p",
            `JSON.stringify(require(${JSON.stringify(path.join(repoRoot, "dist", "provider", "cli", "plugin.js"))}).foreignLibraries())`,
          ],
          { env: { ...process.env, ...env }, deadlineMs: 60_000 },
        )
      ).stdout,
    ) as string[];

  it("is the running one when it loads only the C and C++ runtimes, as the official builds do", async () => {
    expect(await libraries()).toEqual([]);
  });

  it("is not when it loads another library, as a distribution's build loads its libnode, libuv or ICU", async () => {
    const zlib = /=> (\S+)$/m.exec(
      (await run("ldconfig", ["-p"], { deadlineMs: 60_000 })).stdout
        .split("\n")
        .find((l) => l.includes("libz.so.1 ")) ?? "",
    )?.[1];
    if (!zlib) throw new Error("this test preloads zlib's libz.so.1: install it (apt-get install zlib1g)");
    expect((await libraries({ LD_PRELOAD: zlib })).map((file) => fs.realpathSync(file))).toEqual([
      fs.realpathSync(zlib),
    ]);
  });
});
