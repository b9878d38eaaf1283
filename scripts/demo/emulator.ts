/**
 * The demo's API emulator as a process of its own (./emulator-process.ts), so that `--keep` can
 * leave it running after the demo exits. Its pid is kept in the state directory: a later run
 * stops a kept emulator before starting afresh.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const entry = path.join(__dirname, "emulator-process.js");

const pidFile = (stateDir: string) => path.join(stateDir, "emulator.pid");

/** Whether `pid` runs. A zombie (exited, not yet reaped by an init that may never reap it) does not. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc: the signal check stands
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
    if (!alive(pid)) return true;
  return !alive(pid);
}

/**
 * Stops the emulator a previous `--keep` run left in `stateDir`, if it still runs. Only a process
 * whose command line is this module's emulator is signalled: a pid file outliving a reboot may
 * name some other process by now. Returns the pid stopped.
 */
export async function stopKeptEmulator(stateDir: string): Promise<number | undefined> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile(stateDir), "utf8").trim());
  } catch {
    return undefined;
  }
  let cmdline = "";
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    // No /proc (macOS): fall back to the pid file alone, which only this script writes.
    cmdline = alive(pid) ? entry : "";
  }
  if (!Number.isInteger(pid) || pid <= 1 || !cmdline.includes("emulator-process.js")) return undefined;
  process.kill(pid, "SIGTERM");
  if (!(await waitGone(pid, 5000))) process.kill(pid, "SIGKILL");
  return pid;
}

/** A running demo emulator; `url` is its base URL without /v2. */
export type DemoEmulator = Awaited<ReturnType<typeof startDemoEmulator>>;

/** Starts the emulator on a free loopback port with `apiKey` as its only valid key. */
export async function startDemoEmulator(stateDir: string, apiKey: string) {
  const logFile = path.join(stateDir, "emulator.log");
  const log = fs.openSync(logFile, "a");
  // Detached: a Ctrl-C in the terminal reaches only the demo, which stops the emulator itself.
  const child: ChildProcess = spawn(process.execPath, [entry], {
    detached: true,
    stdio: ["ignore", log, log, "ipc"],
    env: { ...process.env, CDNSTREAM_API_KEY: apiKey },
  });
  fs.closeSync(log);
  const url = await new Promise<string>((resolve, reject) => {
    setTimeout(() => reject(new Error(`the emulator did not start within 20s (see ${logFile})`)), 20_000).unref();
    child.once("message", (m: { url?: string }) =>
      m.url ? resolve(m.url) : reject(new Error("the emulator sent no address")),
    );
    child.once("exit", (code) =>
      reject(new Error(`the emulator exited (${code}): ${fs.readFileSync(logFile, "utf8").trim()}`)),
    );
    child.once("error", reject);
  });
  const pid = child.pid!;
  fs.writeFileSync(pidFile(stateDir), `${pid}\n`);
  return {
    url,
    pid,
    /** `POST /__emulator/mutate`: an out-of-band change, as someone using the dashboard makes. */
    async mutate(kind: string, id: string | number, patch: unknown): Promise<void> {
      const res = await fetch(`${url}/__emulator/mutate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ kind, id: String(id), patch }),
      });
      if (!res.ok) throw new Error(`emulator admin mutate answered ${res.status}: ${await res.text()}`);
    },
    /** Stops it and waits until it has exited. */
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        if (!(await waitGone(pid, 5000))) child.kill("SIGKILL");
      }
      fs.rmSync(pidFile(stateDir), { force: true });
    },
    /** Lets it outlive this process (`--keep`). */
    detach(): void {
      child.disconnect();
      child.unref();
    },
  };
}
