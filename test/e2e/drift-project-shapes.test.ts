/**
 * `cdnstream drift` on the project shapes users have, each run as the Node.js runtime of
 * @pulumi/pulumi runs it (provider/cli/project.ts): the layout `pulumi new typescript` writes
 * (no `main`, package.json "main": "index.ts", its strict tsconfig, no build step), `main: index.ts`
 * with runtime options (`nodeargs`, `tsconfig`), a compiled `main: bin/index.js`, and a `main` that
 * is a directory whose package.json names its entry, an ES module, with `typescript: false`.
 * (A plain JavaScript index.js with no `main` is test/e2e/drift.test.ts.)
 *
 * Per shape: `up` in a process of its own started like the language host starts a program (node
 * with the project's nodeargs, in the program's directory), then the installed package's
 * `cdnstream` as a pipeline runs it: no drift (exit 0), then a change made in the "dashboard" and
 * drift found (exit 2, naming the property). One emulator for all shapes, reset between them;
 * three engine runs per shape, the fewest that show both outcomes.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";
import { readProject } from "../../provider/cli/project";
import { engineEnv, repoRoot } from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";
import { upNodeProject } from "../helpers/node-project";
import { installedPackageDir } from "../helpers/package";
import { PULUMI_NEW_TSCONFIG } from "../helpers/pulumi-new";

const cli = path.join(installedPackageDir, "dist", "provider", "cli", "index.js");
const STREAM = 3001;

/** Files of each shape, by path relative to the project directory. */
const shapes: Record<string, Record<string, string>> = {
  "pulumi new typescript (no main, package.json main index.ts, no build step)": {
    "Pulumi.yaml": [
      "name: shape-new-typescript",
      "description: A minimal TypeScript Pulumi program",
      "runtime:",
      "  name: nodejs",
      "  options:",
      "    packagemanager: npm",
      "config:",
      "  pulumi:tags:",
      "    value:",
      "      pulumi:template: typescript",
      "",
    ].join("\n"),
    "package.json": JSON.stringify({
      name: "shape-new-typescript",
      main: "index.ts",
      devDependencies: { typescript: "^5.0.0" },
      dependencies: { "@pulumi/pulumi": "^3.246.0", "pulumi-cdnstream": "^0.1.0" },
    }),
    "tsconfig.json": JSON.stringify(PULUMI_NEW_TSCONFIG),
    // Top-level declarations, as the template's program has them.
    "index.ts": `import * as pulumi from "@pulumi/pulumi";
import * as cdn from "pulumi-cdnstream";

const config = new pulumi.Config();
const status = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: ${STREAM}, disabled: config.getBoolean("disabled") ?? false });
export const streamId: pulumi.Output<string> = status.id;
`,
  },
  "main: index.ts with runtime options nodeargs and tsconfig": {
    "Pulumi.yaml": [
      "name: shape-main-index-ts",
      "runtime:",
      "  name: nodejs",
      "  options:",
      '    nodeargs: "--require ./preload.js"',
      "    tsconfig: tsconfig.pulumi.json",
      "main: index.ts",
      "",
    ].join("\n"),
    "package.json": JSON.stringify({ name: "shape-main-index-ts" }),
    "preload.js": `globalThis.cdnstreamStreamId = ${STREAM};\n`,
    // noCheck: ts-node only transpiles, as the runtime decides from this file (and only this one).
    "tsconfig.pulumi.json": JSON.stringify({
      compilerOptions: { strict: true, noCheck: true, target: "es2020", module: "commonjs", moduleResolution: "node" },
    }),
    "index.ts": `import * as cdn from "pulumi-cdnstream";

// Set by ./preload.js, which runtime.options.nodeargs loads before the program.
declare const cdnstreamStreamId: number | undefined;
if (typeof cdnstreamStreamId !== "number") throw new Error("preload.js did not run: runtime.options.nodeargs was not honoured");
// A type error that only a type check finds: this runs only if tsconfig.pulumi.json (noCheck) is the one used.
const unchecked: number = "not type-checked" as string;

export = async () => {
  const status = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: cdnstreamStreamId, disabled: false });
  return { streamId: status.id, unchecked };
};
`,
  },
  "compiled (main: bin/index.js, built by tsc)": {
    "Pulumi.yaml": "name: shape-compiled\nruntime: nodejs\nmain: bin/index.js\n",
    "package.json": JSON.stringify({ name: "shape-compiled", scripts: { build: "tsc" } }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { ...PULUMI_NEW_TSCONFIG.compilerOptions, skipLibCheck: true },
      files: ["index.ts"],
    }),
    "index.ts": `import * as cdn from "pulumi-cdnstream";

export = async () => {
  const status = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: ${STREAM}, disabled: false });
  return { streamId: status.id };
};
`,
  },
  "main: a directory whose package.json names an ES module entry, typescript: false": {
    "Pulumi.yaml": "name: shape-directory\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: app\n",
    "package.json": JSON.stringify({ name: "shape-directory" }),
    "app/package.json": JSON.stringify({
      name: "shape-directory-app",
      private: true,
      type: "module",
      main: "program.js",
    }),
    "app/program.js": `import cdn from "pulumi-cdnstream";
import { fileURLToPath } from "node:url";
import * as path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
// The program runs in its own directory, as the engine places it, and without ts-node.
if (process.cwd() !== here) throw new Error("the program runs in " + process.cwd() + ", not in " + here);
if (process.env.PULUMI_NODEJS_TYPESCRIPT === "true") throw new Error("TypeScript is on although runtime.options.typescript is false");

export default async () => {
  const status = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: ${STREAM}, disabled: false });
  return { streamId: status.id };
};
`,
  },
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One engine command or drift run on a small project: seconds; its deadline stays inside the test's. */
async function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  const {
    status: code,
    stdout,
    stderr,
  } = await runCommand(command, args, {
    ...options,
    deadlineMs: 4 * 60_000,
    allowFailure: true,
  });
  return { code, stdout, stderr };
}

describe("cdnstream drift on each project shape", () => {
  let emulator: TestEmulator;
  let base: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    base = path.join(repoRoot, ".tmp", "e2e", `shapes-${crypto.randomBytes(6).toString("hex")}`);
    fs.mkdirSync(path.join(base, "backend"), { recursive: true });
    // What a pipeline sets: backend, passphrase, the key, PATH with the engine (from global setup).
    env = { ...process.env, ...engineEnv(base), CDNSTREAM_API_KEY: emulator.apiKey };
  });
  afterEach(async () => {
    await fetch(`${emulator.url}/__emulator/reset`, { method: "POST" });
  });
  afterAll(async () => {
    await emulator?.close();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  /**
   * `up` of a new stack `dev` as `pulumi up` would run the program: node started with the
   * project's nodeargs in the program's directory, the runtime prepared, the program inline.
   */
  async function up(dir: string): Promise<void> {
    expect(await upNodeProject(dir, { stack: "dev", baseUrl: emulator.url, env })).toEqual({ create: 2 });
  }

  /** The installed package's `cdnstream drift`, from the project directory, as a pipeline runs it. */
  async function drift(dir: string): Promise<Run & { json: any }> {
    const json = path.join(dir, "drift.json");
    fs.rmSync(json, { force: true });
    const r = await run(
      process.execPath,
      [cli, "drift", "--stack", "dev", "--json", json, "--markdown", path.join(dir, "drift.md")],
      { cwd: dir, env },
    );
    expect(r.stdout + r.stderr + fs.readFileSync(json, "utf8")).not.toContain(emulator.apiKey);
    return { ...r, json: JSON.parse(fs.readFileSync(json, "utf8")) };
  }

  it.each(Object.keys(shapes))("%s: no drift (exit 0), then drift naming the property (exit 2)", async (shape) => {
    const dir = path.join(base, shape.replace(/[^a-z0-9]+/gi, "-").slice(0, 40));
    for (const [file, text] of Object.entries(shapes[shape]!)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    if (shape.startsWith("compiled"))
      await runCommand(process.execPath, [path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", dir], {
        deadlineMs: 3 * 60_000,
      });
    expect(fs.existsSync(path.join(dir, "bin"))).toBe(shape.startsWith("compiled"));

    await up(dir);

    const clean = await drift(dir);
    expect(clean.stderr).toMatch(/cdnstream drift: dev: no drift \(\d+\.\ds\)/);
    expect(clean.code).toBe(0);
    expect(clean.json).toEqual({
      stacks: [
        {
          stack: "dev",
          cwd: dir,
          drifted: false,
          resources: [],
          checkpoint: { written: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        },
      ],
      drifted: false,
    });
    expect(clean.stdout).toMatch(/^## No drift\n/);

    await emulator.mutate("pushStreams", STREAM, { disabled: "1" });
    const found = await drift(dir);
    expect(found.stderr).toMatch(/cdnstream drift: dev: drift in main-event\.\{disabled\} \(\d+\.\ds\)/);
    expect(found.code).toBe(2);
    const project = readProject(dir).name;
    expect(found.json.stacks[0].resources).toEqual([
      {
        urn: `urn:pulumi:dev::${project}::pulumi-nodejs:dynamic/cdnstream:StreamStatus::main-event`,
        name: "main-event",
        type: "pulumi-nodejs:dynamic/cdnstream:StreamStatus",
        deleted: false,
        properties: [{ property: "disabled", recorded: false, live: true }],
      },
    ]);
    expect(found.stdout).toContain("| `main-event` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` |");
  });
});
