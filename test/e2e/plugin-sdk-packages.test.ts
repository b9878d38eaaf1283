/**
 * The Python and Go SDKs as a user takes them: the release artefacts scripts/release-python and
 * scripts/release-go write, used the way each language's user would. The wheel installs into a
 * fresh virtual environment with its dependencies from PyPI, and a typed program on it (and the
 * Python example of docs/examples.md) passes mypy --strict, while a program with type errors fails
 * it. The Go module builds a program in a module of its own, through `replace` onto sdk/go and
 * through the released module served as a module proxy (what `go get` fetches once the
 * repository is published), and `go vet` is clean.
 *
 * Needs python3 with venv and PyPI (scripts/ensure-python --tools installs build and mypy), and Go
 * with the module proxy; a missing tool fails the suite saying how to install it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DeadlineExceeded, run as runCommand } from "../../scripts/child";
import { repoRoot } from "../helpers/engine";

const packageVersion: string = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
const goModule = "github.com/cdnstream/pulumi-cdnstream/sdk/go";
const goProgram = path.join(repoRoot, "test", "plugin-langs", "go");
const typedPrograms = path.join(repoRoot, "test", "plugin-langs", "python", "typed");

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; `expectFailure` keeps a non-zero exit from throwing. */
async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  expectFailure = false,
): Promise<Ran> {
  // Inside the tests' ten minutes: a cold `go build` of the SDK, or a pip install from PyPI, takes minutes.
  const result = await runCommand(command, args, { ...options, deadlineMs: 9 * 60_000, allowFailure: true }).catch(
    (error: Error) => ({ error }),
  );
  if ("error" in result) {
    if (result.error instanceof DeadlineExceeded) throw result.error;
    throw new Error(
      `could not run ${command}: ${result.error.message}\n` +
        (command === "go"
          ? "Install Go (https://go.dev/doc/install, or 'apt-get install golang')."
          : "Install Python 3.9 or later with venv ('apt-get install python3 python3-venv')."),
    );
  }
  const ran = { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
  if (ran.status !== 0 && !expectFailure) {
    throw new Error(`${command} ${args.join(" ")} exited ${ran.status}:\n${ran.stdout}\n${ran.stderr}`);
  }
  return ran;
}

/** The go command's environment: the module proxy and go.sum checks as a user has them, no workspace. */
const goEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  GOWORK: "off",
  GOFLAGS: "-mod=mod",
  ...extra,
});

/** Removes this module's versions from a Go module cache (go writes them read-only). */
async function forgetCachedModule(modCache: string): Promise<void> {
  const escaped = goModule.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
  const download = path.join(modCache, "cache", "download", ...escaped.split("/"));
  const extracted = path.join(modCache, ...escaped.split("/").slice(0, -1));
  const copies = [
    download,
    ...(fs.existsSync(extracted)
      ? fs
          .readdirSync(extracted)
          .filter((name) => name.startsWith(`${path.basename(escaped)}@`))
          .map((name) => path.join(extracted, name))
      : []),
  ];
  for (const copy of copies.filter((c) => fs.existsSync(c))) {
    await run("chmod", ["-R", "u+w", copy]);
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

describe("the SDKs as released", () => {
  let scratch: string;
  let out: string;
  /** The go.sum lines scripts/release-go printed for the module it wrote. */
  let goSumLines: string[];

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-sdk-packages-"));
    out = path.join(scratch, "out");
    await run(path.join(repoRoot, "scripts", "release-python"), [out]);
    goSumLines = (await run(path.join(repoRoot, "scripts", "release-go"), [out])).stdout
      .split("\n")
      .filter((line) => line.startsWith(`${goModule} `));
  }, 600_000);

  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  describe("Python", () => {
    let venvPython: string;
    const toolsPython = async () =>
      (await run(path.join(repoRoot, "scripts", "ensure-python"), ["--tools"])).stdout.trim().split("\n").pop()!;

    it("is a wheel and an sdist of package.json's version, and nothing else", () => {
      const files = fs.readdirSync(out).filter((f) => f.startsWith("pulumi_cdnstream"));
      expect(files.sort()).toEqual([
        `pulumi_cdnstream-${packageVersion}-py3-none-any.whl`,
        `pulumi_cdnstream-${packageVersion}.tar.gz`,
      ]);
    });

    it("installs into a fresh virtual environment, with the plugin version the engine is asked for", async () => {
      const venv = path.join(scratch, "venv");
      await run("python3", ["-m", "venv", venv]);
      venvPython = path.join(venv, "bin", "python");
      await run(venvPython, [
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--progress-bar",
        "off",
        path.join(out, `pulumi_cdnstream-${packageVersion}-py3-none-any.whl`),
      ]);
      const installed = await run(venvPython, [
        "-c",
        "import importlib.metadata as m, json, pathlib, pulumi_cdnstream as p; " +
          "print(json.dumps([m.version('pulumi_cdnstream'), json.loads((pathlib.Path(p.__file__).parent / 'pulumi-plugin.json').read_text()), hasattr(p, 'StreamStatus')]))",
      ]);
      expect(JSON.parse(installed.stdout)).toEqual([
        packageVersion,
        {
          resource: true,
          name: "cdnstream",
          version: packageVersion,
          // Where the engine downloads the plugin from: the schema's pluginDownloadURL.
          server: JSON.parse(fs.readFileSync(path.join(repoRoot, "provider", "plugin", "schema.json"), "utf8"))
            .pluginDownloadURL,
        },
        true,
      ]);
    }, 600_000);

    it("types a program for mypy --strict, and reports the type errors of a wrong one", async () => {
      expect(venvPython).toBeDefined();
      const mypy = async (file: string, expectFailure: boolean) =>
        run(
          await toolsPython(),
          [
            "-m",
            "mypy",
            "--strict",
            "--no-color-output",
            "--python-executable",
            venvPython,
            "--cache-dir",
            path.join(scratch, "mypy-cache"),
            file,
          ],
          {},
          expectFailure,
        );
      const typed = await mypy(path.join(typedPrograms, "__main__.py"), false);
      expect(typed.stdout).toContain("Success: no issues found in 1 source file");
      // The Python example of docs/examples.md, as generated.
      const example = await mypy(path.join(repoRoot, "docs", "examples", "python", "__main__.py"), false);
      expect(example.stdout).toContain("Success: no issues found in 1 source file");

      // The control case: the same checker, told the SDK's types, refuses both wrong lines.
      const wrong = await mypy(path.join(typedPrograms, "wrong.py"), true);
      expect(wrong.status).toBe(1);
      expect(wrong.stdout).toMatch(/wrong\.py:10: error: No overload variant of "StreamStatus" matches argument types/);
      expect(wrong.stdout).toMatch(
        /wrong\.py:13: error: Incompatible types in assignment \(expression has type "Output\[str \| None\]", variable has type "Output\[int\]"\)/,
      );
      expect(wrong.stdout).toContain("Found 2 errors in 1 file");
    }, 600_000);
  });

  describe("Go", () => {
    const proxyDir = () => path.join(out, ...goModule.split("/"), "@v");

    it("is the module sdk/go at package.json's version, asking for the Pulumi Go SDK its generators are of", () => {
      const version = `v${packageVersion}`;
      expect(fs.readFileSync(path.join(proxyDir(), "list"), "utf8")).toBe(`${version}\n`);
      expect(JSON.parse(fs.readFileSync(path.join(proxyDir(), `${version}.info`), "utf8")).Version).toBe(version);
      const goMod = fs.readFileSync(path.join(proxyDir(), `${version}.mod`), "utf8");
      expect(goMod).toBe(fs.readFileSync(path.join(repoRoot, "sdk", "go", "go.mod"), "utf8"));
      expect(goMod).toMatch(new RegExp(`^module ${goModule}$`, "m"));
      // One release for the generators and the code's needs: the one scripts/gen-sdks-go pins.
      const generators = fs.readFileSync(path.join(repoRoot, "scripts", "gen-sdks-go", "go.mod"), "utf8");
      const pinned = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(generators)![1];
      expect(goMod).toMatch(new RegExp(`^\\s+github\\.com/pulumi/pulumi/sdk/v3 ${pinned.replace(/\./g, "\\.")}$`, "m"));
      expect(goSumLines).toEqual([
        expect.stringMatching(new RegExp(`^${goModule} ${version} h1:\\S+=$`)),
        expect.stringMatching(new RegExp(`^${goModule} ${version}/go.mod h1:\\S+=$`)),
      ]);
    });

    it("builds a program in its own module through replace onto sdk/go, and go vet is clean", async () => {
      await run("go", ["build", "-o", path.join(scratch, "driver-replace"), "."], { cwd: goProgram, env: goEnv() });
      expect(fs.statSync(path.join(scratch, "driver-replace")).size).toBeGreaterThan(0);
      // The program and every package of the SDK.
      const vet = await run("go", ["vet", ".", `${goModule}/...`], { cwd: goProgram, env: goEnv() });
      expect(vet.stderr.trim()).toBe("");
    }, 600_000);

    it("builds the same program against the released module, fetched as `go get` fetches it from a proxy", async () => {
      const program = path.join(scratch, "program");
      fs.mkdirSync(program);
      for (const file of ["main.go", "go.mod", "go.sum"]) {
        fs.copyFileSync(path.join(goProgram, file), path.join(program, file));
      }
      // The module proxy serving the release, then the usual one for everything else; the
      // checksum database does not know an unpublished module, so go.sum alone vouches for it.
      const env = goEnv({
        GOPROXY: `file://${out},${(await run("go", ["env", "GOPROXY"])).stdout.trim()}`,
        GONOSUMDB: goModule,
      });
      // A published version never changes, so go keeps the first copy of v<version> it fetched;
      // this checkout's module changes under the same version from commit to commit. Its copy in
      // the module cache goes first, so the build fetches the release written above.
      await forgetCachedModule((await run("go", ["env", "GOMODCACHE"], { env })).stdout.trim());
      // The program asks for the release instead of the checkout, as a user's go.mod would.
      await run("go", ["mod", "edit", `-dropreplace=${goModule}`, `-require=${goModule}@v${packageVersion}`], {
        cwd: program,
        env,
      });
      await run("go", ["build", "-o", path.join(scratch, "driver-released"), "."], { cwd: program, env });
      // The hashes go recorded for the downloaded module are the ones release-go printed.
      const goSum = fs.readFileSync(path.join(program, "go.sum"), "utf8");
      for (const line of goSumLines) expect(goSum).toContain(line);
      const vet = await run("go", ["vet", ".", `${goModule}/...`], { cwd: program, env });
      expect(vet.stderr.trim()).toBe("");
    }, 600_000);
  });
});
