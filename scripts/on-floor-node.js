#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/on-floor-node.js <command> [args...]`: runs the command on a Node.js no older than
 * the package's floor (`engines.node`), so that the README's commands work on a machine whose own
 * Node is older: there it fetches the floor release (scripts/ensure-node: the official build, from
 * the npm registry, verified and cached outside the repo), puts it first on PATH for the command
 * and everything it starts, and says so in one line. `npm run demo` and `npm test` go through it.
 * Plain JavaScript that any Node.js runs, since it runs before the build and on the older Node.
 */
const { spawn, spawnSync } = require("node:child_process");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..");
const floor = /(\d+)\.(\d+)\.(\d+)/.exec(require(path.join(repoRoot, "package.json")).engines.node);
if (!floor) throw new Error("package.json: engines.node names no version");
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: node scripts/on-floor-node.js <command> [args...]\n");
  process.exit(64);
}

const found = process.versions.node.split(".").map(Number);
const needed = floor.slice(1).map(Number);
const at = found.findIndex((part, i) => part !== needed[i]);
const env = { ...process.env };
if (at !== -1 && found[at] < needed[at]) {
  // A download of Node.js (about 30 MB) when it is not cached: seconds to a minute or two. (This
  // launcher runs before the build, so it cannot load scripts/child.ts; ensure-node has no children
  // that outlive it but its own downloads, which its `timeout`s bound.)
  const ensure = spawnSync(path.join(repoRoot, "scripts", "ensure-node"), [floor[0]], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 15 * 60_000,
    killSignal: "SIGKILL",
  });
  const bin = ensure.stdout?.trim().split("\n").pop();
  if (ensure.status !== 0 || !bin) {
    process.stderr.write(
      `This machine's Node.js is v${process.versions.node}, older than the floor ${floor[0]}, and fetching ` +
        `Node.js ${floor[0]} failed (above): install Node.js ${floor[0]} or newer and put it first on PATH.\n`,
    );
    process.exit(1);
  }
  env.PATH = `${bin}${path.delimiter}${env.PATH ?? ""}`;
  process.stderr.write(
    `This machine's Node.js is v${process.versions.node}, older than the floor ${floor[0]}: running on ` +
      `Node.js v${floor[0]} from ${bin} (scripts/ensure-node)\n`,
  );
}

// Ctrl-C reaches the command from the terminal, as it reaches this process: this one waits for the
// command to finish its own way. A SIGTERM or SIGHUP sent to this process alone (npm forwards its
// own) is passed on. The command's exit code, or its signal, is ours.
const child = spawn(command, args, { stdio: "inherit", env });
process.on("SIGINT", () => {});
for (const signal of /** @type {const} */ (["SIGTERM", "SIGHUP"])) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  process.stderr.write(`${command}: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (code !== null) process.exit(code);
  process.removeAllListeners(/** @type {NodeJS.Signals} */ (signal));
  process.kill(process.pid, /** @type {NodeJS.Signals} */ (signal));
});
