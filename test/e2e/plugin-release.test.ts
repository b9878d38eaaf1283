/**
 * The whole release as `npm run release` builds it (every platform npm publishes a Node.js for,
 * linux-amd64 alone on CI's newest leg; the SDKs on), into a directory outside the checkout
 * (cached there: an archive is rebuilt only when what it holds changed; the releases of checkouts
 * that are gone are removed), leaving the checkout's files as they were:
 *
 * - `sha256sum -c SHA256SUMS` verifies every artefact, and SHA256SUMS lists each one;
 * - each archive holds its platform's layout: the launcher (a .cmd and node.exe on Windows), the
 *   Node.js binary of its OS and architecture, and only the dependencies the plugin loads;
 * - the npm package holds no compiled file of a deleted source.
 *
 * Then the plugin as the linux-amd64 archive ships it, through the real CLI, on a machine without
 * Node.js as far as the plugin can tell: served by a local HTTP server, a fresh PULUMI_HOME per
 * case, and a PATH holding only the CLI and the YAML language host (no `node`, no
 * `pulumi-resource-cdnstream`):
 *
 * - `pulumi plugin install resource cdnstream <version> --server <url>` installs it, `pulumi
 *   plugin ls` lists it, and a YAML program runs up, a preview with no changes and destroy;
 * - with automatic plugin acquisition on, a YAML program naming the URL (the `pluginDownloadURL`
 *   resource option) gets the plugin downloaded by the engine at its first `up`;
 * - a bad or unreachable URL fails with the engine's message naming the URL, leaving nothing in
 *   the plugin cache;
 * - `cdnstream plugin install` from a project's node_modules installs the same self-contained
 *   plugin: the project removed, a YAML program still runs;
 * - a release whose artefacts carry two versions is refused.
 *
 * What the CLI prints for the installs and the download is logged (stderr) as a short transcript.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { PLUGIN_LAYOUT } from "../../provider/cli/plugin";
import { run, runNpm } from "../../scripts/child";
import {
  archiveName,
  buildRelease,
  checkOneVersion,
  checkoutFiles,
  PLATFORMS,
  releaseCacheDir,
  WINDOWS_LAYOUT,
} from "../../scripts/release";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { ensureEngine, repoRoot, sdkOffLock } from "../helpers/engine";
import { ensurePython } from "../helpers/languages";
import { ensureYamlHost } from "../helpers/plugin";
import { DEFAULT_PLUGIN_DOWNLOAD_URL } from "../../scripts/gen-schema";

const PLATFORM = "linux-amd64";

/** Where every checkout's release is kept, each under a hash of the checkout's path. */
const RELEASES = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"),
  "pulumi-cdnstream",
  "release-test",
);

/**
 * The release's directory: outside the checkout, one per checkout, kept between runs so that only
 * what changed is rebuilt (an archive takes about a minute to compress).
 */
const RELEASE_DIR = path.join(RELEASES, crypto.createHash("sha256").update(repoRoot).digest("hex").slice(0, 12));

/** The file in a release's cache directory (`releaseCacheDir`) that names the checkout it is of. */
const CHECKOUT_RECORD = "checkout";

/**
 * Records `checkout` as the owner of `release`, then removes from `releases` every other release,
 * with its cache, whose checkout is gone: CI's fresh clones and scratch copies would otherwise
 * each leave one behind (about 235 MB). A release without a record is removed too; a checkout
 * still there builds it again once.
 */
function pruneReleases(releases: string, release: string, checkout: string): void {
  fs.mkdirSync(releaseCacheDir(release), { recursive: true });
  fs.writeFileSync(path.join(releaseCacheDir(release), CHECKOUT_RECORD), checkout);
  const names = new Set(fs.readdirSync(releases).map((entry) => path.join(releases, entry.replace(/-cache$/, ""))));
  for (const other of names) {
    const record = path.join(releaseCacheDir(other), CHECKOUT_RECORD);
    if (fs.existsSync(record) && fs.existsSync(fs.readFileSync(record, "utf8"))) continue;
    fs.rmSync(other, { recursive: true, force: true });
    fs.rmSync(releaseCacheDir(other), { recursive: true, force: true });
  }
}

/** The checkout's files (those a release is built from) with the hash of each. */
const checkoutState = () =>
  checkoutFiles()
    .sort()
    .map(
      (file) =>
        `${crypto
          .createHash("sha256")
          .update(fs.readFileSync(path.join(repoRoot, file)))
          .digest("hex")}  ${file}`,
    );

/** What each platform's Node.js binary is, from its first bytes: the ELF, Mach-O or PE machine. */
function binaryKind(head: Buffer): string {
  if (head.readUInt32BE(0) === 0x7f454c46) return `elf-${{ 0x3e: "amd64", 0xb7: "arm64" }[head.readUInt16LE(18)]}`;
  if (head.readUInt32LE(0) === 0xfeedfacf)
    return `macho-${{ 0x01000007: "amd64", 0x0100000c: "arm64" }[head.readUInt32LE(4)]}`;
  if (head.toString("latin1", 0, 2) === "MZ") {
    const pe = head.readUInt32LE(0x3c);
    return `pe-${{ 0x8664: "amd64", 0xaa64: "arm64" }[head.readUInt16LE(pe + 4)]}`;
  }
  return "unknown";
}
const EXPECTED_BINARY: Record<string, string> = { linux: "elf", darwin: "macho", windows: "pe" };

/** A line of the transcript: what a user would see, shortened. */
function transcript(title: string, text = ""): void {
  const lines = text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim());
  process.stderr.write(`[plugin-release] ${title}\n${lines.map((line) => `    ${line}\n`).join("")}`);
}

/** The text of one member of a gzipped tarball. */
const memberText = async (archive: string, member: string) =>
  (await run("tar", ["-xzOf", archive, member], { deadlineMs: 2 * 60_000 })).stdout;

/** How long one engine command may take here: an `up` that downloads the plugin, seconds to a minute. */
const CLI_DEADLINE_MS = 5 * 60_000;

/** The release directory served over HTTP on 127.0.0.1, with a log of what was asked. */
async function serveRelease(dir: string) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    // Only `/<file of dir>`: a URL with any other path must find nothing.
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname).slice(1);
    const file = path.join(dir, name);
    const found = /^[^/.][^/]*$/.test(name) && fs.existsSync(file) && fs.statSync(file).isFile();
    requests.push(`${req.method} ${req.url} ${found ? 200 : 404}`);
    if (!found) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the released plugin, installed and downloaded by the engine, with no Node.js", () => {
  let emulator: TestEmulator;
  let served: Awaited<ReturnType<typeof serveRelease>>;
  let version: string;
  let pulumi: string;
  /** PATH for the CLI and the plugin: the CLI's directory and the YAML language host's, nothing else. */
  let barePath: string;
  // Outside the checkout: an installed plugin that resolves a module the archive lacks must fail,
  // not find it in the checkout's node_modules on the way up (Node.js's module resolution).
  const root = path.join(os.tmpdir(), `cdnstream-release-${crypto.randomBytes(6).toString("hex")}`);

  /** The CLI's environment: nothing inherited but HOME, so no `node` and no plugin can come from it. */
  const cliEnv = (home: string, extra: Record<string, string> = {}): Record<string, string> => ({
    HOME: process.env.HOME ?? root,
    PATH: barePath,
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_CONFIG_PASSPHRASE: "cdnstream-e2e-passphrase",
    CDNSTREAM_API_KEY: emulator.apiKey,
    CDNSTREAM_BASE_URL: emulator.url,
    ...extra,
  });

  /** Runs the CLI without blocking this process, whose HTTP server it may be downloading from. */
  const cli = (args: string[], env: Record<string, string>, cwd = root) =>
    run(pulumi, args, { cwd, env, deadlineMs: CLI_DEADLINE_MS, allowFailure: true });

  /** Fails with the CLI's output unless it exited 0; returns that output. */
  const succeeded = (result: { status: number | null; stdout: string; stderr: string }) => {
    if (result.status !== 0) throw new Error(`the CLI exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
    return result;
  };

  /** What the plugin cache holds of cdnstream: directories and any partial or lock entries. */
  const cacheEntries = (home: string) => {
    const plugins = path.join(home, "plugins");
    return fs.existsSync(plugins) ? fs.readdirSync(plugins).filter((entry) => entry.includes("cdnstream")) : [];
  };

  /** A YAML project on its own file backend; `run` runs the CLI in it. */
  async function yamlProject(name: string, home: string, resourceOptions = "", extraEnv: Record<string, string> = {}) {
    const dir = path.join(root, name);
    fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${name}
runtime: yaml
resources:
  status:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: true
${resourceOptions}
outputs:
  streamName: \${status.name}
`,
    );
    const env = cliEnv(home, { PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`, ...extraEnv });
    const run = (...args: string[]) => cli([...args, "--non-interactive"], env, dir);
    succeeded(await run("stack", "init", "test"));
    return { dir, run };
  }

  /** Up, a preview with no changes, destroy: the plugin serves the whole life of a resource. */
  async function upPreviewDestroy(project: Awaited<ReturnType<typeof yamlProject>>) {
    const up = succeeded(await project.run("up", "--yes", "--skip-preview"));
    expect(up.stdout).toMatch(/2 created/);
    expect(up.stdout).not.toMatch(/using pulumi-resource-cdnstream from \$PATH/);
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
    const preview = succeeded(await project.run("preview", "--expect-no-changes"));
    expect(preview.stdout).toMatch(/2 unchanged/);
    const destroy = succeeded(await project.run("destroy", "--yes", "--skip-preview"));
    expect(destroy.stdout).toMatch(/2 deleted/);
    return up;
  }

  let files: string[];
  let stateBefore: string[];
  /** The plugin archives built: every platform npm publishes a Node.js for, but see beforeAll. */
  let platforms = Object.keys(PLATFORMS).filter((platform) => !PLATFORMS[platform].given);
  beforeAll(async () => {
    stateBefore = checkoutState();
    const start = Date.now();
    // CI's newest leg installs a newer @pulumi/pulumi than the lock's, to test the plugin on it.
    // There, only the archive this machine runs is built: the other platforms' archives differ
    // from it only in their Node.js binary and launcher, which no toolchain of the leg touches,
    // and the floor leg builds and checks every one (about 20 s of compression each).
    if (sdkOffLock) platforms = [PLATFORM];
    pruneReleases(RELEASES, RELEASE_DIR, repoRoot);
    ({ version, files } = buildRelease({ out: RELEASE_DIR, unlocked: sdkOffLock, platforms }));
    transcript(
      `release v${version} ready in ${((Date.now() - start) / 1000).toFixed(1)}s`,
      files
        .filter((file) => !file.startsWith("goproxy/"))
        .map((file) => `${(fs.statSync(path.join(RELEASE_DIR, file)).size / 1e6).toFixed(1).padStart(6)} MB  ${file}`)
        .join("\n"),
    );
    pulumi = path.join(await ensureEngine(), "pulumi");
    barePath = [path.dirname(pulumi), await ensureYamlHost()].join(path.delimiter);
    fs.mkdirSync(root, { recursive: true });
    emulator = await startTestEmulator();
    served = await serveRelease(RELEASE_DIR);
    // A first build compresses every archive (about a minute each on two busy cores); later ones reuse them.
  }, 1_500_000);
  afterAll(async () => {
    await served?.close();
    await emulator?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("leaves the checkout's files as they were", () => {
    expect(checkoutState()).toEqual(stateBefore);
  });

  it("is verified whole by `sha256sum -c SHA256SUMS`, which lists exactly the files the GitHub release attaches", async () => {
    const check = await run("sha256sum", ["-c", "--strict", "SHA256SUMS"], {
      cwd: RELEASE_DIR,
      deadlineMs: 2 * 60_000,
      allowFailure: true,
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    const verified = check.stdout.trim().split("\n");
    expect(verified.every((line) => line.endsWith(": OK"))).toBe(true);
    // What the workflow's `gh release create` uploads, its globs expanded in the release folder.
    const workflow = fs.readFileSync(path.join(repoRoot, ".github", "workflows", "release.yml"), "utf8");
    const uploaded = /gh release create [^\n]*\\\n\s*(.+)$/m.exec(workflow)?.[1].trim().split(/\s+/);
    expect(uploaded).toEqual(["./*.tar.gz", "./*.tgz", "./*.whl", "SHA256SUMS"]);
    const attached = fs
      .readdirSync(RELEASE_DIR)
      // A glob of the workflow's (`./*.tgz`) as a pattern of one file name.
      .filter((file) =>
        uploaded!.some((glob) =>
          new RegExp(`^${glob.replace(/^\.\//, "").replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`).test(file),
        ),
      )
      .filter((file) => file !== "SHA256SUMS");
    expect(verified.map((line) => line.slice(0, -": OK".length)).sort()).toEqual(attached.sort());
    expect(attached.sort()).toEqual(
      files.filter((file) => file !== "SHA256SUMS" && !file.startsWith("goproxy/")).sort(),
    );
    expect(files).toEqual(
      expect.arrayContaining([
        ...platforms.map((platform) => archiveName(version, platform)),
        `pulumi-cdnstream-${version}.tgz`,
        expect.stringMatching(/^pulumi_cdnstream-.*\.whl$/),
        expect.stringMatching(/^goproxy\/.*\.zip$/),
      ]),
    );
    // A corrupted artefact is caught.
    const copy = path.join(root, "corrupted");
    fs.mkdirSync(copy, { recursive: true });
    const npmTarball = `pulumi-cdnstream-${version}.tgz`;
    fs.writeFileSync(
      path.join(copy, "SHA256SUMS"),
      fs
        .readFileSync(path.join(RELEASE_DIR, "SHA256SUMS"), "utf8")
        .split("\n")
        .filter((line) => line.endsWith(`  ${npmTarball}`))
        .join("\n") + "\n",
    );
    fs.writeFileSync(path.join(copy, npmTarball), "not the package");
    expect(
      (await run("sha256sum", ["-c", "SHA256SUMS"], { cwd: copy, deadlineMs: 60_000, allowFailure: true })).status,
    ).not.toBe(0);
  });

  it("leaves in the release folder the release alone: its cache is beside it", () => {
    expect(fs.readdirSync(RELEASE_DIR).sort()).toEqual([...new Set(files.map((file) => file.split("/")[0]))].sort());
    expect(fs.readdirSync(path.join(`${RELEASE_DIR}-cache`, "keys")).sort()).toEqual(
      platforms.map((platform) => archiveName(version, platform)).sort(),
    );
  });

  it("removes the releases of checkouts that are gone, and keeps those of checkouts still there", () => {
    const releases = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-releases-"));
    const live = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-checkout-"));
    try {
      const release = (name: string, checkout?: string) => {
        fs.mkdirSync(path.join(releases, name, "goproxy"), { recursive: true });
        fs.writeFileSync(path.join(releases, name, "SHA256SUMS"), "");
        fs.mkdirSync(path.join(releases, `${name}-cache`, "keys"), { recursive: true });
        if (checkout) fs.writeFileSync(path.join(releases, `${name}-cache`, CHECKOUT_RECORD), checkout);
      };
      release("ours");
      release("live", live);
      release("gone", path.join(live, "removed"));
      release("unrecorded");
      fs.mkdirSync(path.join(releases, "orphan-cache"));
      pruneReleases(releases, path.join(releases, "ours"), repoRoot);
      expect(fs.readdirSync(releases).sort()).toEqual(["live", "live-cache", "ours", "ours-cache"]);
      expect(fs.readFileSync(path.join(releases, "ours-cache", CHECKOUT_RECORD), "utf8")).toBe(repoRoot);
      // And this run's own record, beside the release it built.
      expect(fs.readFileSync(path.join(releaseCacheDir(RELEASE_DIR), CHECKOUT_RECORD), "utf8")).toBe(repoRoot);
    } finally {
      fs.rmSync(releases, { recursive: true, force: true });
      fs.rmSync(live, { recursive: true, force: true });
    }
  });

  it("holds each platform's layout, Node.js binary and only the dependencies the plugin loads", async () => {
    const rows: string[] = [];
    for (const platform of platforms) {
      const archive = path.join(RELEASE_DIR, archiveName(version, platform));
      const members = (await run("tar", ["-tzvf", archive], { deadlineMs: 2 * 60_000 })).stdout
        .trim()
        .split("\n")
        .map((line) => ({ size: Number(line.split(/\s+/)[2]), name: line.split(/\s+/).slice(5).join(" ") }));
      const top = [...new Set(members.map((m) => m.name.split("/")[0]))].sort();
      const windows = platform.startsWith("windows-");
      const node = windows ? WINDOWS_LAYOUT.node : PLUGIN_LAYOUT.node;
      const launcher = windows ? WINDOWS_LAYOUT.launcher : PLUGIN_LAYOUT.launcher;
      // npm's Windows packages of Node.js carry no LICENSE file.
      expect(top).toEqual(
        [launcher, node, ...(windows ? [] : [PLUGIN_LAYOUT.nodeLicense]), PLUGIN_LAYOUT.package].sort(),
      );
      const head = Buffer.from(
        (
          await run("sh", ["-c", `tar -xzOf "$1" "$2" | head -c 4096 | base64 -w0`, "sh", archive, node], {
            deadlineMs: 2 * 60_000,
          })
        ).stdout,
        "base64",
      );
      const [os_, arch] = platform.split("-");
      expect(`${platform}: ${binaryKind(head)}`).toBe(`${platform}: ${EXPECTED_BINARY[os_]}-${arch}`);
      // The launcher starts the binary and the plugin's entry beside it.
      const text = await memberText(archive, launcher);
      const entry = windows ? PLUGIN_LAYOUT.main.split("/").join("\\") : PLUGIN_LAYOUT.main;
      expect(text).toContain(
        windows ? `"%~dp0${node}" "%~dp0${entry}" %*` : `exec "$here/${node}" "$here/${entry}" "$@"`,
      );
      expect(members.map((m) => m.name)).toContain(PLUGIN_LAYOUT.main);
      const dependencies = [
        ...new Set(
          members
            .map((m) => /^package\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m.name)?.[1])
            // A scope's own directory entry (`@grpc/`) is no package.
            .filter((name): name is string => !!name && !/^@[^/]+$/.test(name)),
        ),
      ].sort();
      expect(dependencies).toEqual(expect.arrayContaining(["@grpc/grpc-js", "@pulumi/pulumi", "undici", "zod"]));
      for (const unused of ["typescript", "node-gyp", "@opentelemetry/api"]) expect(dependencies).not.toContain(unused);
      const installed = members.reduce((sum, m) => sum + (m.size || 0), 0);
      rows.push(
        `${platform.padEnd(14)} archive ${(fs.statSync(archive).size / 1e6).toFixed(1)} MB, installed ${(installed / 1e6).toFixed(1)} MB; node_modules: ${dependencies.join(" ")}`,
      );
    }
    transcript("the archives", rows.join("\n"));
  });

  it("ships in the npm package no compiled file whose source is gone", async () => {
    const compiled = (
      await run("tar", ["-tzf", path.join(RELEASE_DIR, `pulumi-cdnstream-${version}.tgz`)], { deadlineMs: 2 * 60_000 })
    ).stdout
      .split("\n")
      .filter((member) => /^package\/dist\/.*\.js$/.test(member));
    expect(compiled.length).toBeGreaterThan(0);
    const orphans = compiled.filter(
      (member) => !fs.existsSync(path.join(repoRoot, member.replace(/^package\/dist\//, "").replace(/\.js$/, ".ts"))),
    );
    expect(orphans).toEqual([]);
  });

  it("runs with a PATH where neither node nor another copy of the plugin can be found", async () => {
    for (const dir of barePath.split(path.delimiter)) {
      expect(fs.existsSync(path.join(dir, "node"))).toBe(false);
      expect(fs.existsSync(path.join(dir, "pulumi-resource-cdnstream"))).toBe(false);
    }
    const which = await run("/bin/sh", ["-c", "command -v node"], {
      env: { PATH: barePath },
      deadlineMs: 60_000,
      allowFailure: true,
    });
    expect(which.stdout).toBe("");
    expect(which.status).not.toBe(0);
  });

  it("`pulumi plugin install resource cdnstream <version> --server <url>` installs it; a YAML program runs on it", async () => {
    const home = path.join(root, "home-server");
    const install = await cli(
      ["plugin", "install", "resource", "cdnstream", version, "--server", served.url],
      cliEnv(home),
    );
    transcript(
      `$ pulumi plugin install resource cdnstream ${version} --server ${served.url}`,
      `${install.stdout}${install.stderr}`,
    );
    expect(install.status).toBe(0);
    expect(served.requests).toContain(`GET /${archiveName(version, PLATFORM)} 200`);

    const listed = succeeded(await cli(["plugin", "ls", "--json"], cliEnv(home)));
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ name: "cdnstream", kind: "resource", version }),
    ]);
    transcript("$ pulumi plugin ls", (await cli(["plugin", "ls"], cliEnv(home))).stdout);
    const installed = path.join(home, "plugins", `resource-cdnstream-v${version}`);
    expect(fs.readdirSync(installed).sort()).toEqual(
      [PLUGIN_LAYOUT.launcher, PLUGIN_LAYOUT.node, PLUGIN_LAYOUT.nodeLicense, PLUGIN_LAYOUT.package].sort(),
    );

    // Acquisition off: the program can only be served by what `plugin install` put in the cache.
    const project = await yamlProject("server-install", home, "", {
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    });
    await upPreviewDestroy(project);
  });

  it("is downloaded by the engine at a program's first `up` when the program names the URL", async () => {
    const home = path.join(root, "home-auto");
    const before = served.requests.length;
    const project = await yamlProject(
      "auto-download",
      home,
      `    options:\n      version: ${version}\n      pluginDownloadURL: ${served.url}`,
    );
    expect(cacheEntries(home)).toEqual([]);
    const up = await upPreviewDestroy(project);
    transcript(
      "$ pulumi up (the plugin not installed, automatic acquisition on)",
      `${up.stdout}\n${up.stderr}`
        .split("\n")
        .filter((line) => /^\s*(Downloading|Installing) plugin|^\s*\+ \d+ created/.test(line))
        .join("\n"),
    );
    expect(served.requests.slice(before)).toEqual([`GET /${archiveName(version, PLATFORM)} 200`]);
    expect(cacheEntries(home)).toContain(`resource-cdnstream-v${version}`);
  });

  it("is downloaded by the engine for a Python program, from the URL its SDK carries (the schema's pluginDownloadURL)", async () => {
    // The inline program (test/plugin-langs/python/driver.py) runs in Python's Automation API,
    // with no language host: the engine installs the plugin when it loads the provider, from the
    // version and pluginDownloadURL the SDK registers it with. The release page is redirected to
    // the local server the way a mirror is, with the engine's PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES.
    const releasePage = DEFAULT_PLUGIN_DOWNLOAD_URL.slice(0, DEFAULT_PLUGIN_DOWNLOAD_URL.indexOf("/releases/"));
    const home = path.join(root, "home-python");
    const dir = path.join(root, "python");
    fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
    fs.mkdirSync(path.join(dir, "project"), { recursive: true });
    const spec = {
      project: "release-python",
      stack: "test",
      workDir: path.join(dir, "project"),
      apiKey: emulator.apiKey,
      baseUrl: emulator.url,
      stream: { streamKind: "push", streamId: "3001", disabled: true },
    };
    const env = cliEnv(home, {
      PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${releasePage.replace(/[.]/g, "\\.")}/=${served.url}`,
      CDNSTREAM_DRIVER_SPEC: JSON.stringify(spec),
    });
    const python = [await ensurePython(), path.join(repoRoot, "test", "plugin-langs", "python", "driver.py")];
    const drive = (verb: string) =>
      run(python[0], [python[1], verb], { cwd: spec.workDir, env, deadlineMs: CLI_DEADLINE_MS, allowFailure: true });
    const before = served.requests.length;
    const up = succeeded(await drive("up"));
    // The engine installs it while loading the provider and prints nothing of it: the server's log shows the download.
    transcript(
      "python driver.py up (Python SDK, the plugin not installed)",
      [
        ...served.requests.slice(before).map((request) => `release server: ${request}`),
        ...up.stderr.split("\n").filter((line) => /^\s*\+ \d+ created/.test(line)),
      ].join("\n"),
    );
    expect(JSON.parse(up.stdout.trim().split("\n").pop()!).changes).toMatchObject({ create: 3 });
    expect(served.requests.slice(before)).toEqual([`GET /${archiveName(version, PLATFORM)} 200`]);
    expect(cacheEntries(home)).toContain(`resource-cdnstream-v${version}`);
    succeeded(await drive("destroy"));
  });

  it("fails with the engine's message naming a URL that has no archive, and installs nothing", async () => {
    const home = path.join(root, "home-missing");
    const url = `${served.url}/no-such-release`;
    const install = await cli(["plugin", "install", "resource", "cdnstream", version, "--server", url], cliEnv(home));
    transcript(`$ pulumi plugin install resource cdnstream ${version} --server ${url}`, install.stderr);
    expect(install.status).not.toBe(0);
    expect(install.stderr).toContain(`${url}/${archiveName(version, PLATFORM)}`);
    expect(install.stderr).toMatch(/404/);
    expect(cacheEntries(home).filter((entry) => !entry.endsWith(".lock"))).toEqual([]);
  });

  it("fails at `up` with the engine's message naming an unreachable URL, and installs nothing", async () => {
    const home = path.join(root, "home-unreachable");
    const url = `http://127.0.0.1:${await closedPort()}`;
    const project = await yamlProject(
      "unreachable",
      home,
      `    options:\n      version: ${version}\n      pluginDownloadURL: ${url}`,
    );
    const up = await project.run("up", "--yes", "--skip-preview");
    transcript(
      `$ pulumi up (pluginDownloadURL ${url}, nothing listening)`,
      // Each attempt is a warning; the last line is the error the run ends with.
      [
        ...new Set(
          `${up.stdout}\n${up.stderr}`
            .split("\n")
            .filter((line) => line.includes(url) && /^\s*(warning|error|\S*Error)/i.test(line))
            .map((line) => line.trim()),
        ),
      ].join("\n"),
    );
    expect(up.status).not.toBe(0);
    expect(`${up.stdout}${up.stderr}`).toContain(`${url}/${archiveName(version, PLATFORM)}`);
    expect(cacheEntries(home).filter((entry) => !entry.endsWith(".lock"))).toEqual([]);
  });

  it("`cdnstream plugin install` copies the plugin whole: the project that ran it removed, a program still runs", async () => {
    const home = path.join(root, "home-cdnstream");
    const userProject = path.join(root, "user-project");
    fs.mkdirSync(userProject, { recursive: true });
    fs.writeFileSync(path.join(userProject, "package.json"), '{ "name": "user-project", "private": true }\n');
    // The package as a user installs it: the released npm tarball, with npm.
    await runNpm(
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        path.join(RELEASE_DIR, `pulumi-cdnstream-${version}.tgz`),
      ],
      { cwd: userProject, deadlineMs: 3 * 60_000 },
    );
    const install = await run(
      process.execPath,
      [
        path.join(userProject, "node_modules", "pulumi-cdnstream", "dist", "provider", "cli", "index.js"),
        "plugin",
        "install",
      ],
      // A copy of the plugin's directory (about 180 MB): seconds.
      { env: { ...process.env, PULUMI_HOME: home }, deadlineMs: 5 * 60_000, allowFailure: true },
    );
    transcript("$ npx cdnstream plugin install", `${install.stdout}${install.stderr}`);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    const launcher = path.join(home, "plugins", `resource-cdnstream-v${version}`, PLUGIN_LAYOUT.launcher);
    expect(install.stdout).toBe(`installed pulumi-resource-cdnstream v${version} at ${launcher}\n`);
    // The plugin and the lock file of its version, which the engine's installer leaves there too.
    expect(cacheEntries(home)).toEqual([`resource-cdnstream-v${version}`, `resource-cdnstream-v${version}.lock`]);

    fs.rmSync(userProject, { recursive: true, force: true });
    expect(fs.readFileSync(launcher, "utf8")).not.toContain(userProject);
    const project = await yamlProject("after-removal", home, "", {
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    });
    await upPreviewDestroy(project);
  });

  it("refuses a release whose artefacts carry two versions, naming them", () => {
    const dir = path.join(root, "mixed-release");
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(
      path.join(RELEASE_DIR, `pulumi-cdnstream-${version}.tgz`),
      path.join(dir, `pulumi-cdnstream-${version}.tgz`),
    );
    expect(checkOneVersion(dir, version).map((a) => a.version)).toEqual([version, version, version]);
    fs.writeFileSync(path.join(dir, "pulumi_cdnstream-9.9.9-py3-none-any.whl"), "");
    expect(() => checkOneVersion(dir, version)).toThrow(/pulumi_cdnstream-9\.9\.9-py3-none-any\.whl carries 9\.9\.9/);
    // The release just built is one version throughout, the plugin's package and schema included.
    const artefacts = checkOneVersion(RELEASE_DIR, version);
    expect(artefacts.map((a) => a.file)).toEqual(
      expect.arrayContaining([
        archiveName(version, PLATFORM),
        `${archiveName(version, PLATFORM)}: package/package.json`,
        `${archiveName(version, PLATFORM)}: package/provider/plugin/schema.json`,
        `pulumi-cdnstream-${version}.tgz`,
      ]),
    );
  });
});
