/**
 * A Pulumi project directory run as an inline program of the Automation API, the way the Node.js
 * runtime of @pulumi/pulumi runs it (`@pulumi/pulumi/cmd/run`, started by the language host
 * `pulumi-language-nodejs` as `node <nodeargs> cmd/run --pwd <dir> <entry>`).
 *
 * Why inline: this repository's engine build may lack the language host (docs/engine.md); the
 * Automation API hosts the language runtime in-process, so the program is loaded here, doing what
 * cmd/run does before ({@link prepareRuntime}) and while ({@link projectProgram}) it loads it
 * (cmd/run itself would start the runtime and root stack again). These SDK modules are internal:
 * test/e2e/drift-project-shapes.test.ts runs every project shape against the installed SDK.
 */
import * as fs from "node:fs";
import { register } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { fromSdk, programLocation, readProject, type ProgramLocation, type ProjectSettings } from "./project-settings";

export { programLocation, projectName, readProject } from "./project-settings";

// The SDK's runtime helpers: internal modules, without published types.
interface TsUtils {
  loadTypeScriptCompilerOptions(tsConfigPath: string): Record<string, unknown>;
  typeScriptRequireStrings(): { tsnodeRequire: string; typescriptRequire: string };
}
interface Manifest {
  searchupPackageManifest(startDir: string): string | undefined;
  readPackageManifest(dir: string): { data: PackageObject; path: string };
}
interface PackageObject {
  type?: string;
  main?: string;
  exports?: string | Record<string, string | { default?: string; require?: string; import?: string }>;
  scripts?: Record<string, string>;
  dependencies?: object;
  devDependencies?: object;
}
interface SemverLike {
  parse(v: string): { compare(other: string): number } | null;
}

const tsutils = () => require("@pulumi/pulumi/tsutils") as TsUtils;
const manifest = () => require("@pulumi/pulumi/runtime/manifest") as Manifest;
const log = () => require("@pulumi/pulumi/log") as { warn(message: string): Promise<void> };

let prepared: string | undefined;

/**
 * Makes this process what cmd/run makes of its own before loading the program, the language host's
 * environment first: PULUMI_NODEJS_TYPESCRIPT=true unless `typescript: false`,
 * PULUMI_NODEJS_TSCONFIG_PATH from `tsconfig`, else the caller's. ts-node registration is
 * process-wide, so a second, different project in this process is refused.
 */
export function prepareRuntime(settings: ProjectSettings): void {
  const location = programLocation(settings);
  if (prepared !== undefined) {
    if (prepared === settings.file) return;
    throw new Error(
      `this process already runs the project of ${prepared}; run ${settings.file} in a process of its own`,
    );
  }
  prepared = settings.file;
  process.chdir(location.programDir);
  if (settings.typescript) process.env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (settings.tsconfig !== undefined) process.env.PULUMI_NODEJS_TSCONFIG_PATH = settings.tsconfig;
  if (process.env.PULUMI_NODEJS_TYPESCRIPT === "true") registerTypeScript(settings, location);
}

/** cmd/run/run.js, "If this is a typescript project", decision for decision; paths relative to the program's directory. */
function registerTypeScript(settings: ProjectSettings, location: ProgramLocation): void {
  const sdk = fromSdk();
  const defaultTsConfigPath = "tsconfig.json";
  const tsConfigPath = process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? defaultTsConfigPath;
  // Without a tsconfig.json, ts-node gets the runtime's defaults instead of searching upwards.
  const skipProject = !fs.existsSync(tsConfigPath);
  if (skipProject && tsConfigPath !== defaultTsConfigPath) {
    throw new Error(
      `${settings.file}: runtime.options.tsconfig (or PULUMI_NODEJS_TSCONFIG_PATH) names "${tsConfigPath}", which is not in ${location.programDir}`,
    );
  }
  const compilerOptions = tsutils().loadTypeScriptCompilerOptions(tsConfigPath);
  // Type-check unless PULUMI_NODEJS_TRANSPILE_ONLY=true or the tsconfig says `noCheck`.
  const transpileOnlyEnv = process.env.PULUMI_NODEJS_TRANSPILE_ONLY;
  const transpileOnly = transpileOnlyEnv ? transpileOnlyEnv === "true" : compilerOptions.noCheck;
  // The project's typescript and ts-node when it has them, else the copies the SDK vendors.
  const { tsnodeRequire, typescriptRequire } = tsutils().typeScriptRequireStrings();
  const isModule = packageOf(path.resolve(location.programDir, location.entryPoint)).data.type === "module";
  const tsVersion = (sdk("semver") as SemverLike).parse((sdk(typescriptRequire) as { version: string }).version);
  const hasLoaders = process.execArgv.some((arg) => arg === "--loader" || arg === "--import" || arg === "--require");
  let tsNodeEsm: string | undefined;
  try {
    tsNodeEsm = sdk.resolve("ts-node/esm");
  } catch {
    // Only recent ts-node has ESM hooks; the vendored 7.0.1 does not.
  }
  const useEsmHooks = isModule && tsVersion && tsVersion.compare("4.7.0") > 0 && !hasLoaders && tsNodeEsm;
  const useNodeNext = tsVersion !== null && tsVersion.compare("4.7.0") >= 0;
  const options = {
    compiler: typescriptRequire,
    transpileOnly,
    project: tsConfigPath,
    skipProject,
    compilerOptions: {
      target: useEsmHooks ? "ES2022" : "ES2020",
      module: useNodeNext ? "nodenext" : "commonjs",
      moduleResolution: useNodeNext ? "nodenext" : "node",
      sourceMap: "true",
      ...compilerOptions,
    },
  };
  if (useEsmHooks)
    register(pathToFileURL(sdk.resolve("./cmd/run/hooks.js")).href, pathToFileURL(__filename), { data: options });
  else (sdk(tsnodeRequire) as { register(options: unknown): void }).register(options);
}

/**
 * The package.json (or package.yaml) above `program`, read best effort as cmd/run reads it, and its
 * directory; without one, the program's own directory.
 */
function packageOf(program: string): { root: string; data: PackageObject } {
  const dir = fs.existsSync(program) && fs.statSync(program).isDirectory() ? program : path.dirname(program);
  const found = manifest().searchupPackageManifest(dir);
  const root = found === undefined ? dir : path.dirname(found);
  try {
    return { root, data: manifest().readPackageManifest(root).data ?? {} };
  } catch {
    return { root, data: {} };
  }
}

/** With no `main` in Pulumi.yaml: package.json `exports`, then `main`, each only if the file exists. */
function entryOfPackage(program: string, root: string, packageObject: PackageObject): string {
  const exportsField = packageObject.exports;
  // `exports` wins over `main` even when it names no entry for ".".
  const dot = typeof exportsField === "object" ? exportsField["."] : exportsField;
  const entry =
    typeof dot === "object"
      ? (dot.default ?? dot.require ?? dot.import)
      : exportsField === undefined
        ? packageObject.main
        : dot;
  if (!entry) return program;
  const file = path.join(root, entry);
  if (fs.existsSync(file)) return file;
  void log().warn(`Could not find entry point '${entry}' specified in package.json; using '${program}' instead`);
  return program;
}

/**
 * Requires `main` afresh on every run, as the language host does in a new process each time: else
 * a program declaring resources at top level registers nothing on its second run in this process,
 * and the engine plans to delete everything. Only modules the program itself loaded are forgotten,
 * never ones loaded before it (this runner's own, when the project directory holds them). `require`
 * is synchronous, so runs of several stacks at once cannot interleave inside it.
 */
const loadedByProgram = new Map<string, Set<string>>();

function requireFresh(main: string): unknown {
  const loaded = loadedByProgram.get(main) ?? new Set<string>();
  loadedByProgram.set(main, loaded);
  for (const key of [main, ...loaded]) delete require.cache[key];
  loaded.clear();
  const before = new Set(Object.keys(require.cache));
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the user's program, by its path, afresh
    return require(main);
  } finally {
    for (const key of Object.keys(require.cache)) {
      if (!before.has(key) && !key.includes(`${path.sep}node_modules${path.sep}`)) loaded.add(key);
    }
  }
}

// A real dynamic import: compiled to CommonJS, `import()` would become `require`.
const dynamicImport = new Function("specifier", "return import(specifier)") as (
  specifier: string,
) => Promise<Record<string, unknown>>;

/** An ES module project's entry, as cmd/run imports it: a directory's index, and the default export or the named ones. */
async function importEntry(program: string): Promise<unknown> {
  let entry = fs.realpathSync(program);
  if (fs.statSync(entry).isDirectory()) {
    const index = ["index.js", "index.mjs", "index.ts", "index.mts"].find((name) =>
      fs.existsSync(path.join(entry, name)),
    );
    if (!index) throw new Error(`No entrypoint found in ${entry}`);
    entry = path.join(entry, index);
  }
  const loaded = await dynamicImport(pathToFileURL(entry).href);
  if (Object.getOwnPropertyDescriptor(loaded, "default") === undefined) return loaded;
  if (Object.keys(loaded).length !== 1)
    throw new Error("expected entrypoint module to have either a default export or named exports but not both");
  return loaded.default;
}

/** The top-level module itself is missing (not one it requires): say what to do, as cmd/run does. */
function missingEntryError(program: string, error: Error, packageObject: PackageObject): Error {
  const missing = /Cannot find module '(.*)'/.exec(error.message)?.[1];
  if (missing !== program && missing !== program.replace(/\/$/, "")) return error;
  const build = packageObject.scripts?.build;
  const advice = build
    ? `The project has a build script ('${build}'): run \`npm run build\` first, or name the TypeScript entry in Pulumi.yaml (\`main: index.ts\`), which is compiled on the fly.`
    : "typescript" in (packageObject.dependencies ?? {}) || "typescript" in (packageObject.devDependencies ?? {})
      ? "It looks like a TypeScript program: compile it with `tsc`, or name the TypeScript entry (`main: index.ts`), which is compiled on the fly."
      : "Check `main` in Pulumi.yaml and package.json.";
  return new Error(`We failed to locate the entry point for your program: ${program}. ${advice}`);
}

/**
 * The program of a Pulumi project directory, run the way the Node.js language host runs it.
 * TypeScript entries need {@link prepareRuntime} in this process first (the drift worker does it;
 * under jest, its transform compiles them).
 */
export function projectProgram(projectDir: string): PulumiFn {
  const settings = readProject(projectDir);
  return async () => {
    const location = programLocation(settings);
    let program = path.resolve(location.programDir, location.entryPoint);
    const { root, data: packageObject } = packageOf(program);
    if (location.entryPoint === ".") program = entryOfPackage(program, root, packageObject);
    let exported: unknown;
    try {
      if (packageObject.type === "module") {
        exported = await importEntry(program);
      } else {
        // A directory is required as one (its package.json main or index), never as an adjacent file.
        if (fs.statSync(program).isDirectory() && !program.endsWith(path.sep)) program += path.sep;
        exported = requireFresh(program);
      }
    } catch (e) {
      if (e instanceof Error && (e as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND")
        throw missingEntryError(program, e, packageObject);
      throw e;
    }
    const dir = program.endsWith(path.sep) ? program : undefined;
    if (dir && fs.existsSync(path.join(dir, "index.js")) && fs.existsSync(path.join(dir, "index.ts"))) {
      void log().warn(
        "Found a TypeScript project containing an index.js file and no explicit entrypoint in Pulumi.yaml - Pulumi will use index.js",
      );
    }
    // An exported function (an ES module's default export) is called and awaited; anything else is
    // the outputs (cmd/run does not unwrap `default` of CommonJS).
    const outputs = typeof exported === "function" ? await (exported as () => unknown)() : exported;
    return outputs as Record<string, unknown> | void;
  };
}
