/**
 * `npm run demo` end to end, in its quick mode (the suite already built dist/): deploy, a dashboard
 * change, `cdnstream drift` naming it (exit 2), reconverge, all through the real CLI. Run twice
 * on one state directory, as a user would: first with `--keep` and the key from the environment,
 * then again with a generated key, which must stop the kept emulator and start afresh.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";
import { alive } from "../../scripts/demo/emulator";
import { expectedCliVersion, repoRoot } from "../helpers/engine";

const stackName = `e2e-${crypto.randomBytes(4).toString("hex")}`;
const stateDir = path.join(repoRoot, ".tmp", "e2e", `demo-${stackName}`);

interface DemoRun {
  code: number | null;
  out: string;
}

/** `node scripts/demo.js --quick ...` with stdout and stderr interleaved, as a terminal shows them. */
async function demo(args: string[], env: NodeJS.ProcessEnv): Promise<DemoRun> {
  // A demo run: an up, a drift check, a destroy; a minute on a busy machine, inside the test's timeout.
  const ran = await runCommand(
    process.execPath,
    [path.join(repoRoot, "scripts", "demo.js"), "--quick", "--stack", stackName, "--dir", stateDir, ...args],
    { cwd: repoRoot, env, deadlineMs: 4 * 60_000, allowFailure: true },
  );
  return { code: ran.status, out: ran.output };
}

const emulatorPid = (out: string) => Number(/\] emulator\n {6}-> http:\/\/127\.0\.0\.1:\d+ \(pid (\d+)/.exec(out)?.[1]);

describe("npm run demo", () => {
  const pids: number[] = [];
  afterAll(() => {
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGTERM");
    fs.rmSync(stateDir, { recursive: true, force: true });
    fs.rmSync(path.join(repoRoot, `Pulumi.${stackName}.yaml`), { force: true });
  });

  it("deploys, names the dashboard change with exit 2, reconverges, and --keep leaves a stack to explore", async () => {
    const apiKey = `demo-e2e-${crypto.randomBytes(16).toString("hex")}`;
    const run = await demo(["--keep"], { ...process.env, CDNSTREAM_API_KEY: apiKey });
    const pid = emulatorPid(run.out);
    pids.push(pid);
    expect(run.out).not.toContain(apiKey);
    expect(run.out).toContain("API key from CDNSTREAM_API_KEY (never shown)");
    expect(run.code).toBe(0);

    // Every kind deployed, with outputs printed.
    for (const kind of [
      "PushZoneSettings",
      "VodPullDomainLock",
      "HttpDomainLockBulk",
      "StreamStatus",
      "TimeshiftStream",
      "AdBreakSlot",
      "CampaignArchive",
    ]) {
      expect(run.out).toMatch(new RegExp(`\\+ created  cdnstream:${kind} `));
    }
    expect(run.out).toContain("-> 10 created");
    expect(run.out).toMatch(/adBreaks +\["preroll 30s","midroll @600s 90s","postroll 60s"\]/);
    expect(run.out).toMatch(/retiredCampaign +"Morning Roast Launch \(Bluefin Coffee\): archived"/);
    // The drift check names exactly the changed resource and property; up undoes it.
    expect(run.out).toContain(`$ cdnstream drift --cwd . --stack ${stackName}`);
    expect(run.out).toContain(
      "drift: vod-catalog-lock (cdnstream:VodPullDomainLock): enabled recorded true, live false",
    );
    expect(run.out).toContain("-> exit 2: drift in vod-catalog-lock.enabled, exactly the change made");
    expect(run.out).toMatch(/~ updated {2}cdnstream:VodPullDomainLock {2}vod-catalog-lock \[enabled\]/);
    expect(run.out).toContain("-> 1 updated");
    // Progress: numbered steps, each heading printed when the step starts, what ensure-pulumi
    // says streamed under it, then the outcome with its time; quick mode skips the build and
    // the final check.
    expect(run.out).toMatch(
      new RegExp(
        `^\\[1/10\\] engine\\n {6}ensure-pulumi \\[\\d+s\\]: .*\\n(?: {6}.*\\n)* {6}-> pulumi v${expectedCliVersion().replace(/\./g, "\\.")} from .* \\(\\d+\\.\\d+s\\)$`,
        "m",
      ),
    );
    for (const step of ["fresh state", "package", "emulator", "stack", "dashboard change", "drift check", "keep"])
      expect(run.out).toMatch(new RegExp(`^\\[\\d+/10\\] ${step}$`, "m"));
    expect(run.out).not.toContain("drift check again");
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, "drift-1.json"), "utf8")).drifted).toBe(true);

    // --keep: the emulator still answers, and the printed environment reaches the stack with the CLI.
    expect(alive(pid)).toBe(true);
    expect(run.out).toContain(`pulumi stack output --stack ${stackName}`);
    expect(run.out).toContain(`cdnstream drift --cwd . --stack ${stackName}`);
    expect(run.out).toMatch(/curl -s -X POST http:\/\/127\.0\.0\.1:\d+\/__emulator\/mutate/);
    const exported = Object.fromEntries(
      [...run.out.matchAll(/(PULUMI_[A-Z_]+)="?([^"\s]+)"?/g)].map((m) => [m[1], m[2]]),
    );
    expect(Object.keys(exported).sort()).toEqual([
      "PULUMI_BACKEND_URL",
      "PULUMI_CONFIG_PASSPHRASE",
      "PULUMI_HOME",
      "PULUMI_SKIP_UPDATE_CHECK",
    ]);
    const output = await runCommand("pulumi", ["stack", "output", "--json", "--stack", stackName], {
      cwd: repoRoot,
      env: { ...process.env, ...exported },
      deadlineMs: 2 * 60_000,
      allowFailure: true,
    });
    expect(output.stderr).toBe("");
    expect(JSON.parse(output.stdout).retiredCampaign).toBe("Morning Roast Launch (Bluefin Coffee): archived");
    // The key was never written: not to state, not to the stack's settings file.
    const state = fs.readFileSync(
      path.join(stateDir, "backend", ".pulumi", "stacks", "cdnstream-demo", `${stackName}.json`),
      "utf8",
    );
    expect(state).not.toContain(apiKey);
    expect(fs.readFileSync(path.join(repoRoot, `Pulumi.${stackName}.yaml`), "utf8")).not.toContain(apiKey);
    expect(fs.existsSync(path.join(stateDir, "api-key"))).toBe(false);
  });

  it("runs again on the same state: stops the kept emulator, starts afresh with a generated key, stops its own", async () => {
    const kept = pids[0]!;
    const env = { ...process.env };
    delete env.CDNSTREAM_API_KEY;
    const run = await demo([], env);
    const pid = emulatorPid(run.out);
    pids.push(pid);
    const generated = fs.readFileSync(path.join(stateDir, "api-key"), "utf8").trim();
    expect(generated).toMatch(/^demo_[0-9a-f]{48}$/);
    expect(run.out).not.toContain(generated);
    expect(run.out).toContain("API key generated for this run (never shown)");
    expect(run.code).toBe(0);
    expect(run.out).toContain(`previous run's state removed, its kept emulator (pid ${kept}) stopped`);
    expect(alive(kept)).toBe(false);
    expect(run.out).toContain("-> 10 created"); // a fresh stack, not an update of the old one
    expect(run.out).toContain("-> exit 2: drift in vod-catalog-lock.enabled");
    expect(run.out).toMatch(/\] stop\n {6}-> emulator stopped/);
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(path.join(stateDir, "emulator.pid"))).toBe(false);
  });

  it("leaves the repository lint-clean: `npm test` lints after a demo run, and the compiled program is ignored", async () => {
    // The demo compiled its program (tsc's layout, which Prettier and ESLint would both flag).
    const built = path.join(repoRoot, "examples", "demo", "bin", "index.js");
    expect(fs.existsSync(built)).toBe(true);
    // Prettier or ESLint over the whole repository: under a minute.
    const npx = (args: string[]) =>
      runCommand("npx", args, {
        cwd: repoRoot,
        env: { ...process.env, NO_COLOR: "1" },
        deadlineMs: 5 * 60_000,
        allowFailure: true,
      });
    // Every top-level entry but those .gitignore lists, where the suites running beside this one
    // create and delete files: the smoke test's stack settings (Pulumi.<stack>.yaml) come and go
    // at the top level, and an entry named here but gone when Prettier expands it fails the check
    // with exit 2 ("No files matching the pattern"). The newest CI leg's copy has no .git, so the
    // patterns are read here rather than asked of git (the file's top-level lines are names and
    // globs).
    const ignoredAtTop = fs
      .readFileSync(path.join(repoRoot, ".gitignore"), "utf8")
      .split("\n")
      .map((line) => line.trim().replace(/^\//, "").replace(/\/$/, ""))
      .filter((line) => line !== "" && !line.startsWith("#"));
    const entries = fs
      .readdirSync(repoRoot)
      .filter((name) => name !== ".git" && !ignoredAtTop.some((pattern) => path.matchesGlob(name, pattern)));
    expect(entries).toEqual(expect.arrayContaining(["examples", "provider", "kinds"]));
    expect(entries).not.toContain("dist");
    const prettier = await npx(["prettier", "--check", "--ignore-unknown", ...entries]);
    expect(prettier.stdout + prettier.stderr).not.toMatch(/examples\/demo\/bin/);
    // Status and output together: a failure shows which files the check flagged, or why it erred.
    expect({ status: prettier.status, output: prettier.stdout + prettier.stderr }).toEqual({
      status: 0,
      output: expect.stringMatching(/All matched files use Prettier code style!/),
    });
    const eslint = await npx(["eslint", "."]);
    expect(eslint.stdout).toBe("");
    expect(eslint.status).toBe(0);
    // Ignored, not merely clean: the file itself is named and both tools skip it.
    const named = await npx(["eslint", built]);
    expect(named.stdout + named.stderr).toMatch(/File ignored because of a matching ignore pattern/);
    const info = await npx(["prettier", "--file-info", built]);
    expect(JSON.parse(info.stdout)).toMatchObject({ ignored: true });
  });
});
