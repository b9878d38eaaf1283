/**
 * Where one engine operation spends its time, sampled from /proc. Only descendants of this process
 * count (bench -> pulumi -> pulumi-resource-pulumi-nodejs -> node …/cmd/dynamic-provider), so other
 * engineers' engine runs on the same machine never do. Each sample reads the kernel's high-water
 * mark (VmHWM) and the CPU time so far (/proc/<pid>/stat): a memory peak between samples is still
 * caught, but CPU spent in the last interval (100 ms) before a process exits is missed, so CPU
 * figures are slight underestimates. Without /proc (not Linux) they are null: not measurable.
 */
import * as fs from "node:fs";

export const INTERVAL_MS = 100;

export function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined; // the process exited meanwhile
  }
}

/** The unit of /proc's CPU times: USER_HZ, 100 on every architecture Node.js runs on Linux. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used so far, or undefined once it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // Fields after the parenthesised command name (which may hold spaces): utime is the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Pids of every descendant of `root`. Each thread lists the children it started, and the Go CLI starts plugins from any thread. */
export function descendants(root: number): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tasks) {
      for (const child of (read(`/proc/${pid}/task/${tid}/children`) ?? "").split(/\s+/).filter(Boolean).map(Number)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** A memory figure of `/proc/<pid>/status` (VmRSS, VmHWM...) in bytes; 0 once the process is gone. */
export const statusBytes = (pid: number, field: string): number =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(read(`/proc/${pid}/status`) ?? "")?.[1] ?? 0) * 1024;

interface Sample {
  peakBytes: number;
  cpu: number;
  role: "engine" | "host";
}

/** The CLI (`pulumi`) and the dynamic-provider hosts below this process, by pid. */
function sample(seen: Map<number, Sample>): void {
  for (const pid of descendants(process.pid)) {
    const cmdline = read(`/proc/${pid}/cmdline`) ?? "";
    // The dynamic-provider host of @pulumi/pulumi, or the provider plugin (the plugin path).
    const role =
      cmdline.includes("dynamic-provider") || cmdline.includes("provider/plugin/main.js")
        ? "host"
        : read(`/proc/${pid}/comm`)?.trim() === "pulumi"
          ? "engine"
          : undefined;
    if (!role) continue;
    const known = seen.get(pid) ?? { peakBytes: 0, cpu: 0, role };
    const peakBytes = Math.max(known.peakBytes, statusBytes(pid, "VmHWM"));
    seen.set(pid, { role, peakBytes, cpu: cpuSeconds(pid) ?? known.cpu });
  }
}

/** Whether processes can be sampled here (Linux's /proc). */
export const measurable = fs.existsSync(`/proc/${process.pid}/task`);

/** CPU seconds `pid` has used since it stood at `before` (null: not measurable). */
export function cpuSince(pid: number, before: number | undefined): number | null {
  const now = cpuSeconds(pid);
  return before !== undefined && now !== undefined ? now - before : null;
}

/** CPU seconds of one operation by who spent them (sampled: see above). */
export interface CpuSplit {
  /** The Pulumi CLI: the engine, its state writes included. */
  engine: number;
  /** The dynamic-provider host(s): the provider's code and the @pulumi/pulumi host around it. */
  host: number;
  /** This process: the program (the Automation API hosts the language runtime here). */
  program: number;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/** Runs `op`, timing it and sampling the processes it starts. */
export async function measureOp<T>(op: () => Promise<T>) {
  const seen = new Map<number, Sample>();
  const timer = measurable ? setInterval(() => sample(seen), INTERVAL_MS) : undefined;
  const started = performance.now();
  const programCpu = process.cpuUsage();
  try {
    const result = await op();
    const seconds = (performance.now() - started) / 1000;
    const program = process.cpuUsage(programCpu);
    const all = [...seen.values()];
    const peak = Math.max(0, ...all.filter((x) => x.role === "host").map((x) => x.peakBytes));
    const cpuOf = (role: Sample["role"]) => r2(all.filter((x) => x.role === role).reduce((a, x) => a + x.cpu, 0));
    return {
      result,
      seconds,
      /** Peak RSS of the largest provider host the operation started, MB. */
      hostPeakRssMb: peak ? Math.round(peak / 2 ** 20) : null,
      cpu: measurable
        ? { engine: cpuOf("engine"), host: cpuOf("host"), program: r2((program.user + program.system) / 1e6) }
        : (null as CpuSplit | null),
    };
  } finally {
    clearInterval(timer);
  }
}
