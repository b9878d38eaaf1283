/**
 * scripts/ensure-pulumi streams a long Go command's progress: its own `say` and `stream`
 * functions, taken from the script as they are and run on a real command that prints slowly and
 * then goes silent, as `go build -v` does on a big package.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";

const script = fs.readFileSync(path.join(__dirname, "../../scripts/ensure-pulumi"), "utf8");
const fn = (name: string) => {
  const m = new RegExp(`^${name}\\(\\) \\{[\\s\\S]*?^\\}$|^${name}\\(\\) \\{.*\\}$`, "m").exec(script);
  if (!m) throw new Error(`scripts/ensure-pulumi has no function ${name}`);
  return m[0];
};

describe("ensure-pulumi stream", () => {
  it("prints the command's lines with counts and elapsed time, a still-working line when silent, and its tail on failure", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "ensure-stream-"));
    try {
      const harness = [
        "set -euo pipefail",
        `work=${JSON.stringify(work)}`,
        fn("say"),
        fn("stream"),
        // Three downloads, 16 s of silence (a package compiling), a last line, then a failure.
        `stream compile bash -c 'for m in a b c; do echo "go: downloading example.com/$m v1.0.0"; done; sleep 16; echo "example.com/last"; echo "boom: error" ; exit 3' || echo "rc=$?"`,
      ].join("\n");
      const run = await runCommand("bash", ["-c", harness], { deadlineMs: 50_000 });
      const err = run.stderr;
      expect(run.stdout).toBe("rc=3\n");
      expect(err).toMatch(/^ensure-pulumi \[\d+s\]: compile: downloading example\.com\/a v1\.0\.0 \(1 lines, 0s\)$/m);
      expect(err).toMatch(/^ensure-pulumi \[1[5-6]s\]: compile: still working \(3 lines, 1[5-6]s\)$/m);
      expect(err).toMatch(/^ensure-pulumi \[1[6-7]s\]: compile: done \(5 lines, 1[6-7]s\)$/m);
      // On failure the whole tail, the error included, follows.
      expect(err).toMatch(/\nboom: error\n/);
      expect(fs.readFileSync(path.join(work, "compile.log"), "utf8")).toContain("example.com/last");
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
