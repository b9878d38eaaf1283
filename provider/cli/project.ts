/**
 * A Pulumi project directory run as an inline program of the Automation API.
 *
 * Why inline: the Node.js language host (`pulumi-language-nodejs`) is a separate program that a
 * standard Pulumi installation ships but that this repository's engine build may lack (README,
 * "The engine"). The Automation API hosts the language runtime in-process instead and hands the
 * CLI its address (`--client`), so loading the project's `main` module from an inline program
 * runs the project the same way wherever `pulumi` itself runs.
 *
 * The project's program must be JavaScript: a TypeScript project is compiled first and its
 * Pulumi.yaml `main` names the compiled entry (e.g. `main: dist/index.js`), as in the root
 * Pulumi.yaml of this repository.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";

/** What the runner needs from a Pulumi.yaml. */
export interface ProjectSettings {
  name: string;
  runtime: string;
  /** The entry module, absolute. */
  main: string;
}

/**
 * A top-level scalar of a Pulumi.yaml (`key: value`, optionally quoted). A YAML parser would be
 * a new dependency; the three keys read here are plain top-level scalars in every Pulumi.yaml.
 */
function scalar(yaml: string, key: string): string | undefined {
  const match = new RegExp(`^${key}:[ \\t]*(?:"([^"]*)"|'([^']*)'|([^\\s#][^#\\r\\n]*?))[ \\t]*(?:#.*)?$`, "m").exec(yaml);
  const value = match?.[1] ?? match?.[2] ?? match?.[3];
  return value === undefined || value === "" ? undefined : value;
}

/** Reads `name`, `runtime` and `main` (default: the directory's index.js). Throws with the file named. */
export function readProject(projectDir: string): ProjectSettings {
  const file = path.join(projectDir, "Pulumi.yaml");
  let yaml: string;
  try {
    yaml = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`${file}: cannot read the project file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); --cwd must be a Pulumi project directory`);
  }
  const name = scalar(yaml, "name");
  if (!name) throw new Error(`${file} has no name`);
  // `runtime` may be a mapping (`runtime: {name: nodejs, options: …}`); only its name matters here.
  const runtime = scalar(yaml, "runtime") ?? /^runtime:\s*\n\s+name:\s*(\S+)/m.exec(yaml)?.[1] ?? "";
  if (runtime !== "nodejs") throw new Error(`${file}: runtime is "${runtime}"; only nodejs projects can be run inline`);
  return { name, runtime, main: path.resolve(projectDir, scalar(yaml, "main") ?? "index.js") };
}

/** The project name declared in a Pulumi.yaml. */
export function projectName(projectDir: string): string {
  return readProject(projectDir).name;
}

/**
 * Requires `main` afresh on every run, as the language host does in a new process each time.
 * Without it, a program that declares resources at module top level would register nothing on
 * its second run in this process (a second stack, or up-then-preview in a test) and the engine
 * would plan to delete everything. Only the modules the program itself loaded are forgotten
 * (never libraries loaded before it, nor this runner's own modules when the project directory
 * contains them, as the repository root does). `require` evaluates synchronously, so runs of
 * several stacks at once cannot interleave inside it.
 */
const loadedByProgram = new Map<string, Set<string>>();

function requireFresh(main: string): unknown {
  const loaded = loadedByProgram.get(main) ?? new Set<string>();
  loadedByProgram.set(main, loaded);
  for (const key of [main, ...loaded]) delete require.cache[key];
  loaded.clear();
  const before = new Set(Object.keys(require.cache));
  try {
    return require(main);
  } finally {
    for (const key of Object.keys(require.cache)) {
      if (!before.has(key) && !key.includes(`${path.sep}node_modules${path.sep}`)) loaded.add(key);
    }
  }
}

/**
 * The program of a Pulumi project directory, run the way the Node.js language host runs it: the
 * module named by `main` in Pulumi.yaml; an exported function (or default export) is called
 * and its result becomes the stack outputs, otherwise the module's exports are.
 */
export function projectProgram(projectDir: string): PulumiFn {
  const { main } = readProject(projectDir);
  return async () => {
    const loaded = requireFresh(main) as { default?: unknown } | undefined;
    const program = loaded?.default ?? loaded;
    return typeof program === "function" ? await program() : program;
  };
}
