/**
 * Drift over a fleet, end to end: twelve stacks of one project (one or two StreamStatus each, on
 * streams of their own) deployed through the Automation API on one file backend, some changed out
 * of band through the emulator; then the built command run as a CI matrix runs it, once over every
 * stack and as four shards merged into one report. The merged report must be the single run's
 * (plus the shard count) and exit the same.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { stacksInShard } from "../../provider/cli/drift-fleet";
import { BASE, stackFixture } from "../../scripts/bench/fixture";
import { run as runCommand } from "../../scripts/child";
import { engineEnv, projectProgram, pulumiCli, repoRoot } from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";

const cli = path.join(repoRoot, "dist", "provider", "cli", "index.js");
const PROJECT = "drift-fleet-e2e";
const STACKS = 12;
const SHARDS = 4;

// Stack i declares `count` StreamStatus on streams first, first + 1 (two per stack are reserved).
const project = {
  "Pulumi.yaml": `name: ${PROJECT}\nruntime: nodejs\ndescription: a fleet of small stacks checked for drift\n`,
  "package.json": JSON.stringify({ name: PROJECT, private: true }),
  "index.js": `const pulumi = require("@pulumi/pulumi");
const cdn = require("pulumi-cdnstream");
module.exports = () => {
  const config = new pulumi.Config("${PROJECT}");
  const first = config.requireNumber("first");
  for (let j = 0; j < config.requireNumber("count"); j++)
    new cdn.StreamStatus(\`stream-\${j}\`, { streamKind: "push", streamId: first + j, disabled: false });
};
`,
};

const stackNames = Array.from({ length: STACKS }, (_, i) => `s${String(i + 1).padStart(2, "0")}`);
const firstStream = (i: number) => BASE.pushStream + 2 * i;
const resourcesOf = (i: number) => (i % 2 === 0 ? 1 : 2);
/** Stacks changed behind their back: s03's stream, s08's second stream, s10's and s12's first. */
const outOfBand: [stack: number, stream: number][] = [
  [2, 0],
  [7, 1],
  [9, 0],
  [11, 0],
];

interface Run {
  code: number | null;
  stderr: string;
}

describe("cdnstream drift over a fleet: --shard i/n and merge", () => {
  let emulator: TestEmulator;
  let root: string;
  let dir: string;
  let env: Record<string, string>;
  let single: { run: Run; json: any; markdown: string };

  async function cdnstream(...args: string[]): Promise<Run> {
    // A drift run over the fleet's stacks: a few minutes at most, inside the tests' ten.
    const {
      status: code,
      stdout,
      stderr,
    } = await runCommand(process.execPath, [cli, ...args], { env, deadlineMs: 8 * 60_000, allowFailure: true });
    expect(stdout + stderr).not.toContain(emulator.apiKey);
    return { code, stderr };
  }
  const report = (name: string) => {
    const text = fs.readFileSync(path.join(root, name), "utf8");
    expect(text).not.toContain(emulator.apiKey);
    return text;
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({
      fixture: stackFixture({
        pushStreams: 2 * STACKS,
        httpPushZones: 0,
        vodPushZones: 0,
        vodPullZones: 0,
        campaigns: 0,
      }),
    });
    root = path.join(repoRoot, ".tmp", "e2e", `drift-fleet-${crypto.randomBytes(6).toString("hex")}`);
    dir = path.join(root, "project");
    fs.mkdirSync(dir, { recursive: true });
    fs.mkdirSync(path.join(root, "backend"));
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(dir, name), text);
    const stackEnv = { ...engineEnv(root), CDNSTREAM_API_KEY: emulator.apiKey };
    // One at a time: inline programs share this process's Pulumi runtime.
    for (const [i, stackName] of stackNames.entries()) {
      const stack = await LocalWorkspace.createStack(
        { projectName: PROJECT, stackName, program: projectProgram(dir) },
        { workDir: dir, envVars: stackEnv, pulumiCommand: await pulumiCli() },
      );
      await stack.setAllConfig({
        "cdnstream:baseUrl": { value: emulator.url },
        [`${PROJECT}:first`]: { value: String(firstStream(i)) },
        [`${PROJECT}:count`]: { value: String(resourcesOf(i)) },
      });
      expect((await stack.up()).summary.resourceChanges).toEqual({ create: resourcesOf(i) + 1 });
    }
    for (const [i, j] of outOfBand) await emulator.mutate("pushStreams", firstStream(i) + j, { disabled: "1" });
    // The command sees what a pipeline sets: backend, passphrase, the key, PATH with the engine.
    env = { ...(process.env as Record<string, string>), ...stackEnv };
    // Twelve `up`s one after another: under a minute on an idle machine, more on a shared one.
  }, 900_000);
  afterAll(async () => {
    await emulator?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("one run over all twelve stacks reports the four changed out of band: exit 2", async () => {
    const run = await cdnstream(
      "drift",
      "--cwd",
      dir,
      "--json",
      path.join(root, "all.json"),
      "--markdown",
      path.join(root, "all.md"),
    );
    single = { run, json: JSON.parse(report("all.json")), markdown: report("all.md") };
    expect(run.code).toBe(2);
    expect(single.json.stacks.map((s: any) => s.stack)).toEqual(stackNames);
    expect(single.json.stacks.filter((s: any) => s.drifted).map((s: any) => s.stack)).toEqual(
      outOfBand.map(([i]) => stackNames[i]),
    );
    expect(single.json.stacks.filter((s: any) => s.error !== undefined)).toEqual([]);
    expect(single.json.shard).toBeUndefined();
    expect(single.markdown).toMatch(/^## Drift detected\n\n12 stacks checked: 4 drifted, 8 clean\.\n\n### Stack `s01`/);
  }, 600_000);

  it("four shards, run at once as a matrix, check each stack once; merged, they give the single run's report and exit code", async () => {
    const shards = Array.from({ length: SHARDS }, (_, i) => i + 1);
    const runs = await Promise.all(
      shards.map((i) =>
        cdnstream(
          "drift",
          "--cwd",
          dir,
          "--shard",
          `${i}/${SHARDS}`,
          "--concurrency",
          "1",
          "--json",
          path.join(root, `shard-${i}.json`),
          "--markdown",
          path.join(root, `shard-${i}.md`),
        ),
      ),
    );
    const checked: string[] = [];
    for (const i of shards) {
      const json = JSON.parse(report(`shard-${i}.json`));
      const mine = stacksInShard(stackNames, PROJECT, { index: i, count: SHARDS });
      expect(json.shard).toEqual({ index: i, count: SHARDS });
      expect(json.project).toBe(PROJECT);
      expect(json.stacks.map((s: any) => s.stack)).toEqual(mine);
      expect(runs[i - 1]!.code).toBe(json.drifted ? 2 : 0);
      expect(runs[i - 1]!.stderr).toContain(`shard ${i}/${SHARDS}: ${mine.length} of the ${STACKS} stacks`);
      expect(report(`shard-${i}.md`)).toContain(`Shard ${i} of ${SHARDS} of the project's stacks`);
      checked.push(...mine);
    }
    expect(checked.sort()).toEqual(stackNames);

    // In the order a shell's glob gives them, or any other: the merge orders the stacks by name.
    const merge = await cdnstream(
      "drift",
      "merge",
      ...shards.reverse().map((i) => path.join(root, `shard-${i}.json`)),
      "--json",
      path.join(root, "fleet.json"),
      "--markdown",
      path.join(root, "fleet.md"),
    );
    expect(merge.code).toBe(single.run.code);
    expect(JSON.parse(report("fleet.json"))).toEqual({ ...single.json, shards: SHARDS, project: PROJECT });
    const merged = report("fleet.md");
    const note = `Merged from the reports of all ${SHARDS} shards.\n\n`;
    expect(merged).toContain(note);
    expect(merged.replace(note, "")).toBe(single.markdown);
  }, 600_000);

  it("refuses to merge without every shard: exit 64, and no report that could read as clean", async () => {
    const fleet = path.join(root, "partial.json");
    const r = await cdnstream(
      "drift",
      "merge",
      ...[1, 2, 4].map((i) => path.join(root, `shard-${i}.json`)),
      "--json",
      fleet,
    );
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(`shard 3/${SHARDS} missing: its stacks were not checked`);
    expect(fs.existsSync(fleet)).toBe(false);
  });
});
