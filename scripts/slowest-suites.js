#!/usr/bin/env node
/**
 * Where a CI leg's time went: from jest's JSON report (`jest --json --outputFile FILE`), the ten
 * slowest suites with their times, the suites' count, and jest's wall time against the sum of the
 * suites' own (their ratio is how well the workers overlapped). scripts/ci-leg prints it at the
 * end of each leg.
 *
 *   node scripts/slowest-suites.js FILE [COUNT]
 */
const fs = require("node:fs");
const path = require("node:path");

const [file, countArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write("usage: node scripts/slowest-suites.js JEST_JSON [COUNT]\n");
  process.exit(64);
}
const count = Number(countArg ?? 10);
/** @type {{ startTime: number, testResults: { name: string, startTime: number, endTime: number, status: string }[] }} */
const report = JSON.parse(fs.readFileSync(file, "utf8"));
const root = path.resolve(__dirname, "..");
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const suites = report.testResults
  .map((suite) => ({
    name: path.relative(root, suite.name).startsWith("..") ? suite.name : path.relative(root, suite.name),
    ms: suite.endTime - suite.startTime,
    failed: suite.status === "failed",
  }))
  .sort((a, b) => b.ms - a.ms);
const sum = suites.reduce((total, suite) => total + suite.ms, 0);
const ends = report.testResults.map((suite) => suite.endTime).filter(Boolean);
const wall = ends.length ? Math.max(...ends) - report.startTime : 0;
const width = Math.max(0, ...suites.slice(0, count).map((suite) => seconds(suite.ms).length));
const lines = [
  `${suites.length} suites: jest ${seconds(wall)} wall, ${seconds(sum)} of suite time; the ${Math.min(count, suites.length)} slowest:`,
  ...suites
    .slice(0, count)
    .map((suite) => `  ${seconds(suite.ms).padStart(width)}  ${suite.name}${suite.failed ? "  (failed)" : ""}`),
];
process.stdout.write(`${lines.join("\n")}\n`);
