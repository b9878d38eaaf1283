/**
 * `cdnstream plugin install|path`: puts the provider plugin `pulumi-resource-cdnstream` where the
 * Pulumi CLI looks for it, so YAML, Python and Go programs (and `pulumi import`) find it the way
 * Pulumi users expect, and `pulumi plugin ls` lists it.
 *
 * The plugin cache holds one directory per plugin and version, `resource-<name>-v<version>`,
 * under `$PULUMI_HOME/plugins` (`~/.pulumi/plugins` by default) with the executable inside.
 * Ours is a launcher of this installed package's plugin (dist/provider/plugin/main.js) through
 * `node`, so it runs with this package's dependencies; installing again after an upgrade or a
 * move of the project replaces it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageRoot, packageVersion as version } from "../package-info";
import { EXIT, type Command, type Io } from "./command";

const PLUGIN = "pulumi-resource-cdnstream";
const pluginMain = path.join(packageRoot, "dist", "provider", "plugin", "main.js");

const HELP = `Usage: cdnstream plugin install [--pulumi-home DIR]
       cdnstream plugin path

  install   Installs ${PLUGIN} v${version} into the Pulumi plugin cache
            ($PULUMI_HOME/plugins, by default ~/.pulumi/plugins), where the Pulumi CLI finds it
            for YAML, Python and Go programs and \`pulumi import\`; \`pulumi plugin ls\` lists it.
            It runs this installed package's plugin with \`node\` (Node.js >= 20.18.1 on PATH);
            run it again after upgrading or moving the package.
  path      Prints the plugin's executable in this package, for a PATH entry instead.`;

/** The plugin cache directory of this release: `<pulumi home>/plugins/resource-cdnstream-v<version>`. */
export function pluginCacheDir(pulumiHome: string): string {
  return path.join(pulumiHome, "plugins", `resource-cdnstream-v${version}`);
}

/**
 * Writes `pulumi-resource-cdnstream` into `dir`: a launcher running the plugin at `main` with the
 * `node` on PATH. The one place this text is written: the plugin cache install below, the tests'
 * PATH entry and the bench's. The file is replaced whole (written beside, then renamed), so an
 * engine starting the plugin meanwhile never runs half of it. Returns the launcher's path.
 */
export function writePluginLauncher(dir: string, main: string = pluginMain): string {
  const launcher = path.join(dir, PLUGIN);
  const text = `#!/bin/sh\nexec node "${main}" "$@"\n`;
  if (fs.existsSync(launcher) && fs.readFileSync(launcher, "utf8") === text) return launcher;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(`${launcher}.tmp-${process.pid}`, text, { mode: 0o755 });
  fs.renameSync(`${launcher}.tmp-${process.pid}`, launcher);
  return launcher;
}

/** Writes the launcher into the plugin cache, whole or not at all (a directory renamed into place). */
export function installPlugin(pulumiHome: string): string {
  const target = pluginCacheDir(pulumiHome);
  const staging = `${target}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  writePluginLauncher(staging);
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(staging, target);
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
  const installed = installPlugin(pulumiHome);
  io.stdout(`installed ${PLUGIN} v${version} at ${installed}`);
  return EXIT.ok;
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
