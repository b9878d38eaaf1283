/** The `cdnstream` dispatcher: the exit-code table, --version, and the top-level help. */
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../provider/cli";
import { EXIT } from "../../provider/cli/command";
import type { Io } from "../../provider/cli/command";

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
  const code = await main(argv, io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

const packageVersion = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")).version;

describe("cdnstream", () => {
  it("has one exit-code table: 2 is only drift, usage is EX_USAGE, signals are 128 + their number", () => {
    expect(EXIT).toEqual({ ok: 0, failed: 1, drift: 2, usage: 64, sigint: 130, sigterm: 143 });
    expect(new Set(Object.values(EXIT)).size).toBe(Object.values(EXIT).length);
  });

  it.each([["--version"], ["-v"], ["version"]])("%s prints the package version (exit 0)", async (flag) => {
    const r = await run([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(packageVersion);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("--help lists every exit code and points at the README for configuration, not at sources", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const code of [0, 1, 2, 64, 130, 143]) expect(r.stdout).toMatch(new RegExp(`\\n {2}${code} `));
    expect(r.stdout).toMatch(/cdnstream --version/);
    expect(r.stdout).toMatch(/README\.md of this package, section “Configuration”/);
    expect(r.stdout).not.toMatch(/provider\/client\/config\.ts|\.ts\b/);
    expect(r.stdout).toMatch(/\n {2}doctor +check the configuration/);
  });

  it("every subcommand's help carries the same exit-code table", async () => {
    const top = (await run(["--help"])).stdout;
    const table = top.slice(top.indexOf("Exit status (every command):"));
    expect(table.length).toBeGreaterThan(100);
    for (const name of ["api", "drift", "doctor"]) expect((await run([name, "--help"])).stdout).toContain(table);
  });
});
