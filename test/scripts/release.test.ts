/**
 * The release build's parts that need no release: an archive is written whole or not at all, the
 * Python artefacts' version is package.json's as PEP 440 writes it, and the release workflow passes
 * actionlint. The whole release is built and checked in test/e2e/plugin-release.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run } from "../../scripts/child";
import { pythonVersion, tarGz } from "../../scripts/release";

const repoRoot = path.resolve(__dirname, "../..");

describe("tarGz", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-release-"));
    fs.mkdirSync(path.join(dir, "stage"));
    fs.writeFileSync(path.join(dir, "stage", "file"), "contents\n");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes the archive, the same bytes each time", async () => {
    tarGz(path.join(dir, "stage"), path.join(dir, "a.tar.gz"));
    tarGz(path.join(dir, "stage"), path.join(dir, "b.tar.gz"));
    expect(fs.readFileSync(path.join(dir, "a.tar.gz"))).toEqual(fs.readFileSync(path.join(dir, "b.tar.gz")));
    const listed = await run("tar", ["-tzf", path.join(dir, "a.tar.gz")], { deadlineMs: 30_000 });
    expect(listed.stdout).toBe("file\n");
  });

  it("fails, leaving no file, when the compressor fails", () => {
    // A gzip that reads a little and fails: tar's other stage of the pipe.
    const bin = path.join(dir, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "gzip"), "#!/bin/sh\nhead -c 10 >/dev/null\necho 'gzip: disk full' >&2\nexit 1\n", {
      mode: 0o755,
    });
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
    expect(() => tarGz(path.join(dir, "stage"), path.join(dir, "a.tar.gz"), env)).toThrow(
      /writing a\.tar\.gz failed, nothing was written: gzip: disk full\ntar: Child returned status 1/,
    );
    expect(fs.readdirSync(dir).sort()).toEqual(["bin", "stage"]);
  });
});

describe("pythonVersion", () => {
  it.each([
    ["1.2.0", "1.2.0"],
    ["1.2.0-alpha.3", "1.2.0a3"],
    ["1.2.0-beta.1", "1.2.0b1"],
    ["1.2.0-rc.2", "1.2.0rc2"],
    ["1.2.0-dev.4", "1.2.0.dev4"],
  ])("writes %s as %s", (npm, python) => {
    expect(pythonVersion(npm)).toBe(python);
  });

  it("refuses a prerelease PyPI cannot carry, naming the rule", () => {
    expect(() => pythonVersion("1.2.0-nightly")).toThrow(
      /version 1\.2\.0-nightly has no PEP 440 form .* X\.Y\.Z or X\.Y\.Z-alpha\.N, -beta\.N, -rc\.N or -dev\.N/,
    );
  });
});

describe("the release workflow", () => {
  it("passes actionlint", async () => {
    const ensure = await run(path.join(repoRoot, "scripts", "ensure-actionlint"), [], {
      deadlineMs: 280_000,
      allowFailure: true,
    });
    const bin = ensure.stdout.trim().split("\n").pop() ?? "";
    if (ensure.status !== 0 || !fs.existsSync(bin))
      throw new Error(
        `actionlint is not available (scripts/ensure-actionlint exited ${ensure.status ?? ensure.signal}):\n${ensure.stderr}\n` +
          "Install Go (https://go.dev/doc/install) and run scripts/ensure-actionlint, or put actionlint 1.7.12 on PATH.",
      );
    const lint = await run(bin, ["-no-color", "-oneline", path.join(".github", "workflows", "release.yml")], {
      cwd: repoRoot,
      deadlineMs: 60_000,
      allowFailure: true,
    });
    expect(lint.stdout + lint.stderr).toBe("");
    expect(lint.status).toBe(0);
  }, 300_000);
});
