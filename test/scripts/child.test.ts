/**
 * Deadlines on child processes (scripts/child.ts), on real processes: a child that never exits
 * fails within its deadline and names itself, its directory, its deadline and its output so far;
 * a tree (a child with its own child, one in a session of its own) leaves nothing running; a
 * hung `npm install` followed by a good one passes with one line saying so, and a second hang
 * fails.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CommandFailed, DeadlineExceeded, run, runNpm, runNpmSync, runSync } from "../../scripts/child";

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-child-"));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A process gone or a zombie (exited, not yet reaped by whoever adopted it): nothing runs. */
function running(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Those of `pids` still running after a signal has had a moment to land (up to 2 s). */
function stillRunning(pids: number[]): number[] {
  const until = Date.now() + 2000;
  while (pids.some(running) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  return pids.filter(running);
}

/** The pids a tree's processes wrote to `file`, one a line. */
const pidsIn = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map(Number)
    .filter((pid) => pid > 0);

describe("run", () => {
  it("fails a child that never exits within its deadline, naming the command, directory, deadline and output so far", async () => {
    const started = Date.now();
    const error = await run(
      process.execPath,
      ["-e", 'console.log("waiting for nothing"); setInterval(() => {}, 1000)'],
      {
        cwd: scratch,
        deadlineMs: 1500,
      },
    ).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(DeadlineExceeded);
    const message = (error as Error).message;
    expect(message).toContain(`${process.execPath} -e`);
    expect(message).toContain(`(in ${scratch})`);
    expect(message).toContain("deadline of 1.5 s");
    expect(message).toContain("waiting for nothing");
    // The deadline, then at most the grace a stopped tree gets.
    expect(took).toBeGreaterThanOrEqual(1500);
    expect(took).toBeLessThan(1500 + 6000);
  }, 20_000);

  it("stops the whole tree: the child, its child, and one that left for a session of its own", async () => {
    const pids = path.join(scratch, "tree-pids");
    const tree = [
      `echo $$ >> ${pids}`,
      `sleep 1000 & echo $! >> ${pids}`,
      // setsid: a process group and session of its own, which a signal to the child's group misses.
      `setsid bash -c 'echo $$ >> ${pids}; sleep 1000' &`,
      "echo started",
      "wait",
    ].join("\n");
    await expect(run("bash", ["-c", tree], { cwd: scratch, deadlineMs: 1500 })).rejects.toThrow(DeadlineExceeded);
    const seen = pidsIn(pids);
    expect(seen).toHaveLength(3);
    expect(stillRunning(seen)).toEqual([]);
  }, 20_000);

  it("resolves with the output of a command that exits in time, and fails one that exits non-zero with its output", async () => {
    const done = await run("bash", ["-c", "echo out; echo err >&2"], { deadlineMs: 10_000 });
    expect(done.stdout).toBe("out\n");
    expect(done.stderr).toBe("err\n");
    const failed = await run("bash", ["-c", "echo why; exit 3"], { cwd: scratch, deadlineMs: 10_000 }).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(CommandFailed);
    expect((failed as Error).message).toMatch(/`bash -c "echo why; exit 3"` \(in .*\) exited 3:\nwhy/);
    expect((await run("bash", ["-c", "exit 3"], { deadlineMs: 10_000, allowFailure: true })).status).toBe(3);
  });
});

describe("runSync", () => {
  it("stops a tree that outlives its deadline and fails naming it", () => {
    const pids = path.join(scratch, "sync-pids");
    const started = Date.now();
    let error: unknown;
    try {
      runSync("bash", ["-c", `echo $$ >> ${pids}; sleep 1000 & echo $! >> ${pids}; echo started; wait`], {
        cwd: scratch,
        deadlineMs: 1000,
      });
    } catch (e) {
      error = e;
    }
    expect(Date.now() - started).toBeLessThan(8000);
    expect(error).toBeInstanceOf(DeadlineExceeded);
    expect((error as Error).message).toMatch(/`bash -c .*` \(in .*\) did not exit within its deadline of 1 s/);
    expect((error as Error).message).toContain("started");
    expect(stillRunning(pidsIn(pids))).toEqual([]);
  }, 20_000);
});

describe("runNpm", () => {
  /** An `npm` that hangs on its first `hangs` calls (each its own process, with a child), then succeeds. */
  function fakeNpm(name: string, hangs: number): { npm: string; pids: string } {
    const dir = path.join(scratch, name);
    fs.mkdirSync(dir);
    const pids = path.join(dir, "pids");
    const npm = path.join(dir, "npm");
    fs.writeFileSync(
      npm,
      [
        "#!/usr/bin/env bash",
        `calls=$(cat ${dir}/calls 2>/dev/null || echo 0); echo $((calls + 1)) > ${dir}/calls`,
        `if [ "$calls" -lt ${hangs} ]; then echo $$ >> ${pids}; sleep 1000 & echo $! >> ${pids}; wait; fi`,
        'echo "added 1 package: $*"',
      ].join("\n"),
      { mode: 0o755 },
    );
    return { npm, pids };
  }

  it("tries a hung install once more, saying so in one line, and passes when the second try does", async () => {
    const { npm, pids } = fakeNpm("once", 1);
    const lines: string[] = [];
    const result = await runNpm(["install", "--prefer-offline", "pkg.tgz"], {
      npm,
      cwd: scratch,
      deadlineMs: 1000,
      log: (line) => lines.push(line),
    });
    expect(result.stdout).toBe("added 1 package: install --prefer-offline pkg.tgz\n");
    expect(lines).toEqual([
      expect.stringMatching(
        /^`.*npm install --prefer-offline pkg\.tgz` \(in .*\) hung: no exit within 1 s; .*trying once more/,
      ),
    ]);
    expect(stillRunning(pidsIn(pids))).toEqual([]);
  }, 30_000);

  it("fails a second hang, naming the command and its deadline", async () => {
    const { npm, pids } = fakeNpm("twice", 2);
    const lines: string[] = [];
    const error = await runNpm(["ci"], { npm, cwd: scratch, deadlineMs: 1000, log: (line) => lines.push(line) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeadlineExceeded);
    expect((error as Error).message).toMatch(/`.*npm ci` \(in .*\) did not exit within its deadline of 1 s/);
    expect(lines).toHaveLength(1);
    expect(pidsIn(pids)).toHaveLength(4);
    expect(stillRunning(pidsIn(pids))).toEqual([]);
  }, 30_000);

  it("does the same synchronously, for the synchronous scripts (the release)", () => {
    const { npm, pids } = fakeNpm("sync", 1);
    const lines: string[] = [];
    const result = runNpmSync(["pack", "--json"], {
      npm,
      cwd: scratch,
      deadlineMs: 1000,
      log: (line) => lines.push(line),
    });
    expect(result.stdout).toBe("added 1 package: pack --json\n");
    expect(lines).toEqual([
      expect.stringMatching(/^`.*npm pack --json` \(in .*\) hung: no exit within 1 s; .*trying once more/),
    ]);
    expect(stillRunning(pidsIn(pids))).toEqual([]);
  }, 30_000);

  it("does not try again a command that is not an install or a pack", async () => {
    const { npm } = fakeNpm("ls", 1);
    const lines: string[] = [];
    await expect(
      runNpm(["ls"], { npm, cwd: scratch, deadlineMs: 1000, log: (line) => lines.push(line) }),
    ).rejects.toThrow(DeadlineExceeded);
    expect(lines).toEqual([]);
  }, 30_000);
});
