/**
 * The provider plugin as a release ships it, through the real CLI, on a machine without Node.js
 * as far as the plugin can tell: `npm run release`'s linux-amd64 archive (built once here, and
 * only when what it is made of changed) served from dist/release/ by a local HTTP server, a fresh
 * PULUMI_HOME per case, and a PATH holding only the CLI and the YAML language host (no `node`, no
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
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { PLUGIN_LAYOUT } from "../../provider/cli/plugin";
import { archiveName, buildRelease, checkOneVersion, RELEASE_DIR } from "../../scripts/release";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { ensureEngine, repoRoot } from "../helpers/engine";
import { ensurePython } from "../helpers/languages";
import { ensureYamlHost } from "../helpers/plugin";
import { DEFAULT_PLUGIN_DOWNLOAD_URL } from "../../scripts/gen-schema";

const PLATFORM = "linux-amd64";

/** A line of the transcript: what a user would see, shortened. */
function transcript(title: string, text = ""): void {
  const lines = text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim());
  process.stderr.write(`[plugin-release] ${title}\n${lines.map((line) => `    ${line}\n`).join("")}`);
}

/** dist/release served over HTTP on 127.0.0.1, with a log of what was asked. */
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
  const root = path.join(repoRoot, ".tmp", "e2e", `release-${crypto.randomBytes(6).toString("hex")}`);

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
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(pulumi, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });

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

  beforeAll(async () => {
    // The archive is rebuilt only when the package, the Node.js release or the layout changed.
    const start = Date.now();
    ({ version } = buildRelease({ platforms: [PLATFORM], sdks: false }));
    transcript(
      `release v${version} ready in ${((Date.now() - start) / 1000).toFixed(1)}s`,
      fs.readdirSync(RELEASE_DIR).join("\n"),
    );
    pulumi = path.join(ensureEngine(), "pulumi");
    barePath = [path.dirname(pulumi), ensureYamlHost()].join(path.delimiter);
    fs.mkdirSync(root, { recursive: true });
    emulator = await startTestEmulator();
    served = await serveRelease(RELEASE_DIR);
  });
  afterAll(async () => {
    await served?.close();
    await emulator?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("runs with a PATH where neither node nor another copy of the plugin can be found", () => {
    for (const dir of barePath.split(path.delimiter)) {
      expect(fs.existsSync(path.join(dir, "node"))).toBe(false);
      expect(fs.existsSync(path.join(dir, "pulumi-resource-cdnstream"))).toBe(false);
    }
    const which = spawnSync("/bin/sh", ["-c", "command -v node"], { env: { PATH: barePath }, encoding: "utf8" });
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
    const python = [ensurePython(), path.join(repoRoot, "test", "plugin-langs", "python", "driver.py")];
    const drive = (verb: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(python[0], [python[1], verb], {
          cwd: spec.workDir,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk) => (stdout += chunk));
        child.stderr.on("data", (chunk) => (stderr += chunk));
        child.on("error", reject);
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
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
    execFileSync(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        path.join(RELEASE_DIR, `pulumi-cdnstream-${version}.tgz`),
      ],
      { cwd: userProject, stdio: ["ignore", "ignore", "inherit"] },
    );
    const install = spawnSync(
      process.execPath,
      [
        path.join(userProject, "node_modules", "pulumi-cdnstream", "dist", "provider", "cli", "index.js"),
        "plugin",
        "install",
      ],
      { env: { ...process.env, PULUMI_HOME: home }, encoding: "utf8" },
    );
    transcript("$ npx cdnstream plugin install", `${install.stdout}${install.stderr}`);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    const launcher = path.join(home, "plugins", `resource-cdnstream-v${version}`, PLUGIN_LAYOUT.launcher);
    expect(install.stdout).toBe(`installed pulumi-resource-cdnstream v${version} at ${launcher}\n`);
    expect(cacheEntries(home)).toEqual([`resource-cdnstream-v${version}`]);

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
