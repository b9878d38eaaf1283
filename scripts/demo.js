#!/usr/bin/env node
// @ts-check
/**
 * `npm run demo [-- --keep] [-- --quick]`: builds the package (timed, as the demo's first step),
 * then runs the demo itself, dist/scripts/demo/main.js (compiled from scripts/demo/main.ts).
 * Plain JavaScript because it runs before the build that compiles the rest.
 */
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const startedAt = Date.now();
const repoRoot = path.resolve(__dirname, "..");
const argv = process.argv.slice(2);
const help = argv.includes("--help") || argv.includes("-h");

/** @type {number | undefined} */
let buildMs;
if (!argv.includes("--quick") && !help) {
  process.stdout.write("cdnstream demo: building the package (tsc -p tsconfig.json)...\n");
  const t0 = Date.now();
  const tsc = path.join(path.dirname(require.resolve("typescript/package.json", { paths: [repoRoot] })), "bin", "tsc");
  // The whole package's build: under a minute; its deadline, ten (this launcher runs before the
  // build, so it cannot load scripts/child.ts).
  const deadlineMs = 10 * 60_000;
  const build = spawnSync(process.execPath, [tsc, "-p", path.join(repoRoot, "tsconfig.json")], {
    stdio: "inherit",
    timeout: deadlineMs,
    killSignal: "SIGKILL",
  });
  if (build.status !== 0) {
    const why = build.error
      ? `did not finish within its deadline of ${deadlineMs / 60_000} min`
      : `exited ${build.status}`;
    process.stderr.write(`demo: the build failed (\`tsc -p tsconfig.json\` in ${repoRoot} ${why})\n`);
    process.exit(1);
  }
  buildMs = Date.now() - t0;
}

let demo;
try {
  demo = require(path.join(repoRoot, "dist", "scripts", "demo", "main.js"));
} catch (e) {
  process.stderr.write(
    `demo: dist/scripts/demo/main.js cannot be loaded (${/** @type {Error} */ (e).message.split("\n")[0]}); run \`npm run build\` (--quick skips it)\n`,
  );
  process.exit(1);
}
demo.main(argv, buildMs, startedAt).then(
  (/** @type {number} */ code) => process.exit(code),
  (/** @type {unknown} */ e) => {
    process.stderr.write(`demo: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
