/**
 * Stopping everything a command started: drift's workers, their `pulumi` CLIs and the plugins each
 * CLI starts in a process group of its own (Pulumi's cmdutil.RegisterProcessGroup), which killing
 * a worker or its group does not reach. So every descendant, found by parent pid, is signalled,
 * and killed if still alive after a grace period. The tree is read again while waiting and every
 * process seen is remembered: one whose parent exits is re-parented to init and leaves the tree.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";

/** pid to parent pid of every process visible: from /proc on Linux, `ps` elsewhere. */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  if (fs.existsSync("/proc/self/stat")) {
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        parents.set(Number(entry), ppid);
      } catch {
        // Exited while the directory was read.
      }
    }
    return parents;
  }
  const out = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8", timeout: 30_000 });
  for (const line of out.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid && ppid !== undefined && !Number.isNaN(ppid)) parents.set(pid, ppid);
  }
  return parents;
}

/** The pids of every living descendant of `root` (not `root` itself). */
function descendantsOf(root: number): number[] {
  const parents = parentsByPid();
  const tree = [root];
  // Breadth first: each pid found is scanned for children of its own in turn.
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  return tree.slice(1);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Gone already.
  }
}

/**
 * Sends `sig` to every descendant of `root`, waits up to `graceMs` for them to exit, then sends
 * SIGKILL to any left. Resolves when none of them is alive.
 */
export async function stopDescendants(root: number, sig: NodeJS.Signals, graceMs = 3000): Promise<void> {
  const seen = new Set<number>();
  const collect = () => {
    for (const pid of descendantsOf(root).filter((p) => !seen.has(p))) {
      seen.add(pid);
      signal(pid, sig);
    }
  };
  collect();
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && [...seen].some(alive)) {
    await new Promise((r) => setTimeout(r, 50));
    collect();
  }
  collect();
  for (const pid of seen) if (alive(pid)) signal(pid, "SIGKILL");
  const killDeadline = Date.now() + 2000;
  while (Date.now() < killDeadline && [...seen].some(alive)) await new Promise((r) => setTimeout(r, 20));
}
