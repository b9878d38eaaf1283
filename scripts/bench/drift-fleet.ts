/**
 * `npm run bench -- --drift-fleet 20x100[,SxR...] [--drift-concurrency 1,2,4]`: what one
 * `cdnstream drift` run costs on one machine as a fleet grows, to tell when to shard it over a CI
 * matrix (docs/drift.md, "How drift cost grows", says what is measured and how). Each run must
 * report exactly the stacks drifted out of band (exit 2): a run that found anything else
 * measured nothing and fails the bench instead.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { projectProgram } from "../../provider/cli/project";
import { startBenchEmulator, total } from "./emulator";
import { engineEnv, repoRoot } from "./engine";
import { BASE, stackFixture } from "./fixture";
import { cpuSeconds, cpuSince, descendants, INTERVAL_MS, measurable, read, statusBytes } from "./host";
import { round } from "./stacks";

export interface FleetSize {
  stacks: number;
  resources: number;
}

export type DriftFleetReport = Awaited<ReturnType<typeof driftFleetBench>>;

const PROJECT = "drift-fleet-bench";

// The user's program: R StreamStatus on the stack's own range of streams, both read from config.
const project = {
  "Pulumi.yaml": `name: ${PROJECT}\nruntime: nodejs\ndescription: stacks of StreamStatus resources checked for drift\n`,
  "package.json": JSON.stringify({ name: PROJECT, private: true }),
  "index.js": `const pulumi = require("@pulumi/pulumi");
const cdn = require("pulumi-cdnstream");
module.exports = () => {
  const config = new pulumi.Config("${PROJECT}");
  const first = config.requireNumber("firstStream");
  const count = config.requireNumber("resources");
  for (let j = 0; j < count; j++)
    new cdn.StreamStatus(\`stream-\${j}\`, { streamKind: "push", streamId: first + j, disabled: false });
};
`,
};

const stackName = (i: number) => `stack-${String(i + 1).padStart(3, "0")}`;
const firstStream = (i: number, size: FleetSize) => BASE.pushStream + i * size.resources;
/** Every fifth stack gets one stream disabled out of band. */
const driftedOutOfBand = (i: number) => i % 5 === 0;

/** One `cdnstream drift` run over every stack of the project, measured. */
async function measureDrift(projectDir: string, env: Record<string, string>, concurrency: number, runDir: string) {
  const cli = path.join(repoRoot, "dist", "provider", "cli", "index.js");
  const json = path.join(runDir, `drift-${concurrency}.json`);
  const times = path.join(runDir, `times-${concurrency}.txt`);
  // `times` after the command: the CPU of the shell's reaped children, and so of their reaped descendants.
  const script = `"$@"; rc=$?; times > "${times}"; exit $rc`;
  const args = [cli, "drift", "--cwd", projectDir, "--concurrency", String(concurrency), "--json", json];
  const started = performance.now();
  const child = spawn("bash", ["-c", script, "bash", process.execPath, ...args], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  let peakBytes = 0;
  // The resident set of the whole tree now: the largest sum is the run's peak.
  const sample = () => [child.pid!, ...descendants(child.pid!)].reduce((a, pid) => a + statusBytes(pid, "VmRSS"), 0);
  const timer = measurable ? setInterval(() => (peakBytes = Math.max(peakBytes, sample())), INTERVAL_MS) : undefined;
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearInterval(timer);
  const wallSeconds = (performance.now() - started) / 1000;
  // Second line of `times`: children's user and system time, e.g. "1m2.500s 0m3.250s".
  const childLine = (read(times) ?? "").trim().split("\n")[1] ?? "";
  const seconds = [...childLine.matchAll(/(\d+)m([\d.]+)s/g)].reduce((a, m) => a + Number(m[1]) * 60 + Number(m[2]), 0);
  return { code, report: JSON.parse(read(json) ?? "null"), wallSeconds, cpuSeconds: seconds, peakBytes, stderr };
}

/** Every size: deploy, drift out of band, then a measured drift run per concurrency. */
export async function driftFleetBench(
  fleet: { sizes: FleetSize[]; concurrencies: number[] },
  runDir: string,
  progress: (line: string) => void,
) {
  const rows = [];
  for (const size of fleet.sizes) {
    const label = `${size.stacks}x${size.resources}`;
    const dir = path.join(runDir, `drift-fleet-${label}`);
    const projectDir = path.join(dir, "project");
    fs.mkdirSync(projectDir, { recursive: true });
    fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(projectDir, name), text);
    const fixture = stackFixture({ pushStreams: size.stacks * size.resources });
    const api = await startBenchEmulator(fixture, path.join(dir, "fixture.json"));
    try {
      const env = { ...(process.env as Record<string, string>), ...engineEnv(dir, api.apiKey) };
      const indices = Array.from({ length: size.stacks }, (_, i) => i);
      const deployStarted = performance.now();
      // One at a time: inline programs share this process's Pulumi runtime.
      for (const i of indices) {
        const stack = await LocalWorkspace.createStack(
          { projectName: PROJECT, stackName: stackName(i), program: projectProgram(projectDir) },
          { workDir: projectDir, envVars: engineEnv(dir, api.apiKey) },
        );
        await stack.setAllConfig({
          "cdnstream:baseUrl": { value: api.url },
          [`${PROJECT}:firstStream`]: { value: String(firstStream(i, size)) },
          [`${PROJECT}:resources`]: { value: String(size.resources) },
        });
        const created = (await stack.up()).summary.resourceChanges?.create ?? 0;
        // The stack, the provider and its R resources.
        if (created !== size.resources + 1)
          throw new Error(`${stackName(i)}: up created ${created}, not ${size.resources + 1}`);
      }
      progress(
        `drift fleet ${label}: deployed ${size.stacks} stacks in ${round((performance.now() - deployStarted) / 1000, 1)} s`,
      );
      const drifted = indices.filter(driftedOutOfBand);
      for (const i of drifted) await api.mutate("pushStreams", String(firstStream(i, size)), { disabled: "1" });

      for (const concurrency of fleet.concurrencies) {
        await api.clear();
        const emulatorBefore = cpuSeconds(api.pid);
        const run = await measureDrift(projectDir, env, concurrency, dir);
        const emulatorCpu = cpuSince(api.pid, emulatorBefore);
        const apiCalls = total(await api.counts());
        const reported = (run.report?.stacks ?? []).filter((s: any) => s.drifted).map((s: any) => s.stack);
        const expected = drifted.map(stackName);
        if (run.code !== 2 || JSON.stringify(reported) !== JSON.stringify(expected))
          throw new Error(
            `drift ${label} at concurrency ${concurrency} exited ${run.code} reporting drift in [${reported.join(", ")}], ` +
              `not 2 with [${expected.join(", ")}]:\n${run.stderr.split("\n").slice(-20).join("\n")}`,
          );
        const row = {
          stacks: size.stacks,
          resourcesPerStack: size.resources,
          concurrency,
          wallSeconds: round(run.wallSeconds, 1),
          /** User + system CPU of the command and everything it started. */
          cpuSeconds: round(run.cpuSeconds, 1),
          /** The largest sum of the resident sets of the command's process tree, MB (null: not measurable here). */
          peakMemoryMb: measurable ? Math.round(run.peakBytes / 2 ** 20) : null,
          /** Requests the emulator served during the run. */
          apiCalls,
          /** CPU the emulator spent serving them (the API's side, on the same cores). */
          emulatorCpuSeconds: emulatorCpu === null ? null : round(emulatorCpu, 1),
          /** Stacks the run reported drifted: the ones changed out of band. */
          driftedStacks: reported.length as number,
        };
        progress(
          `drift fleet ${label} at concurrency ${concurrency}: ${row.wallSeconds} s, CPU ${row.cpuSeconds} s, ` +
            `peak ${row.peakMemoryMb} MB, ${row.apiCalls} API calls`,
        );
        rows.push(row);
      }
    } finally {
      await api.close();
    }
  }
  return { ...fleet, rows };
}

/** The section's markdown table. */
export function driftFleetMarkdown(report: DriftFleetReport): string {
  const lines = [
    "### Drift over a fleet: one `cdnstream drift` run over every stack",
    "",
    "S stacks of R StreamStatus resources, one stream of every fifth stack disabled out of band; the",
    "built command over every stack of the project (exit 2). CPU: user + system of every process the",
    "command started; memory: the largest sum of their resident sets; API calls: requests the emulator served.",
    "",
    "| stacks x resources | concurrency | wall (s) | s / stack | CPU (s) | peak memory (MB) | API calls | emulator CPU (s) |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of report.rows)
    lines.push(
      `| ${r.stacks} x ${r.resourcesPerStack} | ${r.concurrency} | ${r.wallSeconds} | ${round(r.wallSeconds / r.stacks, 1)} | ` +
        `${r.cpuSeconds} | ${r.peakMemoryMb ?? "n/a"} | ${r.apiCalls} | ${r.emulatorCpuSeconds ?? "n/a"} |`,
    );
  return lines.join("\n");
}
