/**
 * The end of a CI leg's log (scripts/slowest-suites.js, run by scripts/ci-leg): from jest's JSON
 * report, the ten slowest suites with their times, slowest first, and the run's totals.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run } from "../../scripts/child";

const repoRoot = path.resolve(__dirname, "..", "..");

it("prints the ten slowest suites, slowest first, with the suites' count, jest's wall time and their sum", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-slowest-"));
  try {
    const startTime = 1_700_000_000_000;
    // Twelve suites taking 1 s to 12 s, run two at a time: 78 s of suite time.
    const testResults = Array.from({ length: 12 }, (_, i) => ({
      name: path.join(repoRoot, "test", "e2e", `suite-${i + 1}.test.ts`),
      status: i === 10 ? "failed" : "passed",
      startTime: startTime + i * 500,
      endTime: startTime + i * 500 + (i + 1) * 1000,
    }));
    const file = path.join(dir, "report.json");
    fs.writeFileSync(file, JSON.stringify({ startTime, testResults }));
    const printed = await run(process.execPath, [path.join(repoRoot, "scripts", "slowest-suites.js"), file], {
      deadlineMs: 60_000,
    });
    expect(printed.stdout.split("\n")).toEqual([
      "12 suites: jest 17.5s wall, 78.0s of suite time; the 10 slowest:",
      "  12.0s  test/e2e/suite-12.test.ts",
      "  11.0s  test/e2e/suite-11.test.ts  (failed)",
      ...[10, 9, 8, 7, 6, 5, 4, 3].map((n) => `  ${`${n}.0s`.padStart(5)}  test/e2e/suite-${n}.test.ts`),
      "",
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
