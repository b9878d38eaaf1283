/**
 * The GitOps example's workflow (examples/gitops/.github/workflows/cdnstream.yml) as a team runs
 * it: each job on a runner of its own, with its own checkout at its own path and its own
 * `npm ci`, all sharing one state backend, Pulumi's PostgreSQL backend
 * (`PULUMI_BACKEND_URL=postgres://…`, table `pulumi_state`), on a real PostgreSQL server that the
 * suite starts (test/helpers/postgres.ts, scripts/ensure-postgres), and one emulator.
 *
 * The jobs' steps are read from the workflow file, never retyped: the job an event runs is the
 * one whose `if:` admits the event, its `run:` steps run with bash as GitHub runs them (with
 * $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY), its `${{ env.* }}` and `${{ secrets.* }}` are filled
 * in, and its `pulumi/actions` steps run as that action runs them (test/helpers/pulumi-action.js;
 * the project's program runs inline there, since the engine built for the tests has no Node.js
 * language host).
 * What cannot run here, and what stands in for it:
 *   - actions/checkout: `git clone` of the team's repository (a bare repository made from this
 *     checkout's HEAD, with the team's commits on top), then fetch and checkout of the job's
 *     ref; a runner's later jobs keep its workspace, not cleaned, so each runner installs once
 *     and later jobs skip `npm ci` while package-lock.json is unchanged;
 *   - `npm ci` (in PROJECT_DIR, examples/gitops): runs where this repository locks the example's
 *     dependencies, the root of the checkout; pulumi-cdnstream is not on the registry yet, so the
 *     packed package (the e2e global setup's) is then put into the checkout's node_modules with
 *     its commands linked, as npm would install it;
 *   - actions/setup-node: this leg's Node.js on PATH (the workflow asks for 24);
 *   - steps that call GitHub (`gh issue ...`): not run; the suite checks which of them the step
 *     outputs select.
 * PROJECT_DIR is set to examples/gitops, as the workflow's header tells a team to.
 *
 * The story, one stack shared by the cases in order (each case starts from where the last ended):
 *   1. the stack is created once on a laptop and committed; runner B deploys main; a pull
 *      request (a new domain, a replay stream with a secret token key) is previewed on runner A
 *      and applied on merge by runner B;
 *   2. someone changes a lock in the dashboard (the emulator's admin API): runner C's nightly
 *      `cdnstream drift` exits 2 naming the property, runner B's next `up` with refresh (the up
 *      job re-run with the action's `refresh: true`) repairs it, the next check exits 0;
 *   3. while runner B's `up` runs (slowed by the emulator), a second `up` on runner A is refused
 *      by the backend's lock, naming it; B's `up` completes and nothing is lost;
 *   4. runner B is killed (SIGKILL, every process of it) in the middle of an `up` that creates a
 *      timeshift stream; docs/recovery.md, followed as written (its shared-backend section), brings
 *      the stack back, and the emulator's request log shows the stream was created once;
 *   5. every table of the database holds neither the API key nor the secret config value.
 */
import { spawn, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { run as runCommand } from "../../scripts/child";
import { repoRoot } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { installedPackageDir } from "../helpers/package";
import { startPostgres, type TestPostgres } from "../helpers/postgres";

const yaml: { load(text: string): any } = require("js-yaml");

const PROJECT_DIR = "examples/gitops";
const WORKFLOW_FILE = path.join(repoRoot, PROJECT_DIR, ".github", "workflows", "cdnstream.yml");
const ACTION = path.join(__dirname, "..", "helpers", "pulumi-action.js");
const CREATE_STREAM = "POST /v2/streams/timeshift/new";
/** How long to wait for the engine or the emulator before failing: a guard against hanging only. */
const GUARD_MS = 120_000;

/** One line of the suite's transcript. */
const say = (line: string) => process.stdout.write(`gitops │ ${line}\n`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

// ---- the workflow file ----

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Job {
  if: string;
  steps: Step[];
  defaults?: { run?: { "working-directory"?: string } };
}
const workflow: { env: Record<string, string>; jobs: Record<string, Job> } = yaml.load(
  fs.readFileSync(WORKFLOW_FILE, "utf8"),
);

type GitHubEvent = "pull_request" | "push" | "schedule";

/**
 * The job an event runs: the one whose `if:` admits it: `github.event_name == '…'` terms, each
 * perhaps with `&& inputs.<name> == ''` (or `!= ''`), joined by `||`. The events run here carry no inputs.
 */
function jobFor(event: GitHubEvent): [string, Job] {
  const admits = (condition: string) =>
    condition.split("||").some((term) =>
      term.split("&&").every((part) => {
        const match = /^\s*github\.event_name == '(\w+)'\s*$/.exec(part);
        if (match) return match[1] === event;
        const input = /^\s*inputs\.[\w-]+ (==|!=) ''\s*$/.exec(part);
        if (input) return input[1] === "==";
        throw new Error(`${WORKFLOW_FILE}: this suite cannot evaluate the job condition "${condition}"`);
      }),
    );
  const jobs = Object.entries(workflow.jobs).filter(([, job]) => admits(job.if));
  if (jobs.length !== 1) throw new Error(`${WORKFLOW_FILE}: ${jobs.length} jobs run on ${event}, expected one`);
  return jobs[0];
}

/** Fills in `${{ secrets.X }}` and `${{ env.X }}`; any other expression fails, naming it. */
function expand(text: string, secrets: Record<string, string>, env: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => {
    const secret = /^secrets\.(\w+)$/.exec(expression);
    if (secret) return secrets[secret[1]] ?? "";
    const variable = /^env\.(\w+)$/.exec(expression);
    if (variable && variable[1] in env) return env[variable[1]];
    throw new Error(`${WORKFLOW_FILE}: this suite cannot evaluate \${{ ${expression} }}`);
  });
}

/** A step's `if:` of the form `steps.<id>.outputs.<name> == '<value>'`; no `if:` always runs. */
function stepRuns(condition: string | undefined, outputs: Record<string, Record<string, string>>): boolean {
  if (condition === undefined) return true;
  const match = /^steps\.([\w-]+)\.outputs\.([\w-]+) == '([^']*)'$/.exec(condition.trim());
  if (!match) throw new Error(`${WORKFLOW_FILE}: this suite cannot evaluate the step condition "${condition}"`);
  return outputs[match[1]]?.[match[2]] === match[3];
}

const stepLabel = (step: Step) => step.name ?? step.uses ?? step.run!.split("\n")[0];

// ---- git: the team's repository ----

const gitEnv = {
  GIT_AUTHOR_NAME: "Northwind Platform",
  GIT_AUTHOR_EMAIL: "platform@northwind.example",
  GIT_COMMITTER_NAME: "Northwind Platform",
  GIT_COMMITTER_EMAIL: "platform@northwind.example",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/**
 * How long one git command may take: a clone or fetch of a local repository, seconds. git runs
 * synchronously (its answers are read inline), which blocks nothing: the emulator is not its peer.
 */
const GIT_TIMEOUT_MS = 2 * 60_000;

/** How long a workflow step may take (a runner's `timeout-minutes`): an `npm ci` or an `up`, a minute or two. */
const STEP_DEADLINE_MS = 4 * 60_000;

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...gitEnv },
    timeout: GIT_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  if (result.error)
    throw new Error(`git ${args.join(" ")} in ${cwd}: ${result.error.message} (deadline ${GIT_TIMEOUT_MS / 1000} s)`);
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} in ${cwd} failed:\n${result.stderr}`);
  return result.stdout.trim();
}

/**
 * The team's repository, bare, with `main` at this checkout's HEAD. A checkout without .git (CI's
 * newest leg works in a copy of the tracked and untracked files) is committed as it is.
 */
function makeOrigin(base: string): string {
  const origin = path.join(base, "origin.git");
  if (
    spawnSync("git", ["-C", repoRoot, "rev-parse", "--verify", "HEAD"], { stdio: "ignore", timeout: GIT_TIMEOUT_MS })
      .status === 0
  ) {
    git(base, "clone", "--quiet", "--bare", repoRoot, origin);
    git(origin, "update-ref", "refs/heads/main", "HEAD");
  } else {
    git(base, "init", "--quiet", "--bare", origin);
    git(origin, "--work-tree", repoRoot, "add", "--all");
    git(origin, "--work-tree", repoRoot, "commit", "--quiet", "-m", "The project as checked out");
    git(origin, "update-ref", "refs/heads/main", "HEAD");
  }
  git(origin, "symbolic-ref", "HEAD", "refs/heads/main");
  return origin;
}

// ---- processes ----

interface Proc {
  pid: number;
  argv: string[];
}

/** Live processes whose environment holds `marker` (`NAME=value`). */
function processesWith(marker: string): Proc[] {
  const found: Proc[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(marker)) continue;
      if (/\) Z /.test(fs.readFileSync(`/proc/${entry}/stat`, "utf8"))) continue;
      found.push({ pid: Number(entry), argv: fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0") });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** Polls `check` until it holds, failing with `what` after the guard time. */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + GUARD_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---- runners ----

interface StepResult {
  label: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

interface JobResult {
  runner: string;
  job: string;
  sha: string;
  ok: boolean;
  steps: StepResult[];
  /** Steps that call GitHub, which the step outputs selected (not run here). */
  github: string[];
  outputs: Record<string, Record<string, string>>;
  /** The pulumi/actions step's output. */
  pulumi: string;
}

/** The engine's directory on PATH (the e2e global setup put it there). */
const engineBin = () => {
  const dir = (process.env.PATH ?? "").split(path.delimiter).find((d) => fs.existsSync(path.join(d, "pulumi")));
  if (!dir)
    throw new Error(
      "No `pulumi` on PATH: run this suite through jest's e2e project (its global setup builds the CLI).",
    );
  return dir;
};

/**
 * A machine with its own checkout of the team's repository: a CI runner, or the laptop the stack
 * is created and recovered from. Everything it runs carries RUNNER_TEMP=<its temp dir>, which is
 * how its processes are found when the machine is "lost".
 */
class Machine {
  readonly dir: string;
  readonly workspace: string;
  readonly temp: string;
  /** package-lock.json's hash when this machine last installed; later jobs skip `npm ci` while it is unchanged. */
  private installedLock?: string;
  private steps = 0;
  readonly transcript: string[] = [];

  constructor(
    readonly name: string,
    base: string,
    private readonly origin: string,
    private readonly secrets: Record<string, string>,
  ) {
    this.dir = path.join(base, name);
    this.workspace = path.join(this.dir, "_work", "northwind-cdn");
    this.temp = path.join(this.dir, "_temp");
    fs.mkdirSync(this.temp, { recursive: true });
  }

  /** The environment of a fresh machine: PATH with Node.js, the CLI and the checkout's own SDK plugin; its own PULUMI_HOME. */
  env(): Record<string, string> {
    return {
      PATH: [
        path.dirname(process.execPath),
        engineBin(),
        path.join(this.workspace, "node_modules", "@pulumi", "pulumi"),
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      ].join(path.delimiter),
      HOME: process.env.HOME ?? os.homedir(),
      LANG: "C.UTF-8",
      CI: "true",
      RUNNER_NAME: this.name,
      RUNNER_TEMP: this.temp,
      GITHUB_WORKSPACE: this.workspace,
      PULUMI_HOME: path.join(this.dir, ".pulumi"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      // What setup-node's npm cache gives a hosted runner: installs from the cache.
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    };
  }

  /** actions/checkout: clone once, then fetch and check out the ref's commit. */
  checkout(ref: string): string {
    if (!fs.existsSync(this.workspace)) git(this.dir, "clone", "--quiet", this.origin, this.workspace);
    git(this.workspace, "fetch", "--quiet", "--prune", "origin");
    git(this.workspace, "checkout", "--quiet", "--force", "--detach", `origin/${ref}`);
    return git(this.workspace, "rev-parse", "--short", "HEAD");
  }

  /**
   * The workflow's `npm ci` step, run where this repository locks the example's dependencies
   * (the nearest package-lock.json above the step's directory), then the packed package
   * installed beside them. Skipped while this machine's install is of the same lock.
   */
  async npmCi(step: Step, directory: string, env: Record<string, string>): Promise<StepResult> {
    let dir = directory;
    while (!fs.existsSync(path.join(dir, "package-lock.json")) && dir !== this.workspace) dir = path.dirname(dir);
    const lock = crypto
      .createHash("sha256")
      .update(fs.readFileSync(path.join(dir, "package-lock.json")))
      .digest("hex");
    if (lock === this.installedLock)
      return { label: "npm ci (skipped: package-lock.json unchanged)", code: 0, signal: null, output: "" };
    const started = Date.now();
    const result = await this.run(step.run!, dir, env);
    if (result.code === 0) {
      installPackedPackage(dir);
      this.installedLock = lock;
    }
    return { ...result, label: `npm ci in ${path.relative(this.workspace, dir) || "."} (${seconds(started)})` };
  }

  /** Runs a `run:` script as GitHub does (`bash -e <file>`), in its own process group. */
  run(script: string, cwd: string, env: Record<string, string>): Promise<StepResult> {
    const file = path.join(this.temp, `step-${++this.steps}.sh`);
    fs.writeFileSync(file, script);
    return this.spawn("bash", ["-e", file], cwd, env, script.split("\n")[0]);
  }

  spawn(command: string, args: string[], cwd: string, env: Record<string, string>, label: string): Promise<StepResult> {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    // A step's deadline, as a runner's `timeout-minutes`: an `npm ci` or an `up`, a minute or two
    // here; at the deadline the step's process group is killed and the step fails naming itself.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone already
      }
    }, STEP_DEADLINE_MS);
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        this.transcript.push(output);
        if (timedOut)
          reject(
            new Error(
              `\`${command} ${args.join(" ")}\` (${label}, in ${cwd}) did not exit within its deadline of ${STEP_DEADLINE_MS / 60_000} min: its process group was killed. Its output so far:\n${output}`,
            ),
          );
        else resolve({ label, code, signal, output });
      });
    });
  }

  /**
   * A `pulumi` command as a person types it, in the project directory of this machine's checkout.
   * Never spawnSync: the emulator answers from this process, which must keep running meanwhile.
   */
  pulumi(...args: string[]): Promise<StepResult> {
    const env = { ...this.env(), ...this.secretEnv() };
    return this.spawn("pulumi", [...args, "--non-interactive"], path.join(this.workspace, PROJECT_DIR), env, args[0]);
  }

  /** The secrets a team member has in their shell: the backend, the passphrase, the key. */
  secretEnv(): Record<string, string> {
    return {
      PULUMI_BACKEND_URL: this.secrets.PULUMI_BACKEND_URL,
      PULUMI_CONFIG_PASSPHRASE: this.secrets.PULUMI_CONFIG_PASSPHRASE,
      CDNSTREAM_API_KEY: this.secrets.CDNSTREAM_API_KEY,
    };
  }

  /** Every process of this machine still alive. */
  processes(): Proc[] {
    return processesWith(`RUNNER_TEMP=${this.temp}`);
  }

  /** The machine is lost: SIGKILL to every process it runs, at once. Resolves once they are gone. */
  async lose(): Promise<Proc[]> {
    const procs = this.processes();
    for (const p of procs) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    await until(`${this.name}'s processes to exit`, () => this.processes().length === 0);
    return procs;
  }

  /**
   * Runs the job `event` triggers, on `ref`, step by step as the workflow file lists them;
   * `extraInputs` adds inputs to its pulumi/actions step (a re-run with `refresh: true`).
   */
  async job(event: GitHubEvent, ref: string, extraInputs: Record<string, string> = {}): Promise<JobResult> {
    const [name, job] = jobFor(event);
    const started = Date.now();
    const env: Record<string, string> = { ...this.env() };
    for (const [key, value] of Object.entries(workflow.env)) env[key] = expand(String(value), this.secrets, env);
    env.PROJECT_DIR = PROJECT_DIR;
    const result: JobResult = {
      runner: this.name,
      job: name,
      sha: "",
      ok: true,
      steps: [],
      github: [],
      outputs: {},
      pulumi: "",
    };
    for (const step of job.steps) {
      if (!stepRuns(step.if, result.outputs)) continue;
      const action = step.uses?.split("@")[0];
      const workDir = path.join(
        this.workspace,
        expand(step["working-directory"] ?? job.defaults?.run?.["working-directory"] ?? ".", this.secrets, env),
      );
      // A step's own env is filled in only for steps that run (those calling GitHub name its token).
      const stepEnv = () => ({
        ...env,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, this.secrets, env)])),
      });
      let done: StepResult;
      if (action === "actions/checkout") {
        result.sha = this.checkout(ref);
        done = { label: `checkout ${ref} @ ${result.sha}`, code: 0, signal: null, output: "" };
      } else if (action === "actions/setup-node") {
        done = { label: `node ${process.version}`, code: 0, signal: null, output: "" };
      } else if (action === "pulumi/actions") {
        const inputs = { ...(step.with ?? {}), ...extraInputs };
        if (!inputs.command) {
          // Without a command the action only installs the CLI: this machine has it on PATH.
          const version = (
            await runCommand("pulumi", ["version"], { env: stepEnv(), deadlineMs: 60_000, allowFailure: true })
          ).stdout.trim();
          done = {
            label: `pulumi/actions (install only): pulumi ${version}`,
            code: version ? 0 : 1,
            signal: null,
            output: "",
          };
        } else {
          const inputEnv = Object.fromEntries(
            Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, expand(String(v), this.secrets, env)]),
          );
          done = await this.spawn(process.execPath, [ACTION], this.workspace, { ...stepEnv(), ...inputEnv }, "");
          result.pulumi = done.output;
          const summary = resourceSummary(done.output);
          const error = /^error: (.*?)(\.|$)/m.exec(done.output)?.[1];
          done.label = `pulumi/actions ${String(inputs.command)}${extraInputs.refresh ? " (refresh: true)" : ""}: ${
            summary ? formatSummary(summary) : done.signal ? "killed" : (error ?? "no summary")
          }`;
        }
      } else if (action === "actions/upload-artifact") {
        // Kept as GitHub keeps it: here, the file must be there (`if-no-files-found: error`).
        const file = path.join(this.workspace, expand(String(step.with?.path), this.secrets, env));
        const found = fs.existsSync(file);
        done = {
          label: `upload-artifact ${String(step.with?.name)}${found ? "" : " (no file)"}`,
          code: found ? 0 : 1,
          signal: null,
          output: "",
        };
      } else if (step.run && /(^|\n)\s*[^#\n]*\bgh (issue|pr|api)\b/.test(step.run)) {
        result.github.push(stepLabel(step));
        continue;
      } else if (step.run?.trim() === "npm ci") {
        done = await this.npmCi(step, workDir, stepEnv());
      } else if (step.run) {
        const outputFile = path.join(this.temp, `output-${this.steps + 1}`);
        fs.writeFileSync(outputFile, "");
        done = await this.run(step.run, workDir, {
          ...stepEnv(),
          GITHUB_OUTPUT: outputFile,
          GITHUB_STEP_SUMMARY: path.join(this.temp, `summary-${this.steps + 1}`),
        });
        done.label = stepLabel(step);
        if (step.id) {
          result.outputs[step.id] = Object.fromEntries(
            fs
              .readFileSync(outputFile, "utf8")
              .split("\n")
              .filter((line) => line.includes("="))
              .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
          );
        }
      } else {
        throw new Error(`${WORKFLOW_FILE}: this suite does not know how to run the step "${stepLabel(step)}"`);
      }
      result.steps.push(done);
      if (done.code !== 0) {
        result.ok = false;
        break;
      }
    }
    const last = result.steps[result.steps.length - 1];
    say(
      `${this.name}: ${event} → job ${name} @ ${result.sha}: ${result.steps.map((s) => s.label).join("; ")}` +
        `${result.github.length ? `; GitHub: ${result.github.join(", ")}` : ""} — ${
          result.ok ? "succeeded" : `FAILED (${last.signal ?? `exit ${last.code}`})`
        } in ${seconds(started)}`,
    );
    return result;
  }
}

/** pulumi-cdnstream as npm installs it into `dir`: the packed package under node_modules, its `bin` linked. */
function installPackedPackage(dir: string): void {
  const modules = path.join(dir, "node_modules");
  const target = path.join(modules, "pulumi-cdnstream");
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(installedPackageDir, target, { recursive: true });
  const bins: Record<string, string> = JSON.parse(fs.readFileSync(path.join(target, "package.json"), "utf8")).bin;
  fs.mkdirSync(path.join(modules, ".bin"), { recursive: true });
  for (const [command, file] of Object.entries(bins)) {
    const link = path.join(modules, ".bin", command);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.join("..", "pulumi-cdnstream", file), link);
    fs.chmodSync(path.join(target, file), 0o755);
  }
}

/** The CLI's `Resources:` block (no colours: the action's output is not a terminal): counts by operation, `same` for unchanged. */
function resourceSummary(output: string): Record<string, number> | undefined {
  const block = /\nResources:\n((?:[ \t]+.*\n?)+)/.exec(output);
  if (!block) return undefined;
  const words: Record<string, string> = {
    "to create": "create",
    created: "create",
    "to update": "update",
    updated: "update",
    "to delete": "delete",
    deleted: "delete",
    "to replace": "replace",
    replaced: "replace",
    unchanged: "same",
  };
  const summary: Record<string, number> = {};
  for (const match of block[1].matchAll(
    /(\d+) (to create|created|to update|updated|to delete|deleted|to replace|replaced|unchanged)/g,
  ))
    summary[words[match[2]]] = Number(match[1]);
  return summary;
}

/** The resources a `--diff` preview would change, by name: `(create)`, `(update)`, ... (the action's `diff: true`). */
function resourceSteps(output: string): Record<string, string> {
  const steps: Record<string, string> = {};
  for (const match of output.matchAll(
    /^\s+[-+~]+ [^\s:]+(?::[^\s:]+)*: \((\w+)\)\n(?:\s+\[id=.*\]\n)?\s+\[urn=.*::([^\]]+)\]/gm,
  ))
    steps[match[2]] = match[1];
  return steps;
}

const formatSummary = (summary: Record<string, number>) =>
  Object.entries(summary)
    .map(([op, n]) => `${n} ${op}`)
    .join(", ");

// ---- the suite ----

describe("the GitOps workflow on three runners sharing a PostgreSQL backend", () => {
  const suiteStart = Date.now();
  let pg: TestPostgres;
  let emulator: TestEmulator;
  let base: string;
  let origin: string;
  let laptop: Machine;
  let runnerA: Machine;
  let runnerB: Machine;
  let runnerC: Machine;
  const passphrase = crypto.randomBytes(16).toString("hex");
  const tokenKey = `replay-token-${crypto.randomBytes(12).toString("hex")}`;
  const stack = workflow.env.STACK;
  // The CLI prefixes every key with the backend URL's path: here, the database's name.
  const stackKey = () => `${pg.database}/.pulumi/stacks/${projectName}/${stack}.json`;
  let projectName: string;

  /** The stack's checkpoint as the backend holds it: the row's base64 payload, decoded by the database. */
  function checkpoint(): any {
    const text = pg.psql(
      `SELECT convert_from(decode(data->>'data', 'base64'), 'UTF8') FROM pulumi_state WHERE key = '${stackKey()}'`,
    );
    return JSON.parse(text).checkpoint.latest;
  }
  const lockRows = () =>
    pg.psql(`SELECT key FROM pulumi_state WHERE key LIKE '${pg.database}/.pulumi/locks/%'`).split("\n").filter(Boolean);
  const requests = async (): Promise<{ requests: any[]; counts: Record<string, number> }> =>
    (await (await fetch(`${emulator.url}/__emulator/requests`)).json()) as any;
  const pendingFaults = async () => ((await (await fetch(`${emulator.url}/__emulator/faults`)).json()) as any).faults;
  const clearFaults = () => fetch(`${emulator.url}/__emulator/faults`, { method: "DELETE" });
  const writes = (counts: Record<string, number>) => Object.keys(counts).filter((op) => !op.startsWith("GET "));
  /** Timeshift stream ids in the account by the name the API composed (`<account prefix>-<name>`). */
  async function streamsNamed(name: string): Promise<string[]> {
    const state = await emulator.state();
    const composed = `${state.account.streamPrefix}-${name}`;
    return Object.values<any>(state.timeshiftStreams ?? {})
      .filter((s) => s.name === composed)
      .map((s) => String(s.id));
  }

  /** A change a team member makes on a branch: `pulumi config set` on the stack file, committed and pushed. */
  async function propose(
    branch: string,
    message: string,
    config: Record<string, { value: string; secret?: boolean }>,
  ): Promise<string> {
    git(laptop.workspace, "fetch", "--quiet", "origin");
    git(laptop.workspace, "checkout", "--quiet", "-B", branch, "origin/main");
    for (const [key, { value, secret }] of Object.entries(config)) {
      const set = await laptop.pulumi("config", "set", "--stack", stack, ...(secret ? ["--secret"] : []), key, value);
      expect(set.code).toBe(0);
    }
    git(laptop.workspace, "commit", "--quiet", "--allow-empty", "-am", message);
    git(laptop.workspace, "push", "--quiet", "--force", "origin", `HEAD:refs/heads/${branch}`);
    const sha = git(laptop.workspace, "rev-parse", "--short", "HEAD");
    say(`laptop: branch ${branch} @ ${sha} "${message}" (${Object.keys(config).join(", ")})`);
    return sha;
  }
  /** The pull request merged: main fast-forwards to the branch. */
  function merge(branch: string): void {
    git(origin, "update-ref", "refs/heads/main", `refs/heads/${branch}`);
    say(`merge: main → ${git(origin, "rev-parse", "--short", "main")} (${branch})`);
  }

  /**
   * Runner output with the backend URL taken out. `pulumi login` prints the URL it logs in to,
   * password included; GitHub masks that (a secret's whole value) in the job's log. The password
   * must appear nowhere else.
   */
  const withoutMaskedUrl = (text: string) => text.split(pg.backendUrl).join("***");

  beforeAll(async () => {
    pg = await startPostgres();
    emulator = await startTestEmulator();
    base = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-gitops-"));
    const secrets = {
      CDNSTREAM_API_KEY: emulator.apiKey,
      PULUMI_CONFIG_PASSPHRASE: passphrase,
      PULUMI_BACKEND_URL: pg.backendUrl,
    };
    say(
      `postgres: ${pg.version} on 127.0.0.1:${pg.port} as OS user ${pg.runsAs}; backend ${pg.backendUrl.replace(pg.password, "****")}`,
    );
    origin = makeOrigin(base);
    say(`origin: ${origin} (main @ ${git(origin, "rev-parse", "--short", "main")}, this checkout's HEAD)`);

    // The stack is created once, from a laptop, and its config file committed (the workflow's header).
    laptop = new Machine("laptop", base, origin, secrets);
    git(laptop.dir, "clone", "--quiet", origin, laptop.workspace);
    projectName = yaml.load(fs.readFileSync(path.join(laptop.workspace, PROJECT_DIR, "Pulumi.yaml"), "utf8")).name;
    for (const args of [
      ["login", pg.backendUrl],
      ["stack", "init", stack],
      ["config", "set", "--stack", stack, "cdnstream:baseUrl", emulator.url],
    ]) {
      const done = await laptop.pulumi(...args);
      if (done.code !== 0) throw new Error(`laptop: pulumi ${args.join(" ")} failed:\n${done.output}`);
    }
    git(laptop.workspace, "add", path.join(PROJECT_DIR, `Pulumi.${stack}.yaml`));
    git(laptop.workspace, "commit", "--quiet", "-m", `Create the ${stack} stack`);
    git(laptop.workspace, "push", "--quiet", "origin", "HEAD:main");
    say(
      `laptop: pulumi login, stack init ${stack}, config set cdnstream:baseUrl; pushed to main @ ${git(origin, "rev-parse", "--short", "main")}`,
    );

    // Three runners, each with its own checkout and install (in parallel, as idle runners would be).
    [runnerA, runnerB, runnerC] = ["runner-a", "runner-b", "runner-c"].map(
      (name) => new Machine(name, base, origin, secrets),
    );
    const started = Date.now();
    const [, preview] = jobFor("pull_request");
    const npmStep = preview.steps.find((s) => s.run?.trim() === "npm ci")!;
    await Promise.all(
      [runnerA, runnerB, runnerC].map(async (runner) => {
        runner.checkout("main");
        const env = { ...runner.env(), PROJECT_DIR };
        const done = await runner.npmCi(npmStep, path.join(runner.workspace, PROJECT_DIR), env);
        if (done.code !== 0) throw new Error(`${runner.name}: npm ci failed:\n${done.output}`);
        say(`${runner.name}: checkout at ${runner.workspace}; ${done.label}`);
      }),
    );
    // The laptop's own install: a hard-linked copy of one runner's, to spare a fourth npm ci.
    await runCommand(
      "cp",
      ["-al", path.join(runnerA.workspace, "node_modules"), path.join(laptop.workspace, "node_modules")],
      {
        deadlineMs: 5 * 60_000,
      },
    );
    say(`setup: ${seconds(suiteStart)} (installs ${seconds(started)})`);
  }, 600_000);

  // A case that failed half-way may leave faults pending: the next starts without them.
  beforeEach(() => clearFaults());

  afterAll(async () => {
    for (const machine of [runnerA, runnerB, runnerC, laptop]) if (machine) await machine.lose().catch(() => undefined);
    await emulator?.close();
    await pg?.stop();
    if (base) fs.rmSync(base, { recursive: true, force: true });
    say(`suite: ${seconds(suiteStart)}`);
  });

  it("previews a pull request on runner A and applies it on merge on runner B, each from its own checkout", async () => {
    // The first push after the stack was created deploys main.
    const first = await runnerB.job("push", "main");
    expect(first.ok).toBe(true);
    expect(resourceSummary(first.pulumi)).toEqual({ create: 4 });
    expect(checkpoint().resources.map((r: any) => r.type.split("/").pop())).toEqual(
      expect.arrayContaining(["cdnstream:HttpDomainLockBulk", "cdnstream:VodPullDomainLock"]),
    );

    await propose("add-replay", "Let the embed player in; an evening replay of the main event", {
      "cdnstream-gitops:playerDomains": {
        value: JSON.stringify(["player.northwind.example", "*.northwind.example", "embed.northwind.example"]),
      },
      "cdnstream-gitops:replays": { value: JSON.stringify([{ name: "evening", parent: 3001, delaySeconds: 10800 }]) },
      "cdnstream-gitops:replayTokenKey": { value: tokenKey, secret: true },
    });
    const stackFile = git(laptop.workspace, "show", `HEAD:${PROJECT_DIR}/Pulumi.${stack}.yaml`);
    expect(stackFile).toMatch(/replayTokenKey:\n\s+secure: v1:/);
    expect(stackFile).not.toContain(tokenKey);

    // The pull request's preview: the change, and nothing written, here or in the account.
    const before = pg.psql(`SELECT md5(data::text) FROM pulumi_state WHERE key = '${stackKey()}'`);
    await emulator.clearRequests();
    const preview = await runnerA.job("pull_request", "add-replay");
    expect(preview.ok).toBe(true);
    expect(resourceSummary(preview.pulumi)).toEqual({ create: 1, update: 3, same: 1 });
    expect(resourceSteps(preview.pulumi)).toEqual({
      "http-zones": "update",
      "replay-evening": "create",
      "vod-401": "update",
      "vod-402": "update",
    });
    expect(preview.pulumi).toContain('+ [2]: "embed.northwind.example"');
    expect(preview.pulumi).toMatch(/key\s+: \[secret\]/);
    expect(preview.pulumi).not.toContain(tokenKey);
    expect(writes((await requests()).counts)).toEqual([]);
    expect(pg.psql(`SELECT md5(data::text) FROM pulumi_state WHERE key = '${stackKey()}'`)).toBe(before);
    say(
      `${runnerA.name}: preview of ${Object.entries(resourceSteps(preview.pulumi))
        .map(([name, op]) => `${op} ${name}`)
        .join(", ")}; the token key shown as [secret]; no API write, the checkpoint row unchanged`,
    );

    // The merge: runner B applies it.
    merge("add-replay");
    await emulator.clearRequests();
    const up = await runnerB.job("push", "main");
    expect(up.ok).toBe(true);
    expect(resourceSummary(up.pulumi)).toEqual({ create: 1, update: 3, same: 1 });
    expect((await requests()).counts[CREATE_STREAM]).toBe(1);
    expect(await streamsNamed("evening")).toHaveLength(1);
    expect((await emulator.object("vodPullZones", 402)).domainlock.list).toContain("embed.northwind.example");
    say(
      `account: vod 402 locked to ${(await emulator.object("vodPullZones", 402)).domainlock.list}; replay evening = stream ${(await streamsNamed("evening"))[0]}`,
    );
  });

  it("checks drift nightly on runner C: exit 2 naming the property after a dashboard change, 0 after runner B's next up with refresh", async () => {
    await emulator.mutate("vodPullZones", 402, { domainlock: { list: "player.northwind.example" } });
    say("dashboard: vod 402's lock list set to player.northwind.example only");

    const drifted = await runnerC.job("schedule", "main");
    expect(drifted.ok).toBe(true); // 2 is an answer, not a failure of the job
    expect(drifted.outputs.check).toEqual({ code: "2" });
    const report = fs.readFileSync(path.join(runnerC.workspace, PROJECT_DIR, "drift.md"), "utf8");
    expect(report).toMatch(/^## Drift detected\n/);
    expect(report).toContain("| `vod-402` | `cdnstream:VodPullDomainLock` | `domains` |");
    expect(drifted.github).toEqual(["Open or update the drift issue"]);
    say(`${runnerC.name}: drift.md: ${report.split("\n").find((l) => l.includes("vod-402"))}`);

    // The drift is undone by the next up that refreshes first (the action's `refresh: true`).
    const repaired = await runnerB.job("push", "main", { refresh: "true" });
    expect(repaired.ok).toBe(true);
    expect(resourceSummary(repaired.pulumi)).toEqual({ update: 1, same: 4 });
    expect((await emulator.object("vodPullZones", 402)).domainlock.list).toContain("embed.northwind.example");

    const clean = await runnerC.job("schedule", "main");
    expect(clean.ok).toBe(true);
    expect(clean.outputs.check).toEqual({ code: "0" });
    expect(clean.github).toEqual(["Close the drift issue once the account matches again"]);
  });

  it("refuses a second up while runner B's holds the lock, naming the lock, and loses nothing", async () => {
    await propose("bypass-office", "Let the office network skip the lock", {
      "cdnstream-gitops:bypassIps": { value: JSON.stringify(["203.0.113.0/24", "198.51.100.0/24"]) },
    });
    merge("bypass-office");

    // Every API request waits 8 s: runner B's up holds the lock for a while.
    const delayed = 100_000;
    await emulator.inject({ latencyMs: 8_000, count: delayed });
    const first = runnerB.job("push", "main");
    let firstDone = false;
    void first.then(() => (firstDone = true));
    await until("runner B's up to hold the lock and reach the API", async () => {
      return lockRows().length === 1 && (await pendingFaults())[0]?.count < delayed;
    });
    const [lock] = lockRows();
    const holder = runnerB.processes().find((p) => path.basename(p.argv[0]) === "pulumi" && p.argv.includes("up"));
    say(`lock: ${lock} held by ${runnerB.name}'s pulumi (pid ${holder?.pid})`);

    // A second run on main (another runner; the workflow's concurrency group is no guard against a
    // person or another pipeline): refused before it runs anything.
    const second = await runnerA.job("push", "main");
    expect(firstDone).toBe(false);
    expect(second.ok).toBe(false);
    const refusal = new Set(
      second.pulumi
        .split("\n")
        .filter((l) => /locked by|created by/.test(l))
        .map((l) => l.trim()),
    );
    say(`${runnerA.name}: refused: ${[...refusal].join(" ⏎ ")}`);
    expect(second.pulumi).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    expect(second.pulumi).toContain("pulumi cancel");
    // It names the lock (the backend's URL with the credentials masked) and who holds it.
    expect(second.pulumi).toMatch(
      /postgres:\/\/\*\*\*\*:\*\*\*\*@127\.0\.0\.1:\d+\/pulumi_state\/\.pulumi\/locks\/organization\//,
    );
    expect(second.pulumi).toContain(`(pid ${holder!.pid})`);
    expect(withoutMaskedUrl(second.pulumi)).not.toContain(pg.password);

    // Runner B's up ends as if alone: every change applied and recorded, the lock released.
    const done = await first;
    expect(done.ok).toBe(true);
    expect(resourceSummary(done.pulumi)).toEqual({ update: 3, same: 2 });
    expect(lockRows()).toEqual([]);
    const latest = checkpoint();
    expect(latest.pending_operations ?? []).toEqual([]);
    for (const zone of [401, 402]) {
      expect((await emulator.object("vodPullZones", zone)).domainlock.ips).toContain("198.51.100.0/24");
      const recorded = latest.resources.find((r: any) => r.urn.endsWith(`::vod-${zone}`));
      expect(recorded.outputs.liveLock.ips).toContain("198.51.100.0/24");
    }
    expect(latest.resources.find((r: any) => r.urn.endsWith("::http-zones")).outputs.ips).toContain("198.51.100.0/24");
    say(`${runnerB.name}: up done, lock released; the state holds its 3 updates, no pending operation`);
  });

  it("brings back a stack whose runner was killed in the middle of an up by following docs/recovery.md: no stream created twice", async () => {
    const recovery = fs.readFileSync(path.join(repoRoot, "docs", "recovery.md"), "utf8");
    await propose("late-replay", "A late-night replay of the main event", {
      "cdnstream-gitops:replays": {
        value: JSON.stringify([
          { name: "evening", parent: 3001, delaySeconds: 10800 },
          { name: "late-show", parent: 3001, delaySeconds: 21600 },
        ]),
      },
    });
    merge("late-replay");

    // The stream's create waits 6 s in the API before it is carried out: the runner dies meanwhile.
    await emulator.clearRequests();
    await emulator.inject({ latencyMs: 6_000, count: 1, operation: CREATE_STREAM });
    const killed = runnerB.job("push", "main");
    await until("the create to reach the API and be recorded as pending", async () => {
      if ((await pendingFaults()).length !== 0) return false;
      return (checkpoint().pending_operations ?? []).some((op: any) => op.resource.urn.endsWith("::replay-late-show"));
    });
    const lost = await runnerB.lose();
    const result = await killed;
    expect(result.ok).toBe(false);
    expect(result.steps[result.steps.length - 1].signal).toBe("SIGKILL");
    say(
      `${runnerB.name}: lost mid-up (SIGKILL to ${lost.length} processes: ${[...new Set(lost.map((p) => path.basename(p.argv[0])))].join(", ")})`,
    );

    // What the loss left: a stale lock, a pending create, and (once the API has carried out the
    // request it had received) a stream the state does not know.
    await until("the API to carry out the create", async () => (await requests()).counts[CREATE_STREAM] === 1);
    const [orphan] = await streamsNamed("late-show");
    expect(orphan).toBeDefined();
    expect(lockRows()).toHaveLength(1);
    const pending = checkpoint().pending_operations.map((op: any) => `${op.type} ${op.resource.urn.split("::").pop()}`);
    expect(pending).toEqual(["creating replay-late-show"]);
    say(
      `left: lock ${lockRows()[0]}; pending ${pending.join(", ")}; stream ${orphan} in the account, not in the state`,
    );

    // The team notices: the next run is refused, naming the dead runner's lock.
    const refused = await runnerA.job("push", "main");
    expect(refused.ok).toBe(false);
    expect(refused.pulumi).toMatch(/the stack is currently locked by 1 lock\(s\)/);

    // docs/recovery.md, as written.
    expect(recovery).toMatch(/## A shared backend/);
    // Step 3: the lock is stale (its runner is gone, no job of the workflow runs): remove it.
    git(laptop.workspace, "fetch", "--quiet", "origin");
    git(laptop.workspace, "checkout", "--quiet", "--force", "--detach", "origin/main");
    expect(recovery).toContain("pulumi cancel --yes");
    const cancel = await laptop.pulumi("cancel", "--yes", "--stack", stack);
    expect(cancel.code).toBe(0);
    expect(lockRows()).toEqual([]);
    // Step 4: drop the pending create.
    expect(recovery).toContain("pulumi refresh --clear-pending-creates --yes");
    const refresh = await laptop.pulumi("refresh", "--clear-pending-creates", "--yes", "--stack", stack);
    expect(refresh.code).toBe(0);
    expect(checkpoint().pending_operations ?? []).toEqual([]);
    say(
      `laptop: pulumi cancel --yes; pulumi refresh --clear-pending-creates --yes: ${formatSummary(resourceSummary(refresh.output) ?? {})}`,
    );
    // Step 5: a preview (the pull request that will carry the adoption) names each stream to create...
    await propose("adopt-late-show", "Adopt the late-show replay the lost runner created", {});
    const preview = await runnerA.job("pull_request", "adopt-late-show");
    expect(preview.ok).toBe(true);
    expect(resourceSteps(preview.pulumi)).toEqual({ "replay-late-show": "create" });
    // ...each is looked up by name in the dashboard, and adopted.
    const found = await streamsNamed("late-show");
    expect(found).toEqual([orphan]);
    await propose("adopt-late-show", "Adopt the late-show replay the lost runner created", {
      "cdnstream-gitops:replays": {
        value: JSON.stringify([
          { name: "evening", parent: 3001, delaySeconds: 10800 },
          { name: "late-show", parent: 3001, delaySeconds: 21600, adoptId: orphan },
        ]),
      },
    });
    merge("adopt-late-show");
    // Step 6: up (the merge's), then a check that nothing differs.
    const up = await runnerB.job("push", "main");
    expect(up.ok).toBe(true);
    expect(resourceSummary(up.pulumi)).toMatchObject({ create: 1 });
    const check = await runnerC.job("schedule", "main");
    expect(check.outputs.check).toEqual({ code: "0" });

    // One stream per name, each created once: the request log holds the lost runner's create only.
    expect((await requests()).counts[CREATE_STREAM]).toBe(1);
    expect(await streamsNamed("late-show")).toEqual([orphan]);
    expect(await streamsNamed("evening")).toHaveLength(1);
    const recorded = checkpoint().resources.find((r: any) => r.urn.endsWith("::replay-late-show"));
    expect(recorded.id).toBe(orphan);
    say(`account: late-show = stream ${orphan}, created once (${CREATE_STREAM}: 1), recorded in the state`);
  });

  it("keeps no API key and no plaintext secret in any table of the database", async () => {
    const tables = pg
      .psql(
        "SELECT table_schema || '.' || table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
      )
      .split("\n")
      .filter(Boolean);
    expect(tables).toEqual(["public.pulumi_state"]);
    const keys = pg.psql("SELECT key FROM pulumi_state ORDER BY key").split("\n").filter(Boolean);

    // Every table's rows, as pg_dump writes them; the backend stores each object as
    // {"data": "<base64>"} (gzip inside when PULUMI_DIY_BACKEND_GZIP is set), so each payload is
    // decoded too: a search of the dump alone could never find a secret.
    const dump = pg.dumpData();
    const payloads = [...dump.matchAll(/\{"data"\s*:\s*"([A-Za-z0-9+/=]*)"\}/g)].map((m) => {
      const bytes = Buffer.from(m[1], "base64");
      return bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : bytes;
    });
    expect(payloads).toHaveLength(keys.length);
    const decoded = Buffer.concat(payloads).toString("latin1");
    // The search is live: a declared domain is in the decoded rows and nowhere in the raw dump,
    // and the token key is there, as ciphertext.
    expect(decoded).toContain("embed.northwind.example");
    expect(dump).not.toContain("embed.northwind.example");
    const late = checkpoint().resources.find((r: any) => r.urn.endsWith("::replay-late-show"));
    expect(JSON.stringify(late.inputs.secureToken)).toMatch(
      /"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","ciphertext":"v1:/,
    );

    const secrets = {
      "the API key": emulator.apiKey,
      "the token key (secret config)": tokenKey,
      "the passphrase": passphrase,
    };
    for (const [what, value] of Object.entries(secrets)) {
      expect(`${what}: ${dump.includes(value)}`).toBe(`${what}: false`);
      expect(`${what}: ${decoded.includes(value)}`).toBe(`${what}: false`);
    }
    // Nor do the runners' logs hold the key, the token key or the database's password.
    for (const machine of [runnerA, runnerB, runnerC]) {
      const log = withoutMaskedUrl(machine.transcript.join("\n"));
      for (const [what, value] of Object.entries({ ...secrets, "the database password": pg.password }))
        expect(`${machine.name}, ${what}: ${log.includes(value)}`).toBe(`${machine.name}, ${what}: false`);
    }
    const byKind = keys.reduce<Record<string, number>>((acc, key) => {
      const kind = key.split("/")[2] ?? key; // <database>/.pulumi/<kind>/...
      acc[kind] = (acc[kind] ?? 0) + 1;
      return acc;
    }, {});
    say(
      `tables: ${tables.join(", ")}; ${keys.length} rows (${Object.entries(byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ")}), ${dump.length} bytes dumped, ${decoded.length} decoded: no API key, token key or passphrase`,
    );
  });
});
