/**
 * `cdnstream plugin install|path` (its HELP says what they do). The plugin is self-contained
 * ({@link PLUGIN_LAYOUT}), the same directory a release archive holds (scripts/release.ts), so it
 * needs no Node.js on PATH and nothing of the project that installed it.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setImmediate } from "node:timers/promises";
import { packageRoot, packageVersion as version } from "../../kinds/package-info";
import { EXIT, parseOptions, parseOrExit, type Command, type Io } from "./command";
import { isStopping } from "./signals";

const PLUGIN = "pulumi-resource-cdnstream";
/** The plugin's entry, relative to a package directory. */
const MAIN = path.join("dist", "provider", "plugin", "main.js");
const pluginMain = path.join(packageRoot, MAIN);

const HELP = `Usage: cdnstream plugin install [--pulumi-home=DIR]
       cdnstream plugin path

  install   Installs ${PLUGIN} v${version} into the Pulumi plugin cache
            ($PULUMI_HOME/plugins, by default ~/.pulumi/plugins), where the Pulumi CLI finds it
            for YAML, Python and Go programs and \`pulumi import\`; \`pulumi plugin ls\` lists it.
            It copies the plugin whole: this package's build, its production dependencies and
            the Node.js running this command, so it keeps working after this project is removed
            and without node on PATH. Without Node.js, the release archive installs the same
            plugin: pulumi plugin install resource cdnstream ${version} --server <release URL>
  path      Prints the plugin's executable in this package, for a PATH entry instead.`;

/** The plugin cache directory of this release: `<pulumi home>/plugins/resource-cdnstream-v<version>`. */
export function pluginCacheDir(pulumiHome: string): string {
  return path.join(pulumiHome, "plugins", `resource-cdnstream-v${version}`);
}

/** Where the launcher, the Node.js binary and the package (with its production dependencies) sit in a plugin directory. */
export const PLUGIN_LAYOUT = {
  launcher: PLUGIN,
  node: "node",
  /** Node.js's license, shipped beside its binary when the binary came with one (release archives). */
  nodeLicense: "LICENSE.node",
  package: "package",
  main: path.join("package", MAIN),
} as const;

/**
 * The launcher's text. It finds the binary and the package beside itself (`${0%/*}`: no external
 * command, so it runs with any PATH, even one without coreutils), never a `node` on PATH.
 */
const LAUNCHER = `#!/bin/sh
# ${PLUGIN}: the provider plugin, run by the Node.js binary beside this file.
here=\${0%/*}
exec "$here/${PLUGIN_LAYOUT.node}" "$here/${PLUGIN_LAYOUT.main}" "$@"
`;

interface PackageManifest {
  name: string;
  files?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const readManifest = (dir: string): PackageManifest =>
  JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as PackageManifest;

/**
 * The production dependencies of the package at `packageDir`, transitively: the directory Node.js
 * resolves each to, and the one it takes under `targetPackage`. A hoisted one (in an ancestor's
 * node_modules) goes to `targetPackage/node_modules/<name>`, a nested one stays under its
 * dependent's copy, so every `require` resolves in the copy as it did in the source.
 */
export function productionDependencies(packageDir: string, targetPackage: string): Map<string, string> {
  const targets = new Map<string, string>([[packageDir, targetPackage]]);
  const claimed = new Map<string, string>([[targetPackage, packageDir]]);
  const visit = (dir: string) => {
    const manifest = readManifest(dir);
    const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
    for (const name of [...Object.keys(manifest.dependencies ?? {}), ...optional]) {
      let found: { source: string; target: string } | undefined;
      for (let at = dir; !found; at = path.dirname(at)) {
        const source = path.join(at, "node_modules", name);
        if (fs.existsSync(path.join(source, "package.json"))) {
          const base = targets.get(at) ?? targetPackage;
          found = { source: fs.realpathSync(source), target: path.join(base, "node_modules", name) };
        } else if (path.dirname(at) === at) break;
      }
      if (!found) {
        if (optional.has(name)) continue;
        throw new Error(`${manifest.name} depends on ${name}, which is not installed (run \`npm install\`)`);
      }
      if (targets.has(found.source)) continue;
      const other = claimed.get(found.target);
      if (other && other !== found.source)
        throw new Error(
          `two installed copies of ${name} (${other} and ${found.source}) would share one place in the plugin`,
        );
      targets.set(found.source, found.target);
      claimed.set(found.target, found.source);
      visit(found.source);
    }
  };
  visit(packageDir);
  targets.delete(packageDir);
  return targets;
}

/** What to put in a plugin directory: the package to copy and the Node.js binary to run it. */
export interface PluginSources {
  /** The package (a directory holding its package.json and its build); default: this one. */
  packageDir?: string;
  /** The Node.js binary; default: the one running this process. */
  node?: string;
  /** Node.js's license file, copied beside the binary when given. */
  nodeLicense?: string;
}

/** One copy into a plugin directory: a file or a tree, without `skip` (a dependency's own node_modules). */
interface Copy {
  from: string;
  to: string;
  skip?: string;
}

/**
 * The copies that make the self-contained plugin in `dir`, in order: the package's shipped files,
 * its production dependencies, the Node.js binary (and its license). Checked before anything is
 * written; {@link layOutPlugin} makes them at once, the install one copy at a time so that Ctrl-C
 * stops it.
 */
function pluginCopies(dir: string, sources: PluginSources): Copy[] {
  const packageDir = fs.realpathSync(sources.packageDir ?? packageRoot);
  const targetPackage = path.join(dir, PLUGIN_LAYOUT.package);
  if (!fs.existsSync(path.join(packageDir, MAIN)))
    throw new Error(
      `${path.join(packageDir, "dist")} holds no built plugin: the package is not built (run \`npm run build\`)`,
    );
  const copies: Copy[] = [];
  // The package as npm ships it: package.json and its `files`.
  const manifest = readManifest(packageDir);
  for (const entry of ["package.json", ...(manifest.files ?? [])]) {
    const source = path.join(packageDir, entry);
    if (fs.existsSync(source)) copies.push({ from: source, to: path.join(targetPackage, entry) });
  }
  // Each dependency without its own node_modules: its nested dependencies are copied on their own.
  for (const [source, target] of productionDependencies(packageDir, targetPackage))
    copies.push({ from: source, to: target, skip: path.join(source, "node_modules") });
  copies.push({ from: sources.node ?? process.execPath, to: path.join(dir, PLUGIN_LAYOUT.node) });
  if (sources.nodeLicense) copies.push({ from: sources.nodeLicense, to: path.join(dir, PLUGIN_LAYOUT.nodeLicense) });
  return copies;
}

/** The launcher, and the binary made executable: the last step of a layout. */
function finishLayout(dir: string): void {
  fs.chmodSync(path.join(dir, PLUGIN_LAYOUT.node), 0o755);
  fs.writeFileSync(path.join(dir, PLUGIN_LAYOUT.launcher), LAUNCHER, { mode: 0o755 });
}

/**
 * Writes the self-contained plugin into `dir` (which must not exist): the launcher, the Node.js
 * binary, the package's shipped files and its production dependencies. The one place this
 * layout is made: `cdnstream plugin install` and the release archives (scripts/release.ts).
 */
export function layOutPlugin(dir: string, sources: PluginSources = {}): void {
  const copies = pluginCopies(dir, sources);
  fs.mkdirSync(path.join(dir, PLUGIN_LAYOUT.package), { recursive: true });
  for (const { from, to, skip } of copies) fs.cpSync(from, to, { recursive: true, filter: (file) => file !== skip });
  finishLayout(dir);
}

/** Thrown by the install's copy once SIGINT or SIGTERM has started stopping the command. */
class Stopped extends Error {}

/**
 * {@link layOutPlugin}, with the event loop let run between copies (one package or dependency, or
 * the Node.js binary, each), so that a signal is handled and ends the copy. Each copy is
 * synchronous: `fs.promises.cp` of this tree was seen never to settle, mid-copy, with every
 * thread idle (Node.js 22.19), which left the install, and its lock, waiting forever.
 */
async function layOutPluginStoppably(dir: string, sources: PluginSources): Promise<void> {
  const copies = pluginCopies(dir, sources);
  fs.mkdirSync(path.join(dir, PLUGIN_LAYOUT.package), { recursive: true });
  for (const { from, to, skip } of copies) {
    await setImmediate();
    if (isStopping()) throw new Stopped("stopped");
    fs.cpSync(from, to, { recursive: true, filter: (file) => file !== skip });
  }
  await setImmediate();
  if (isStopping()) throw new Stopped("stopped");
  finishLayout(dir);
}

/**
 * Holds the engine's install lock of one plugin version, `<plugin dir>.lock`, until the returned
 * function is called. Pulumi's installer (pkg/pluginstorage, fsutil.FileMutex) takes it with
 * flock(2), so the same lock keeps this command, a second one and the engine's own download of
 * this version from writing at once. Node.js has no flock: on macOS, open(2)'s O_EXLOCK is that
 * lock; elsewhere util-linux's flock(1) takes it in a child that holds it until its stdin, a pipe
 * from this process, closes, which the kernel does however this process ends, so a killed install
 * never leaves the version locked.
 */
async function lockVersion(lockFile: string, onWait: () => void): Promise<() => Promise<void>> {
  if (process.platform === "darwin") {
    const O_EXLOCK = 0x20; // <sys/fcntl.h>; Node.js's fs.constants lacks it, open(2) takes it.
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | O_EXLOCK;
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(lockFile, flags | fs.constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      onWait();
      handle = await fs.promises.open(lockFile, flags);
    }
    return () => handle.close();
  }
  /** The lock, held by a flock(1) child; undefined when `wait` is false and another holds it. */
  const hold = async (wait: boolean): Promise<(() => Promise<void>) | undefined> => {
    const mode = wait ? "--exclusive" : "--nonblock";
    const holder = spawn("flock", [mode, lockFile, "sh", "-c", "echo locked && exec cat >/dev/null"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    holder.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => holder.once("close", () => resolve()));
    const locked = await new Promise<boolean>((resolve, reject) => {
      holder.stdout.once("data", () => resolve(true));
      holder.once("error", (err: NodeJS.ErrnoException) =>
        reject(
          err.code === "ENOENT"
            ? new Error(
                "the `flock` command is needed to take the plugin cache's install lock, which the Pulumi engine shares: install util-linux (apt-get install util-linux, dnf install util-linux-core, apk add util-linux)",
              )
            : err,
        ),
      );
      // flock --nonblock exits 1, silently, when the lock is held.
      holder.once("exit", (code) =>
        !wait && code === 1
          ? resolve(false)
          : reject(new Error(`flock ${lockFile} exited with ${code}: ${stderr.trim()}`)),
      );
    });
    if (!locked) return undefined;
    return async () => {
      holder.stdin.end();
      await exited;
    };
  };
  const unlock = await hold(false);
  if (unlock) return unlock;
  onWait();
  return (await hold(true))!;
}

/**
 * Lays `staging` in at `target`, the earlier install (if any) moved aside to `previous` first and
 * removed after; any failure puts it back. The engine's `.partial` marker stands beside `target`
 * from the moment it is empty until the new directory is whole there, so a process killed midway
 * leaves nothing the engine or `pulumi plugin ls` takes for an install.
 */
function swapIn(staging: string, target: string, previous: string): void {
  const partial = `${target}.partial`;
  const markedBefore = fs.existsSync(partial);
  const hadPrevious = fs.existsSync(target);
  if (hadPrevious) fs.renameSync(target, previous);
  try {
    fs.writeFileSync(partial, "");
    fs.renameSync(staging, target);
  } catch (err) {
    if (!hadPrevious) throw err;
    try {
      fs.renameSync(previous, target);
    } catch (putBack) {
      throw new Error(
        `${(err as Error).message}; the earlier install, moved aside to ${previous}, could not be put back (${(putBack as Error).message}): move it to ${target}`,
      );
    }
    if (!markedBefore) fs.rmSync(partial, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}; the earlier install is back in place`);
  }
  fs.rmSync(partial, { force: true });
  fs.rmSync(previous, { recursive: true, force: true });
}

/**
 * Removes what installs that died left beside `target` (run under the version's lock, which every
 * install holds while its directories exist, so each found belongs to a process that is gone): its
 * staging directories, and its earlier install moved aside, put back when nothing took its place.
 */
function clearLeftovers(target: string): void {
  const parent = path.dirname(target);
  const hidden = `.${path.basename(target)}.`;
  for (const name of fs.readdirSync(parent)) {
    if (!name.startsWith(hidden)) continue;
    const leftover = path.join(parent, name);
    if (name.startsWith(`${hidden}previous-`) && !fs.existsSync(target)) fs.renameSync(leftover, target);
    else if (/^(installing|previous)-/.test(name.slice(hidden.length)))
      fs.rmSync(leftover, { recursive: true, force: true });
  }
}

/** What an install tells while it runs. */
export interface InstallEvents {
  /** Another install of this version holds the lock: this one waits for it. */
  waiting?: () => void;
  /** The process exits on a signal before the plugin was in place: nothing was installed. */
  stopped?: () => void;
}

/**
 * Installs the self-contained plugin into the plugin cache, whole or not at all, under the
 * engine's lock of this version: laid out in a hidden directory beside, then renamed into place
 * (see {@link swapIn}), so the engine never finds half of it and a failure leaves the earlier
 * install as it was. A signal stops the copy; the process then exits without its staging directory.
 */
export async function installPlugin(
  pulumiHome: string,
  sources: PluginSources = {},
  events: InstallEvents = {},
): Promise<string> {
  const target = pluginCacheDir(pulumiHome);
  const suffix = `${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  // Hidden names: `pulumi plugin ls` reads every directory of the cache named like a plugin.
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.installing-${suffix}`);
  const previous = path.join(path.dirname(target), `.${path.basename(target)}.previous-${suffix}`);
  let installed = false;
  const removeStaging = () => fs.rmSync(staging, { recursive: true, force: true, maxRetries: 3 });
  const onExit = () => {
    if (installed) return;
    removeStaging();
    events.stopped?.();
  };
  process.on("exit", onExit);
  let unlock: (() => Promise<void>) | undefined;
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    unlock = await lockVersion(`${target}.lock`, events.waiting ?? (() => {}));
    clearLeftovers(target);
    await layOutPluginStoppably(staging, sources);
    // Synchronous from this check on: a signal is handled before the swap or after it, never within.
    if (isStopping()) throw new Stopped("stopped");
    swapIn(staging, target, previous);
    installed = true;
  } finally {
    if (!installed) removeStaging();
    // Stopping: the process exits soon, and says then that nothing was installed.
    if (!isStopping()) process.off("exit", onExit);
    await unlock?.();
  }
  return path.join(target, PLUGIN);
}

/** The libraries a self-contained Node.js may link: the C and C++ runtimes every Linux and macOS system has. */
const SYSTEM_LIBRARY =
  process.platform === "darwin"
    ? /^\/(usr\/lib|System\/Library)\//
    : /\/(ld-linux[^/]*|lib(c|m|dl|pthread|rt|stdc\+\+|gcc_s|atomic|resolv|util)(-[\d.]+)?\.so[^/]*)$/;

/**
 * The shared libraries the Node.js running this command loaded beyond {@link SYSTEM_LIBRARY}:
 * a distribution's build (Debian's libnode, Homebrew's libuv, ICU, OpenSSL) links libraries a
 * later upgrade replaces, so a copy of it breaks then. On Linux the process's own mappings say
 * what it loaded; on macOS `otool -L` says what the binary links. Undefined when it cannot be told.
 */
export function foreignLibraries(): string[] | undefined {
  let libraries: string[];
  try {
    libraries =
      process.platform === "darwin"
        ? execFileSync("otool", ["-L", process.execPath], {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
            timeout: 60_000,
          })
            .split("\n")
            .slice(1)
            .map((line) => line.trim().split(" (")[0])
        : fs
            .readFileSync("/proc/self/maps", "utf8")
            .split("\n")
            .map((line) => line.split(/\s+/).slice(5).join(" "))
            .filter((file) => /\.so(\.|$)/.test(file));
  } catch {
    return undefined;
  }
  return [...new Set(libraries.filter((file) => file && !SYSTEM_LIBRARY.test(file)))];
}

/**
 * The Node.js binary the plugin gets: the one running this command when it is self-contained,
 * else the official build of the same version, fetched by the package's scripts/ensure-node.
 */
function nodeForPlugin(io: Io): PluginSources {
  const foreign = foreignLibraries();
  if (foreign?.length === 0) return {};
  io.stderr(
    `cdnstream plugin install: the Node.js running this command (${process.execPath}) ${
      foreign ? `links ${foreign.join(", ")}, which an upgrade may remove` : "could not be checked for its libraries"
    }; the plugin gets the official Node.js ${process.version} instead`,
  );
  // Through bash: a tarball need not keep the script's executable bit.
  // A download of Node.js (tens of MB) when it is not cached: a minute or two; never for ever.
  const run = spawnSync("bash", [path.join(packageRoot, "scripts", "ensure-node"), process.version], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 15 * 60_000,
    killSignal: "SIGKILL",
  });
  const bin = run.stdout?.trim().split("\n").pop();
  if (run.status !== 0 || !bin)
    throw new Error(
      `scripts/ensure-node could not fetch the official Node.js ${process.version} (${run.error?.message ?? `exit ${run.status}`}); run this command with the official Node.js (https://nodejs.org), or install the release archive`,
    );
  return { node: path.join(bin, "node"), nodeLicense: path.join(path.dirname(bin), "LICENSE") };
}

/** Where the release archive of this version is, as the schema's pluginDownloadURL says. */
function releaseUrl(): string {
  const schema = JSON.parse(fs.readFileSync(path.join(packageRoot, "provider", "plugin", "schema.json"), "utf8")) as {
    pluginDownloadURL: string;
  };
  return schema.pluginDownloadURL.replace("${VERSION}", version);
}

async function install(argv: readonly string[], io: Io): Promise<number> {
  const args = parseOrExit(io, "plugin install", HELP, () => {
    const { values } = parseOptions({
      args: [...argv],
      options: { "pulumi-home": { type: "string" }, help: { type: "boolean", short: "h" } },
    });
    return values.help ? undefined : values;
  });
  if (typeof args === "number") return args;
  if (process.platform === "win32") {
    io.stderr(
      `cdnstream plugin install: this command lays out a plugin run by a POSIX shell launcher, which Windows cannot run. Install the release archive instead: pulumi plugin install resource cdnstream ${version} --server ${releaseUrl()} (or let \`pulumi up\` download it); see the package's docs/plugin.md.`,
    );
    return EXIT.failed;
  }
  const pulumiHome = args["pulumi-home"]
    ? path.resolve(args["pulumi-home"])
    : io.env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
  if (!fs.existsSync(pluginMain)) {
    io.stderr(`cdnstream plugin install: ${pluginMain} is missing: this package is not built (run \`npm run build\`).`);
    return EXIT.failed;
  }
  try {
    const launcher = await installPlugin(pulumiHome, nodeForPlugin(io), {
      waiting: () =>
        io.stderr(
          `cdnstream plugin install: waiting for another install of ${PLUGIN} v${version} to finish (it holds ${pluginCacheDir(pulumiHome)}.lock)`,
        ),
      stopped: () => io.stderr("cdnstream plugin install: stopped: nothing was installed"),
    });
    io.stdout(`installed ${PLUGIN} v${version} at ${launcher}`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof Stopped || isStopping()) return EXIT.sigint;
    io.stderr(`cdnstream plugin install: nothing was installed: ${(err as Error).message}`);
    return EXIT.failed;
  }
}

export const pluginCommand: Command = {
  summary: `install the provider plugin ${PLUGIN} for YAML, Python and Go programs and \`pulumi import\``,
  async run(argv, io) {
    const [action, ...rest] = argv;
    if (action === "install") return install(rest, io);
    if (action === "path" && rest.length === 0) {
      io.stdout(pluginMain);
      return EXIT.ok;
    }
    if (action === "--help" || action === "-h") {
      io.stdout(HELP);
      return EXIT.ok;
    }
    io.stderr(
      `${action === undefined ? "cdnstream plugin: missing action" : `cdnstream plugin: unknown action "${action}"`}\n\n${HELP}`,
    );
    return EXIT.usage;
  },
};
