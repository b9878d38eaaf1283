/**
 * `cdnstream drift` end to end: a Pulumi project directory (plain JavaScript, requiring the
 * packed package by name) deployed through the Automation API, then the built command run as a
 * child process with the environment a pipeline would give it, against the emulator.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "../../scripts/child";
import {
  createTestStack,
  engineEnv,
  projectProgram,
  repoRoot,
  TestStack,
  ENGINE_COMMAND_DEADLINE_MS,
} from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";

const cli = path.join(repoRoot, "dist", "provider", "cli", "index.js");

// What a user's project holds. The package.json matters: without one, the nearest package scope
// would be this repository's, whose name makes `require("pulumi-cdnstream")` a self-reference
// to the sources instead of the installed package in node_modules.
const project = {
  "Pulumi.yaml": "name: drift-e2e\nruntime: nodejs\ndescription: two stream statuses, checked for drift\n",
  "package.json": JSON.stringify({ name: "drift-e2e", private: true }),
  "index.js": `const pulumi = require("@pulumi/pulumi");
const cdn = require("pulumi-cdnstream");
module.exports = () => {
  const disabled = new pulumi.Config("drift-e2e").getBoolean("disabled") ?? false;
  const main = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: 3001, disabled });
  const studio = new cdn.StreamStatus("studio-b", { streamKind: "push", streamId: 3002, disabled });
  return { ids: [main.id, studio.id] };
};
`,
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
  markdown: string;
}

describe("cdnstream drift", () => {
  let emulator: TestEmulator;
  let dir: string;
  let a: TestStack;
  let b: TestStack | undefined;
  let env: Record<string, string>;

  /** The built command as a pipeline runs it; asynchronous, so the in-process emulator keeps answering. */
  async function drift(...args: string[]): Promise<Run> {
    const json = path.join(dir, "report.json");
    const markdown = path.join(dir, "report.md");
    fs.rmSync(json, { force: true });
    fs.rmSync(markdown, { force: true });
    const {
      status: code,
      stdout,
      stderr,
    } = await run(process.execPath, [cli, "drift", "--cwd", dir, "--json", json, "--markdown", markdown, ...args], {
      env,
      deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
      allowFailure: true,
    });
    const text = stdout + stderr + fs.readFileSync(json, "utf8") + fs.readFileSync(markdown, "utf8");
    expect(text).not.toContain(emulator.apiKey);
    return {
      code,
      stdout,
      stderr,
      json: JSON.parse(fs.readFileSync(json, "utf8")),
      markdown: fs.readFileSync(markdown, "utf8"),
    };
  }

  /** The checkpoint file of stack `a`: bytes and modification time. */
  function checkpoint(): { bytes: string; mtimeMs: number } {
    const file = path.join(a.dir, "backend", ".pulumi", "stacks", "drift-e2e", "a.json");
    return { bytes: fs.readFileSync(file, "utf8"), mtimeMs: fs.statSync(file).mtimeMs };
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    dir = path.join(repoRoot, ".tmp", "e2e", `drift-${crypto.randomBytes(6).toString("hex")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(dir, name), text);
    a = await createTestStack({
      workDir: dir,
      projectName: "drift-e2e",
      stackName: "a",
      program: projectProgram(dir),
      config: { "cdnstream:baseUrl": { value: emulator.url } },
      env: { CDNSTREAM_API_KEY: emulator.apiKey },
    });
    // The command sees what a pipeline sets: backend, passphrase, the key, PATH with the engine.
    env = { ...(process.env as Record<string, string>), ...engineEnv(a.dir), CDNSTREAM_API_KEY: emulator.apiKey };
  });
  afterAll(async () => {
    await b?.cleanup();
    await a?.cleanup();
    await emulator?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reports no drift right after up: exit 0, an empty report", async () => {
    expect((await a.stack.up()).summary.resourceChanges).toEqual({ create: 3 });
    const r = await drift("--stack", "a");
    expect(r.stderr).toMatch(/a: no drift/);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      stacks: [
        {
          stack: "a",
          cwd: dir,
          drifted: false,
          resources: [],
          checkpoint: { written: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        },
      ],
      drifted: false,
    });
    expect(r.markdown).toMatch(/^## No drift\n\n1 stack checked: 0 drifted, 1 clean\.\n\n### Stack `a`: No drift\n/);
  });

  it("names both out-of-band changes with recorded and live values, and leaves the state untouched", async () => {
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    await emulator.mutate("pushStreams", 3002, { disabled: "1" });
    const exported = JSON.stringify(await a.stack.exportStack());
    const before = checkpoint();

    const r = await drift("--stack", "a");
    expect(r.code).toBe(2);
    const type = "pulumi-nodejs:dynamic/cdnstream:StreamStatus";
    expect(r.json.drifted).toBe(true);
    expect(r.json.stacks[0].resources).toEqual(
      ["main-event", "studio-b"].map((name) => ({
        urn: `urn:pulumi:a::drift-e2e::${type}::${name}`,
        name,
        type,
        deleted: false,
        properties: [{ property: "disabled", recorded: false, live: true }],
      })),
    );
    expect(r.markdown).toMatch(/^## Drift detected\n/);
    expect(r.markdown).toContain("| `main-event` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` |");
    expect(r.markdown).toContain("| `studio-b` | `cdnstream:StreamStatus` | `disabled` | `false` | `true` |");
    expect(r.stdout).toBe(r.markdown);

    expect(checkpoint()).toEqual(before);
    expect(JSON.stringify(await a.stack.exportStack())).toBe(exported);
    // And so the drift is still there for `up` to undo.
    expect((await a.stack.preview()).changeSummary).toEqual({ same: 3 });
    expect((await a.stack.preview({ refresh: true })).changeSummary).toEqual({ same: 1, update: 2 });
  });

  it("checks two stacks at once, one drifted and one clean: exit 2, both in the report", async () => {
    // Stack b declares the streams disabled, as they now are live: nothing differs for it.
    b = await createTestStack({
      workDir: dir,
      projectName: "drift-e2e",
      stackName: "b",
      program: projectProgram(dir),
      config: { "cdnstream:baseUrl": { value: emulator.url }, "drift-e2e:disabled": { value: "true" } },
      env: { ...engineEnv(a.dir), CDNSTREAM_API_KEY: emulator.apiKey },
    });
    expect((await b.stack.up()).summary.resourceChanges).toEqual({ create: 3 });

    const r = await drift("--stack", "a", "--stack", "b", "--concurrency", "2");
    expect(r.stderr).toMatch(/checking a, b in .* \(2 at a time\)/);
    expect(r.code).toBe(2);
    expect(r.json.stacks.map((s: any) => [s.stack, s.drifted, s.resources.length])).toEqual([
      ["a", true, 2],
      ["b", false, 0],
    ]);
    expect(r.json.drifted).toBe(true);
    expect(r.markdown).toMatch(/2 stacks checked: 1 drifted, 1 clean\./);
    expect(r.markdown).toContain("### Stack `b`: No drift");
  });

  it("a stack that does not exist is an error: exit 1 with a clear message", async () => {
    const r = await drift("--stack", "nope");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nope: could not be checked .*no stack named 'nope' found/);
    expect(r.json.stacks[0]).toMatchObject({
      stack: "nope",
      drifted: false,
      resources: [],
      error: expect.stringMatching(/no stack named 'nope' found/),
    });
    expect(r.markdown).toMatch(/^## Drift check incomplete\n/);
  });

  it("evaluates a project's modules afresh on every run, as a new language host process would", async () => {
    // Outside jest, whose module registry ignores require.cache: the built module in plain node.
    const lib = path.join(dir, "count");
    fs.mkdirSync(lib, { recursive: true });
    fs.writeFileSync(path.join(lib, "Pulumi.yaml"), "name: count\nruntime: nodejs\nmain: main.js\n");
    fs.writeFileSync(path.join(lib, "part.js"), "globalThis.parts = (globalThis.parts || 0) + 1;\n");
    fs.writeFileSync(
      path.join(lib, "main.js"),
      'require("./part"); globalThis.runs = (globalThis.runs || 0) + 1; module.exports = { runs: globalThis.runs, parts: globalThis.parts };\n',
    );
    const script = `const { projectProgram } = require(${JSON.stringify(path.join(repoRoot, "dist", "provider", "cli", "project.js"))});
      (async () => { const out = [];
        for (const p of [projectProgram(process.argv[1]), projectProgram(process.argv[1])]) { out.push(await p()); out.push(await p()); }
        console.log(JSON.stringify(out)); })();`;
    const ran = await run(process.execPath, ["-e", script, lib], { deadlineMs: 60_000 });
    expect(ran.stderr).toBe("");
    expect(JSON.parse(ran.stdout)).toEqual([1, 2, 3, 4].map((n) => ({ runs: n, parts: n })));
  });
});
