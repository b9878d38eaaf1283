/**
 * A Pulumi project's settings file (Pulumi.yaml), read the way Pulumi reads it, without a `pulumi`
 * process, and checked for what running its program needs, each setting meaning what it means to
 * the Node.js language host (pulumi-language-nodejs).
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { splitShellWords } from "./shell-words";

/** What a Pulumi.yaml says about running its Node.js program. */
export interface ProjectSettings {
  name: string;
  /** The settings file that was read. */
  file: string;
  /** The project directory: the one holding the settings file. */
  root: string;
  /** `main:` as an absolute path, when given. Without it the package.json of the project decides. */
  main?: string;
  /** `runtime.options.typescript`: compile `.ts` modules on the fly. Default true. */
  typescript: boolean;
  /** `runtime.options.tsconfig`: the TypeScript settings file, relative to the program's directory. */
  tsconfig?: string;
  /** `runtime.options.nodeargs`, split into words as the language host splits them. */
  nodeargs: string[];
}

/** Where the program runs and what it loads there, as the engine hands them to the language host. */
export interface ProgramLocation {
  programDir: string;
  /** The module to load, relative to `programDir`; "." for the directory itself (its package.json decides). */
  entryPoint: string;
}

// LocalWorkspace's order (automation/localWorkspace.js, `settingsExtensions`).
const SETTINGS_FILES = ["Pulumi.yaml", "Pulumi.yml", "Pulumi.json"];

/** Resolves modules as code inside @pulumi/pulumi does (cmd/run's `require` of typescript, ts-node, semver). */
export const fromSdk = () => createRequire(require.resolve("@pulumi/pulumi/package.json"));

interface YamlParser {
  load(text: string, options: { schema: unknown; filename: string }): unknown;
  DEFAULT_SAFE_SCHEMA?: unknown;
  DEFAULT_SCHEMA: unknown;
}

/**
 * The file parsed by the installed SDK's js-yaml, as its Automation API reads project settings
 * (`LocalWorkspace.projectSettings()`). The safe schema is DEFAULT_SAFE_SCHEMA in js-yaml 3 (SDK
 * 3.246, where DEFAULT_SCHEMA can build functions), DEFAULT_SCHEMA in js-yaml 4.
 */
function parseYaml(text: string, file: string): unknown {
  const yaml = fromSdk()("js-yaml") as YamlParser;
  return yaml.load(text, { schema: yaml.DEFAULT_SAFE_SCHEMA ?? yaml.DEFAULT_SCHEMA, filename: file });
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const shown = (v: unknown) => (typeof v === "string" ? `"${v}"` : JSON.stringify(v));

/** The project's settings file in `dir`, found as Pulumi finds it; undefined when there is none. */
export function settingsFileIn(dir: string): string | undefined {
  return SETTINGS_FILES.map((name) => path.join(dir, name)).find((f) => fs.existsSync(f));
}

/** The settings file of `projectDir`, parsed, with the name and runtime every project has. */
function readSettingsDocument(projectDir: string) {
  const root = path.resolve(projectDir);
  const file = settingsFileIn(root) ?? path.join(root, SETTINGS_FILES[0]!);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(
      `${file}: cannot read the project file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); --cwd must be a Pulumi project directory`,
    );
  }
  let doc: unknown;
  try {
    doc = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text, file);
  } catch (e) {
    throw new Error(
      `${file} is not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(e as Error).message.split("\n")[0]}`,
    );
  }
  if (!isRecord(doc))
    throw new Error(`${file} must hold the project's settings as a mapping (name:, runtime:, ...), not ${shown(doc)}`);

  if (typeof doc.name !== "string" || !doc.name.trim())
    throw new Error(`${file} has no name: add \`name: <project name>\` (a non-empty string)`);
  const runtime = doc.runtime;
  const runtimeName = isRecord(runtime) ? runtime.name : runtime;
  if (runtimeName === undefined) throw new Error(`${file} has no runtime: add \`runtime: nodejs\``);
  if (typeof runtimeName !== "string" || !runtimeName.trim())
    throw new Error(`${file}: runtime must be a language such as nodejs, yaml or python, not ${shown(runtimeName)}`);
  return { file, root, doc, name: doc.name, runtime, runtimeName };
}

/** The runtime a project declares (`nodejs`, `yaml`, ...); throws like {@link readProject} on a bad file. */
export function projectRuntime(projectDir: string): string {
  return readSettingsDocument(projectDir).runtimeName;
}

/**
 * Reads and checks the project settings of `projectDir` for running its program inline on Node.js.
 * Throws an Error naming the file, the setting, the rule and the fix (another runtime included).
 */
export function readProject(projectDir: string): ProjectSettings {
  const { file, root, doc, runtime, runtimeName } = readSettingsDocument(projectDir);
  if (runtimeName !== "nodejs") {
    throw new Error(
      `${file}: runtime is ${shown(runtimeName)}; only nodejs projects can be run inline: \`cdnstream drift\` runs the program itself, on Node.js. ` +
        "For a project in another language, `pulumi preview --refresh --expect-no-changes --stack <name>` reports drift without writing the state.",
    );
  }
  const options = isRecord(runtime) ? (runtime.options ?? {}) : {};
  if (!isRecord(options))
    throw new Error(
      `${file}: runtime.options must be a mapping (typescript:, tsconfig:, nodeargs:), not ${shown(options)}`,
    );
  // The language host's own checks (pulumi-language-nodejs `parseOptions`), with the file named.
  const { typescript = true, tsconfig, nodeargs = "" } = options;
  if (typeof typescript !== "boolean")
    throw new Error(`${file}: runtime.options.typescript must be true or false, not ${shown(typescript)}`);
  if (tsconfig !== undefined && typeof tsconfig !== "string")
    throw new Error(
      `${file}: runtime.options.tsconfig must be a file name such as "tsconfig.json", not ${shown(tsconfig)}`,
    );
  if (typeof nodeargs !== "string")
    throw new Error(
      `${file}: runtime.options.nodeargs must be one string of node options, such as "--max-old-space-size=4096", not ${shown(nodeargs)}`,
    );
  let words: string[];
  try {
    words = splitShellWords(nodeargs);
  } catch (e) {
    throw new Error(`${file}: runtime.options.nodeargs cannot be split into words: ${(e as Error).message}`);
  }

  const settings: ProjectSettings = { name: doc.name as string, file, root, typescript, nodeargs: words };
  if (tsconfig !== undefined) settings.tsconfig = tsconfig;
  if (doc.main !== undefined) {
    if (typeof doc.main !== "string" || !doc.main.trim())
      throw new Error(`${file}: main must be a path such as "index.ts" or "bin/index.js", not ${shown(doc.main)}`);
    // The engine's rules (`getPwdMain`): relative, and inside the project directory.
    if (path.isAbsolute(doc.main))
      throw new Error(
        `${file}: main must be a path relative to the project directory, not the absolute ${shown(doc.main)}`,
      );
    const main = path.resolve(root, doc.main);
    if (main !== root && !main.startsWith(root + path.sep))
      throw new Error(`${file}: main must be inside the project directory, but ${shown(doc.main)} is outside it`);
    settings.main = main;
  }
  return settings;
}

/** The project name declared in the settings file of `projectDir`, whatever its runtime. */
export function projectName(projectDir: string): string {
  return readSettingsDocument(projectDir).name;
}

/**
 * The program's directory and entry, as the engine computes them from `main` (`getPwdMain`).
 * Throws when `main` does not exist, saying how to make it.
 */
export function programLocation(settings: ProjectSettings): ProgramLocation {
  if (settings.main === undefined) return { programDir: settings.root, entryPoint: "." };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(settings.main);
  } catch (e) {
    throw new Error(
      `${settings.file}: main ${shown(path.relative(settings.root, settings.main))} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). ${missingMainAdvice(settings)}`,
    );
  }
  return stat.isDirectory()
    ? { programDir: settings.main, entryPoint: "." }
    : { programDir: path.dirname(settings.main), entryPoint: path.basename(settings.main) };
}

/** What to do about a `main` that is not there: build it, or let TypeScript run uncompiled. */
function missingMainAdvice(settings: ProjectSettings): string {
  let script: unknown;
  try {
    script = JSON.parse(fs.readFileSync(path.join(settings.root, "package.json"), "utf8")).scripts.build;
  } catch {
    // No package.json, or no scripts in it: the advice below is all there is to say.
  }
  const build = typeof script === "string" ? `Build it first (\`npm run build\` runs ${shown(script)})` : "Create it";
  if (!settings.typescript) return `${build}, or point main at the program's entry.`;
  return `${build}, or point main at the TypeScript entry (e.g. \`main: index.ts\`, or no main and package.json "main": "index.ts"): TypeScript is compiled on the fly.`;
}
