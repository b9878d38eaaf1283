/**
 * Every process the tests and scripts start, started with a deadline sized to its job. When the
 * deadline passes, the whole process tree is stopped (every descendant, found by parent pid, then
 * the child, as `cdnstream drift` stops its workers: provider/cli/process-tree.ts; a descendant in
 * a process group or session of its own is reached too) and the caller fails with the command,
 * the directory, the deadline and the output so far. Nothing then waits forever on a child that will never exit
 * (npm's random hang: npm/cli#4028), and nothing it started is left running.
 *
 * `run` is asynchronous: a test awaiting it keeps its worker's event loop free, so jest's own
 * timeout and reporting keep working. `runSync` is for the synchronous code paths of scripts:
 * it runs the command under coreutils `timeout`, which stops the command's process group.
 * `runNpm` gives `npm install`, `npm ci` and `npm pack` one more try after a hang, saying so.
 */
import { spawn, spawnSync, type StdioOptions } from "node:child_process";
import { stopDescendants } from "../provider/cli/process-tree";

export interface RunOptions {
  /** How long the command may take, in milliseconds, before its tree is stopped. */
  deadlineMs: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (else stdin is empty). */
  input?: string | Buffer;
  /** Each line of the child's stderr as it comes (a long step's progress), besides capturing it. */
  onStderrLine?: (line: string) => void;
  /** Resolve with a non-zero exit instead of failing (the caller reads `status`). */
  allowFailure?: boolean;
}

export interface RunResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they came. */
  output: string;
}

/** How much of the output an error shows: its end, where the reason usually is. */
const OUTPUT_SHOWN = 8000;
/** How long a stopped tree gets between SIGTERM and SIGKILL. */
const GRACE_MS = 3000;

function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}

function formatDeadline(ms: number): string {
  return ms >= 120_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

function tail(output: string): string {
  const text = output.trimEnd();
  if (!text) return "(no output)";
  return text.length > OUTPUT_SHOWN
    ? `[... ${text.length - OUTPUT_SHOWN} characters before]\n${text.slice(-OUTPUT_SHOWN)}`
    : text;
}

/** A command that did not exit within its deadline; its whole tree has been stopped. */
export class DeadlineExceeded extends Error {
  constructor(
    readonly command: string,
    readonly cwd: string,
    readonly deadlineMs: number,
    readonly output: string,
  ) {
    super(
      `\`${command}\` (in ${cwd}) did not exit within its deadline of ${formatDeadline(deadlineMs)}: ` +
        `it and every process it started were stopped. Its output so far:\n${tail(output)}`,
    );
    this.name = "DeadlineExceeded";
  }
}

/** A command that exited non-zero (or was killed by a signal it did not get from us). */
export class CommandFailed extends Error {
  constructor(
    readonly command: string,
    readonly cwd: string,
    readonly result: RunResult,
  ) {
    super(
      `\`${command}\` (in ${cwd}) ${result.signal ? `was killed by ${result.signal}` : `exited ${result.status}`}:\n` +
        tail(result.output),
    );
    this.name = "CommandFailed";
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Gone already.
  }
}

/** The children still running, killed if this process exits first (a test file that ends early). */
const running = new Set<number>();
let exitHookSet = false;
function track(pid: number): void {
  running.add(pid);
  if (exitHookSet) return;
  exitHookSet = true;
  process.on("exit", () => {
    for (const pid of running) signal(pid, "SIGKILL");
  });
}

/** Stops `pid`'s whole tree: SIGTERM to each descendant and to it, SIGKILL to what is left after a grace period. */
async function stopTree(pid: number): Promise<void> {
  // Descendants are listed before any signal (stopDescendants does so before its first wait):
  // once the root exits, its children are re-parented and leave its tree.
  const descendants = stopDescendants(pid, "SIGTERM", GRACE_MS);
  signal(pid, "SIGTERM");
  await descendants;
  signal(pid, "SIGKILL");
}

/**
 * Runs `command` with `args` and resolves with its exit and output. Fails with `DeadlineExceeded`
 * when it outlives `deadlineMs` (after stopping its tree), with `CommandFailed` when it exits
 * non-zero (unless `allowFailure`), and when it cannot start.
 */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const shown = commandLine(command, args);
  return new Promise((resolve, reject) => {
    const stdio: StdioOptions = [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"];
    // In this process's group, as any child: Ctrl-C at a terminal reaches it too.
    const child = spawn(command, args, { cwd, env: options.env ?? process.env, stdio });
    let stdout = "";
    let stderr = "";
    let output = "";
    let timedOut = false;
    let stopping: Promise<void> | undefined;
    let partialLine = "";
    const take = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      if (stream === "stdout") stdout += text;
      else stderr += text;
      output += text;
      if (stream === "stderr" && options.onStderrLine) {
        const lines = (partialLine + text).split("\n");
        partialLine = lines.pop()!;
        for (const line of lines) options.onStderrLine(line);
      }
    };
    child.stdout!.on("data", take("stdout"));
    child.stderr!.on("data", take("stderr"));
    if (options.input !== undefined) child.stdin!.end(options.input);
    if (child.pid) track(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) stopping = stopTree(child.pid);
    }, options.deadlineMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`\`${shown}\` (in ${cwd}) could not start: ${e.message}`));
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      const finish = () => {
        if (child.pid) running.delete(child.pid);
        if (partialLine && options.onStderrLine) options.onStderrLine(partialLine);
        const result: RunResult = { status, signal, stdout, stderr, output };
        if (timedOut) reject(new DeadlineExceeded(shown, cwd, options.deadlineMs, output));
        else if ((status !== 0 || signal) && !options.allowFailure) reject(new CommandFailed(shown, cwd, result));
        else resolve(result);
      };
      // A tree being stopped is waited for, so that nothing of it outlives the failure.
      if (stopping) void stopping.then(finish);
      else finish();
    });
  });
}

/** The npm commands whose random hang (npm/cli#4028) is survived by one more try. */
const NPM_RETRIED = new Set(["install", "i", "ci", "pack"]);

type NpmOptions = RunOptions & { npm?: string; log?: (line: string) => void };

/** Whether `e` is a hang of an npm command tried once more, saying so (to `log`) if it is. */
function retriedHang(e: unknown, args: readonly string[], options: NpmOptions): boolean {
  if (!(e instanceof DeadlineExceeded) || !NPM_RETRIED.has(args[0] ?? "")) return false;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  log(
    `\`${e.command}\` (in ${e.cwd}) hung: no exit within ${formatDeadline(e.deadlineMs)}; ` +
      "stopped it and everything it started, trying once more (npm/cli#4028)",
  );
  return true;
}

/**
 * `npm <args>` with a total deadline. An install, `ci` or pack that hangs is stopped at its
 * deadline and tried once more, with one line (to `log`, stderr by default) saying so; a second
 * hang fails with `DeadlineExceeded`. A deadline, not a silence detector: npm at its usual log
 * levels prints nothing for most of a good install, so silence says nothing about a hang.
 */
export async function runNpm(args: readonly string[], options: NpmOptions): Promise<RunResult> {
  const npm = options.npm ?? "npm";
  try {
    return await run(npm, args, options);
  } catch (e) {
    if (!retriedHang(e, args, options)) throw e;
    return await run(npm, args, options);
  }
}

/** `runNpm`'s synchronous form (see `runSync`), for the synchronous scripts. */
export function runNpmSync(args: readonly string[], options: NpmOptions): RunResult {
  const npm = options.npm ?? "npm";
  try {
    return runSync(npm, args, options);
  } catch (e) {
    if (!retriedHang(e, args, options)) throw e;
    return runSync(npm, args, options);
  }
}

/**
 * The synchronous form, for scripts whose code is synchronous: the command runs under coreutils
 * `timeout`, which at the deadline signals the command's whole process group (SIGTERM, then
 * SIGKILL 10 s later). Fails as `run` does. Never call it from a test: a synchronous spawn blocks
 * jest's worker, whose own timeout then cannot fire.
 */
export function runSync(
  command: string,
  args: readonly string[],
  options: RunOptions & { stdio?: "pipe" | "inherit" },
): RunResult {
  const cwd = options.cwd ?? process.cwd();
  const shown = commandLine(command, args);
  const seconds = Math.max(1, Math.ceil(options.deadlineMs / 1000));
  const started = Date.now();
  const ran = spawnSync("timeout", ["--kill-after=10", String(seconds), command, ...args], {
    cwd,
    env: options.env ?? process.env,
    input: options.input,
    encoding: "utf8",
    maxBuffer: 256 << 20,
    stdio:
      options.stdio === "inherit"
        ? ["inherit", "inherit", "inherit"]
        : [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    // A last resort should `timeout` itself hang: it stops the command by then.
    timeout: (seconds + 20) * 1000,
    killSignal: "SIGKILL",
  });
  if (ran.error && (ran.error as NodeJS.ErrnoException).code !== "ETIMEDOUT")
    throw new Error(`\`${shown}\` (in ${cwd}) could not start: ${ran.error.message}`);
  const stdout = ran.stdout ?? "";
  const stderr = ran.stderr ?? "";
  const result: RunResult = { status: ran.status, signal: ran.signal, stdout, stderr, output: stdout + stderr };
  // 124: `timeout` stopped the command; 137: it had to kill it; 125-127: `timeout` or the command could not run.
  const stopped = ran.status === 124 || ran.status === 137 || ran.error !== undefined;
  if (stopped && Date.now() - started >= options.deadlineMs)
    throw new DeadlineExceeded(shown, cwd, options.deadlineMs, result.output);
  if (ran.status === 127 || ran.status === 126)
    throw new Error(`\`${shown}\` (in ${cwd}) could not start: ${stderr.trim() || `exit ${ran.status}`}`);
  if ((ran.status !== 0 || ran.signal) && !options.allowFailure) throw new CommandFailed(shown, cwd, result);
  return result;
}
