/**
 * `cdnstream drift` (and `drift reconcile`) stopped mid-check by SIGINT, SIGTERM or `timeout`: it
 * exits 130 or 143 and leaves nothing running. The run is real (the built command, its worker, the `pulumi` CLI and
 * the dynamic-provider host that Pulumi starts in a process group of its own) and held in the
 * middle by an emulator that answers reads only after 30 s. Every process of the run carries a
 * marker in its environment, so the survivors, if any, are found by scanning /proc.
 */
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { createTestStack, engineEnv, projectProgram, repoRoot, TestStack } from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";

const cli = path.join(repoRoot, "dist", "provider", "cli", "index.js");

const project = {
  "Pulumi.yaml": "name: drift-signals\nruntime: nodejs\n",
  "package.json": JSON.stringify({ name: "drift-signals", private: true }),
  "index.js": `const cdn = require("pulumi-cdnstream");
module.exports = () => {
  new cdn.StreamStatus("main-event", { streamKind: "push", streamId: 3001, disabled: false });
};
`,
};

interface Marked {
  pid: number;
  argv: string;
}

/** Every living process whose environment carries `marker`, with its command line. */
function markedProcesses(marker: string): Marked[] {
  const found: Marked[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (!environ.includes(`CDNSTREAM_STOP_MARKER=${marker}`)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue; // a zombie runs nothing
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
      found.push({ pid: Number(entry), argv });
    } catch {
      // Exited while being read, or not ours to read.
    }
  }
  return found;
}

async function waitFor<T>(what: string, probe: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("cdnstream drift stopped by a signal", () => {
  let emulator: TestEmulator;
  let dir: string;
  let stack: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    dir = path.join(repoRoot, ".tmp", "e2e", `drift-signals-${crypto.randomBytes(6).toString("hex")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(dir, name), text);
    stack = await createTestStack({
      workDir: dir,
      projectName: "drift-signals",
      stackName: "dev",
      program: projectProgram(dir),
      config: { "cdnstream:baseUrl": { value: emulator.url } },
      env: { CDNSTREAM_API_KEY: emulator.apiKey },
    });
    expect((await stack.stack.up()).summary.resourceChanges).toEqual({ create: 2 });
    env = { ...(process.env as Record<string, string>), ...engineEnv(stack.dir), CDNSTREAM_API_KEY: emulator.apiKey };
  });
  afterAll(async () => {
    await stack?.cleanup();
    await emulator?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Starts `argv` (the command, or `timeout ... node cli`) with a fresh marker, waits until the
   * provider host is reading (held by the emulator's latency), runs `stop`, and resolves to the
   * exit code, the output and the marked processes left one second after the exit.
   */
  async function runAndStop(
    command: string,
    argv: string[],
    stop: (child: ReturnType<typeof spawn>) => void,
  ): Promise<{ code: number | null; signal: string | null; stderr: string; seen: Marked[]; left: Marked[] }> {
    await emulator.clearRequests();
    await emulator.inject({ latencyMs: 30_000, count: 20 });
    const marker = crypto.randomBytes(8).toString("hex");
    const child = spawn(command, argv, {
      env: { ...env, CDNSTREAM_STOP_MARKER: marker },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    child.stdout!.resume();
    const closed = new Promise<[number | null, string | null]>((resolve) =>
      child.on("close", (code, signal) => resolve([code, signal])),
    );
    // The provider host Pulumi started for the dynamic resources: the process that must not outlive the run.
    await waitFor(
      "the dynamic-provider host",
      () => (markedProcesses(marker).some((p) => /dynamic-provider/.test(p.argv)) ? true : undefined),
      60_000,
    );
    // The refresh's read has reached the emulator, which holds it.
    await new Promise((r) => setTimeout(r, 1500));
    const seen = markedProcesses(marker);
    stop(child);
    const [code, signal] = await closed;
    await new Promise((r) => setTimeout(r, 1000));
    const left = markedProcesses(marker);
    for (const p of left) process.kill(p.pid, "SIGKILL");
    return { code, signal, stderr, seen, left };
  }

  const driftArgs = () => [cli, "drift", "--cwd", dir, "--stack", "dev", "--json", path.join(dir, "r.json")];

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s: exit %i, the worker, pulumi and the provider host all stopped, no report", async (sig, exit) => {
    fs.rmSync(path.join(dir, "r.json"), { force: true });
    const r = await runAndStop(process.execPath, driftArgs(), (child) => child.kill(sig));
    // The run was real: the command, its worker, the CLI and the provider host were all there.
    expect(r.seen.map((p) => p.argv).join("\n")).toMatch(/drift-worker\.js/);
    expect(r.seen.map((p) => p.argv).join("\n")).toMatch(/\bpulumi preview\b|\bpulumi\b.*preview/);
    expect(r.seen.length).toBeGreaterThanOrEqual(4);
    expect(r.stderr).toContain(
      `cdnstream: stopped by ${sig}; stopping the processes it started (no report is written)`,
    );
    expect(r.code).toBe(exit);
    expect(r.left).toEqual([]);
    expect(fs.existsSync(path.join(dir, "r.json"))).toBe(false);
  });

  it("drift reconcile: SIGTERM while it checks the report again stops everything it started, writes no report and changes nothing", async () => {
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    const report = path.join(dir, "drift.json");
    const drift = spawn(process.execPath, driftArgs().slice(0, -1).concat(report), {
      env,
      stdio: "ignore",
      timeout: 120_000,
    });
    expect(await new Promise((resolve) => drift.on("close", resolve))).toBe(2);
    const checkpoint = path.join(stack.dir, "backend", ".pulumi", "stacks", "drift-signals", "dev.json");
    const before = fs.readFileSync(checkpoint, "utf8");
    fs.rmSync(path.join(dir, "r.json"), { force: true });
    const r = await runAndStop(
      process.execPath,
      [cli, "drift", "reconcile", report, "--json", path.join(dir, "r.json")],
      (child) => child.kill("SIGTERM"),
    );
    expect(r.seen.map((p) => p.argv).join("\n")).toMatch(/drift-worker\.js/);
    expect(r.stderr).toContain("cdnstream: stopped by SIGTERM");
    expect(r.code).toBe(143);
    expect(r.left).toEqual([]);
    expect(fs.existsSync(path.join(dir, "r.json"))).toBe(false);
    expect(Object.keys(await emulator.requestCounts()).filter((op) => !op.startsWith("GET "))).toEqual([]);
    expect(fs.readFileSync(checkpoint, "utf8")).toBe(before);
    await emulator.mutate("pushStreams", 3001, { disabled: "0" });
  });

  it("`timeout` stopping it (SIGTERM) leaves nothing running either", async () => {
    const r = await runAndStop("timeout", ["25", process.execPath, ...driftArgs()], () => undefined);
    expect(r.seen.map((p) => p.argv).join("\n")).toMatch(/dynamic-provider/);
    expect(r.stderr).toContain("cdnstream: stopped by SIGTERM");
    expect(r.code).toBe(124); // timeout's own code when it had to stop the command
    expect(r.left).toEqual([]);
  });
});
