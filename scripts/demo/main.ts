/**
 * `npm run demo`: deploys the demo stack (root Pulumi.yaml, program in examples/demo/) against
 * the bundled API emulator, changes one setting behind the stack's back, shows `cdnstream drift`
 * naming exactly that resource and property, and reconverges with `up`. scripts/demo.js builds
 * the package, then calls {@link main}.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { run } from "../child";
import { runDriftCheck, findingLines } from "./drift";
import { startDemoEmulator, stopKeptEmulator, type DemoEmulator } from "./emulator";
import { keepInstructions } from "./keep";
import { Progress, StepFailed } from "./progress";
import { compileProject, installPackedPackage, repoRoot } from "./project-build";
import { changeSummary, createDemoStack, demoEnv, outputLines, upWithProgress } from "./stack";

const USAGE = `Usage: npm run demo -- [--keep] [--quick] [--stack NAME] [--dir DIR]

  --keep        leave the emulator and the stack running, and print how to explore them
  --quick       skip the build (dist/ must be current) and the final clean drift check
  --stack NAME  the stack's name (default dev)
  --dir DIR     the state directory: backend, logs, reports (default .demo; wiped at the start)

The API key is CDNSTREAM_API_KEY when set, otherwise one generated for this run; it is never printed.`;

/** The out-of-band change the demo makes, and what the drift check must report for it. */
const DASHBOARD_CHANGE = {
  story: "someone switches off the domain lock of the VoD catalogue in the dashboard",
  kind: "vodPullZones",
  id: 401,
  patch: { domainlock: { enabled: "N" } },
  resource: "vod-catalog-lock",
  property: "enabled",
} as const;

/** Marks a directory as the demo's, so that wiping it can never remove anything else. */
const MARKER = ".cdnstream-demo";

/** Parses the demo's arguments; `undefined` means help. Throws on bad usage. */
function parseDemoArgs(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      keep: { type: "boolean", default: false },
      quick: { type: "boolean", default: false },
      stack: { type: "string", default: "dev" },
      dir: { type: "string", default: ".demo" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return undefined;
  if (!/^[A-Za-z0-9_.-]+$/.test(values.stack!))
    throw new Error(`--stack: "${values.stack}" is not a stack name (letters, digits, _ . -)`);
  return {
    keep: !!values.keep,
    quick: !!values.quick,
    stack: values.stack!,
    stateDir: path.resolve(repoRoot, values.dir!),
  };
}

/** Removes the previous run's state directory (only one this script made) and stack settings file. */
async function freshState(stateDir: string, stack: string): Promise<string> {
  let stopped: number | undefined;
  const existed = fs.existsSync(stateDir);
  if (existed) {
    if (fs.readdirSync(stateDir).length && !fs.existsSync(path.join(stateDir, MARKER))) {
      throw new Error(`${stateDir} exists and was not made by the demo; choose another --dir`);
    }
    stopped = await stopKeptEmulator(stateDir);
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  // The stack's settings file (its secrets salt) belongs to the backend just removed.
  fs.rmSync(path.join(repoRoot, `Pulumi.${stack}.yaml`), { force: true });
  fs.mkdirSync(path.join(stateDir, "logs"), { recursive: true });
  fs.writeFileSync(path.join(stateDir, MARKER), "State of `npm run demo`; removed by its next run.\n");
  if (!existed) return "new state directory";
  return stopped
    ? `previous run's state removed, its kept emulator (pid ${stopped}) stopped`
    : "previous run's state removed";
}

/**
 * `scripts/ensure-pulumi`: the directory holding the pinned CLI. Its progress lines (stderr:
 * modules downloaded, packages compiled, each with its elapsed time) reach `onLine` as they come,
 * since a first build takes minutes.
 */
async function ensureEngine(onLine: (line: string) => void): Promise<string> {
  // Warm: well under a second; a first build of the CLI: up to a quarter of an hour (docs/engine.md).
  const ran = await run(path.join(repoRoot, "scripts", "ensure-pulumi"), [], {
    deadlineMs: 40 * 60_000,
    onStderrLine: onLine,
    allowFailure: true,
  });
  const binDir = ran.stdout.trim().split("\n").pop() ?? "";
  if (ran.status !== 0 || !binDir) throw new Error(`scripts/ensure-pulumi exited ${ran.status}`);
  return binDir;
}

const home = (p: string) => (p.startsWith(os.homedir()) ? `~${p.slice(os.homedir().length)}` : p);
const rel = (p: string) => path.relative(process.cwd(), p) || ".";

/**
 * Runs the demo; resolves to the exit code. `buildMs`: how long scripts/demo.js spent building;
 * `startedAt`: when it started, so the total includes the build.
 */
export async function main(argv: readonly string[], buildMs?: number, startedAt = Date.now()): Promise<number> {
  let opts: ReturnType<typeof parseDemoArgs>;
  try {
    opts = parseDemoArgs(argv);
  } catch (e) {
    process.stderr.write(`demo: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (!opts) return (void process.stdout.write(`${USAGE}\n`), 0);
  const { stack: stackName, stateDir, keep, quick } = opts;
  const keyFromEnv = !!process.env.CDNSTREAM_API_KEY;
  const apiKey = process.env.CDNSTREAM_API_KEY || `demo_${crypto.randomBytes(24).toString("hex")}`;
  // The program runs in this process: its data sources read the key from here too.
  process.env.CDNSTREAM_API_KEY = apiKey;
  const secrets = () => [apiKey, ...(process.env.PULUMI_ACCESS_TOKEN ? [process.env.PULUMI_ACCESS_TOKEN] : [])];
  const progress = new Progress((buildMs === undefined ? 0 : 1) + (quick ? 10 : 11), secrets, startedAt);
  progress.line(
    `cdnstream demo: stack "${stackName}" of ${rel(path.join(repoRoot, "Pulumi.yaml"))}, state in ${rel(stateDir)}/, API key ${keyFromEnv ? "from CDNSTREAM_API_KEY" : "generated for this run"} (never shown)`,
  );
  if (buildMs !== undefined) progress.done("build", "tsc -p tsconfig.json", buildMs);

  let emulator: DemoEmulator | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    progress.line(`\ndemo: ${signal}: stopping the emulator`);
    void (emulator?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const binDir = await progress.step("engine", async (s) => {
      const dir = await ensureEngine(s.detail);
      const version = (await run(path.join(dir, "pulumi"), ["version"], { deadlineMs: 60_000 })).stdout.trim();
      s.summary = `pulumi ${version} from ${home(dir)}`;
      return dir;
    });
    await progress.step("fresh state", async (s) => {
      s.summary = `${await freshState(stateDir, stackName)}: ${rel(stateDir)}/`;
      if (!keyFromEnv) fs.writeFileSync(path.join(stateDir, "api-key"), `${apiKey}\n`, { mode: 0o600 });
    });
    const projectDir = path.join(repoRoot, "examples", "demo");
    await progress.step("package", async (s) => {
      const installed = await installPackedPackage();
      await compileProject(projectDir);
      s.summary = `${installed ? "npm pack unpacked into" : "current in"} node_modules/pulumi-cdnstream; ${rel(projectDir)} compiled against it`;
    });
    emulator = await progress.step("emulator", async (s) => {
      const started = await startDemoEmulator(stateDir, apiKey);
      s.summary = `${started.url} (pid ${started.pid}, default fixture)`;
      return started;
    });
    const pluginDir = path.dirname(require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs"));
    const env = demoEnv(stateDir, apiKey, [binDir, pluginDir, process.env.PATH].filter(Boolean).join(path.delimiter));
    // The Automation API looks the CLI up on this process's PATH, not on the stack's envVars.
    process.env.PATH = env.PATH;
    const url = emulator.url;
    const stack = await progress.step("stack", async (s) => {
      const created = await createDemoStack(repoRoot, stackName, env, url);
      s.summary = `${stackName} on file backend ${rel(stateDir)}/backend, cdnstream:baseUrl = ${url}`;
      return created;
    });

    const logs = path.join(stateDir, "logs");
    const deployed = await progress.step("pulumi up (program run inline by the Automation API)", async (s) => {
      const up = await upWithProgress(stack, s.detail, path.join(logs, "up-1.log"));
      s.summary = changeSummary(up.changes, true);
      return up;
    });
    progress.line("      Outputs:");
    for (const line of outputLines(deployed.outputs)) progress.line(`        ${line}`);

    const change = DASHBOARD_CHANGE;
    await progress.step("dashboard change", async (s) => {
      await emulator!.mutate(change.kind, change.id, change.patch);
      s.summary = `${change.story} (admin door: ${change.kind}/${change.id} ${JSON.stringify(change.patch)})`;
    });
    await progress.step("drift check", async (s) => {
      const run = await runDriftCheck(stackName, env, stateDir, "1");
      s.detail(`$ ${run.command}`);
      for (const line of run.progress) s.detail(`  ${line}`);
      for (const line of findingLines(run.resources)) s.detail(`  drift: ${line}`);
      const names = run.resources.flatMap((r) => r.properties.map((p) => `${r.name}.${p.property}`));
      const expected = `${change.resource}.${change.property}`;
      if (run.code !== 2 || names.join() !== expected)
        throw new Error(
          `expected exit 2 naming only ${expected}; got exit ${run.code} naming ${names.join(", ") || "nothing"}`,
        );
      s.summary = `exit 2: drift in ${expected}, exactly the change made; report ${rel(run.markdownFile)}`;
    });
    await progress.step("pulumi up --refresh (reconverge)", async (s) => {
      const up = await upWithProgress(stack, s.detail, path.join(logs, "up-2.log"), true);
      s.summary = changeSummary(up.changes, false);
      if (up.changes.update !== 1 || Object.keys(up.changes).length !== 1)
        throw new Error(`expected exactly 1 update, got ${s.summary}`);
    });
    if (!quick) {
      await progress.step("drift check again", async (s) => {
        const run = await runDriftCheck(stackName, env, stateDir, "2");
        if (run.code !== 0) throw new Error(`expected exit 0 (no drift), got ${run.code}:\n${run.progress.join("\n")}`);
        s.summary = `exit 0: no drift (${run.command})`;
      });
    }
    await progress.step(keep ? "keep" : "stop", async (s) => {
      if (keep) emulator!.detach();
      else await emulator!.stop();
      s.summary = keep
        ? `emulator left running (pid ${emulator!.pid})`
        : `emulator stopped; the stack's state stays in ${rel(stateDir)}/backend`;
    });
    progress.line(`Done in ${progress.elapsed()}.`);
    if (keep)
      for (const line of keepInstructions({ repoRoot, stateDir, stackName, binDir, pluginDir, url, keyFromEnv }))
        progress.line(line);
    return 0;
  } catch (e) {
    if (!(e instanceof StepFailed)) progress.line(`demo: ${(e as Error).stack ?? e}`);
    await emulator?.stop().catch(() => undefined);
    progress.line(
      `demo failed after ${progress.elapsed()}; engine transcripts in ${rel(path.join(stateDir, "logs"))}/`,
    );
    return 1;
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
}
