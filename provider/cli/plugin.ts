/**
 * `cdnstream plugin install|path` (its HELP says what they do). The plugin is self-contained
 * ({@link PLUGIN_LAYOUT}), the same directory a release archive holds (scripts/release.ts), so it
 * needs no Node.js on PATH and nothing of the project that installed it.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageRoot, packageVersion as version } from "../../sdk/package-info";
import { EXIT, type Command, type Io } from "./command";

const PLUGIN = "pulumi-resource-cdnstream";
/** The plugin's entry, relative to a package directory. */
const MAIN = path.join("dist", "provider", "plugin", "main.js");
const pluginMain = path.join(packageRoot, MAIN);

const HELP = `Usage: cdnstream plugin install [--pulumi-home DIR]
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

/**
 * Writes the self-contained plugin into `dir` (which must not exist): the launcher, the Node.js
 * binary, the package's shipped files and its production dependencies. The one place this
 * layout is made: `cdnstream plugin install` and the release archives (scripts/release.ts).
 */
export function layOutPlugin(dir: string, sources: PluginSources = {}): void {
  const packageDir = fs.realpathSync(sources.packageDir ?? packageRoot);
  const targetPackage = path.join(dir, PLUGIN_LAYOUT.package);
  if (!fs.existsSync(path.join(packageDir, MAIN)))
    throw new Error(
      `${path.join(packageDir, "dist")} holds no built plugin: the package is not built (run \`npm run build\`)`,
    );
  fs.mkdirSync(targetPackage, { recursive: true });

  // The package as npm ships it: package.json and its `files`.
  const manifest = readManifest(packageDir);
  for (const entry of ["package.json", ...(manifest.files ?? [])]) {
    const source = path.join(packageDir, entry);
    if (fs.existsSync(source)) fs.cpSync(source, path.join(targetPackage, entry), { recursive: true });
  }
  // Each dependency without its own node_modules: its nested dependencies are copied on their own.
  for (const [source, target] of productionDependencies(packageDir, targetPackage)) {
    const nested = path.join(source, "node_modules");
    fs.cpSync(source, target, { recursive: true, filter: (file) => file !== nested });
  }

  fs.copyFileSync(sources.node ?? process.execPath, path.join(dir, PLUGIN_LAYOUT.node));
  fs.chmodSync(path.join(dir, PLUGIN_LAYOUT.node), 0o755);
  if (sources.nodeLicense) fs.copyFileSync(sources.nodeLicense, path.join(dir, PLUGIN_LAYOUT.nodeLicense));
  fs.writeFileSync(path.join(dir, PLUGIN_LAYOUT.launcher), LAUNCHER, { mode: 0o755 });
}

/**
 * Installs the self-contained plugin into the plugin cache, whole or not at all: laid out in a
 * hidden directory beside, then renamed into place (an earlier install moved aside first, removed
 * after), so the engine never finds half of it.
 */
export function installPlugin(pulumiHome: string, sources: PluginSources = {}): string {
  const target = pluginCacheDir(pulumiHome);
  const suffix = `${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  // Hidden names: `pulumi plugin ls` reads every directory of the cache named like a plugin.
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.installing-${suffix}`);
  const previous = path.join(path.dirname(target), `.${path.basename(target)}.previous-${suffix}`);
  try {
    layOutPlugin(staging, sources);
    if (fs.existsSync(target)) fs.renameSync(target, previous);
    fs.renameSync(staging, target);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(previous, { recursive: true, force: true });
  }
  return path.join(target, PLUGIN);
}

function install(argv: readonly string[], io: Io): number {
  let pulumiHome = io.env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--pulumi-home" && argv[i + 1]) pulumiHome = path.resolve(argv[++i]);
    else {
      io.stderr(`cdnstream plugin install: unknown argument "${argv[i]}"\n\n${HELP}`);
      return EXIT.usage;
    }
  }
  if (!fs.existsSync(pluginMain)) {
    io.stderr(`cdnstream plugin install: ${pluginMain} is missing: this package is not built (run \`npm run build\`).`);
    return EXIT.failed;
  }
  try {
    io.stdout(`installed ${PLUGIN} v${version} at ${installPlugin(pulumiHome)}`);
    return EXIT.ok;
  } catch (err) {
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
