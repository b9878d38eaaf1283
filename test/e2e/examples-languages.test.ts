/**
 * The examples of docs/examples.md, as written there, previewed through the real CLI and the
 * provider plugin against the real emulator: the YAML program through the YAML language host, the
 * Python and Go programs inline through their Automation APIs (test/plugin-langs/python/examples.py
 * and test/plugin-langs/go-examples). Each preview plans the seven resources and sends the API no
 * write. First, the Python, Go and TypeScript programs and the page must be what
 * scripts/gen-examples makes of the YAML one, and the TypeScript program must type-check against
 * this package.
 *
 * The examples take the account from the provider's stack configuration (the default provider).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { run as runCommand } from "../../scripts/child";
import { engineEnv, GO_BUILD_SCRIPT_DEADLINE_MS, pulumiCli, repoRoot } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { typeCheckAgainstPackage } from "../helpers/typecheck";
import { ensurePython, runForJson, scratchStackDirs } from "../helpers/languages";

const examples = path.join(repoRoot, "docs", "examples");
const goModule = "github.com/cdnstream/pulumi-cdnstream/sdk/go";
/** The stack and the seven resources of the README, one of each kind. */
const PLANNED = { create: 8 };
const KINDS = [
  "PushZoneSettings",
  "VodPullDomainLock",
  "HttpDomainLockBulk",
  "StreamStatus",
  "TimeshiftStream",
  "AdBreakSlot",
  "CampaignArchive",
];

/** Writes are every operation but reads: the emulator logs them as "METHOD /v2/path". */
const writes = (counts: Record<string, number>) => Object.keys(counts).filter((op) => !op.startsWith("GET "));

/** A directory with its own backend under .tmp/, and the project directory in it. */
/** Runs a driver's preview and parses its result. */
const previewWith = (command: string[], spec: Record<string, string>, dir: string) =>
  runForJson(
    command,
    { cwd: spec.workDir, env: { ...process.env, ...engineEnv(dir), CDNSTREAM_EXAMPLES_SPEC: JSON.stringify(spec) } },
    command.join(" "),
  ) as Promise<{ changes: unknown }>;

describe("the examples of docs/examples.md", () => {
  let emulator: TestEmulator;
  const scratch: string[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
    await emulator?.close();
  });

  /** Previews with a fresh stack; expects the plan of every example and no write to the API. */
  async function expectPlannedWithoutWrites(preview: (dir: string, workDir: string) => Promise<unknown>) {
    const { dir, workDir } = scratchStackDirs();
    scratch.push(dir);
    await emulator.clearRequests();
    expect(await preview(dir, workDir)).toEqual(PLANNED);
    expect(writes(await emulator.requestCounts())).toEqual([]);
  }

  it("are what scripts/gen-examples makes of the YAML program, one of each kind", async () => {
    // Its YAML converter, built from the Go module proxy when not cached: minutes.
    const check = await runCommand(path.join(repoRoot, "scripts", "gen-examples"), ["--check"], {
      deadlineMs: GO_BUILD_SCRIPT_DEADLINE_MS,
      allowFailure: true,
    });
    // Its message names the stale files, or says how to get Go when its converter must be built.
    if (check.status !== 0) throw new Error(`scripts/gen-examples --check exited ${check.status}:\n${check.stderr}`);
    const page = fs.readFileSync(path.join(repoRoot, "docs", "examples.md"), "utf8");
    for (const [file, call] of [
      ["yaml/Pulumi.yaml", (kind: string) => `type: cdnstream:index:${kind}`],
      ["python/__main__.py", (kind: string) => `cdnstream.${kind}(`],
      ["go/main.go", (kind: string) => `cdnstream.New${kind}(`],
      ["typescript/index.ts", (kind: string) => `new cdnstream.${kind}(`],
    ] as const) {
      const program = fs.readFileSync(path.join(examples, file), "utf8");
      expect(page).toContain(program.trimEnd());
      for (const kind of KINDS) expect(program).toContain(call(kind));
    }
  }, 600_000);

  it("type-checks the TypeScript program against this package", () => {
    const diagnostics = typeCheckAgainstPackage([path.join(examples, "typescript", "index.ts")]);
    expect(diagnostics).toEqual([]);
  }, 120_000);

  it("previews the YAML program through the YAML language host", async () => {
    await expectPlannedWithoutWrites(async (dir, workDir) => {
      fs.copyFileSync(path.join(examples, "yaml", "Pulumi.yaml"), path.join(workDir, "Pulumi.yaml"));
      const stack = await LocalWorkspace.createStack(
        { stackName: "test", workDir },
        { workDir, envVars: engineEnv(dir), pulumiCommand: await pulumiCli() },
      );
      await stack.setAllConfig(emulator.stackConfig());
      return (await stack.preview({ onOutput: () => undefined })).changeSummary;
    });
  });

  it("previews the Python program inline through the Python Automation API", async () => {
    const python = await ensurePython();
    await expectPlannedWithoutWrites(async (dir, workDir) => {
      const spec = {
        project: "cdnstream-examples-python",
        stack: "test",
        workDir,
        apiKey: emulator.apiKey,
        baseUrl: emulator.url,
      };
      const driver = path.join(repoRoot, "test", "plugin-langs", "python", "examples.py");
      return (await previewWith([python, driver, path.join(examples, "python", "__main__.py")], spec, dir)).changes;
    });
  }, 600_000);

  it("previews the Go program inline through the Go Automation API", async () => {
    // The driver with the example beside it, its main renamed and pulumi.Run replaced by the
    // driver's run (see test/plugin-langs/go-examples/driver.go); the rest is as written. The
    // module's requirements are the plugin suite's Go program's (test/plugin-langs/go).
    const build = fs.mkdtempSync(path.join(repoRoot, ".tmp", "go-examples-"));
    scratch.push(build);
    const langs = path.join(repoRoot, "test", "plugin-langs");
    fs.copyFileSync(path.join(langs, "go-examples", "driver.go"), path.join(build, "driver.go"));
    for (const file of ["go.mod", "go.sum"]) fs.copyFileSync(path.join(langs, "go", file), path.join(build, file));
    const example = fs.readFileSync(path.join(examples, "go", "main.go"), "utf8");
    for (const once of ["func main() {", "pulumi.Run("]) expect(example.split(once)).toHaveLength(2);
    fs.writeFileSync(
      path.join(build, "example.go"),
      example.replace("func main() {", "func example() {").replace("pulumi.Run(", "run("),
    );
    const go = async (args: string[]) => {
      // A build of the examples against sdk/go: a minute cold.
      const ran = await runCommand("go", args, {
        cwd: build,
        env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=mod" },
        deadlineMs: 9 * 60_000,
        allowFailure: true,
      }).catch((error: Error) => ({ error, status: null, stderr: "" }));
      if ("error" in ran || ran.status !== 0) {
        throw new Error(
          `go ${args.join(" ")} failed: ${"error" in ran ? ran.error.message : ran.stderr}\n` +
            "Install Go (https://go.dev/doc/install, or 'apt-get install golang'); the modules come from the Go module proxy.",
        );
      }
    };
    await go([
      "mod",
      "edit",
      "-module=cdnstream.local/plugin-langs-go-examples",
      `-replace=${goModule}=${path.join(repoRoot, "sdk", "go")}`,
    ]);
    await go(["build", "-o", "driver", "."]);

    await expectPlannedWithoutWrites(async (dir, workDir) => {
      const spec = {
        project: "cdnstream-examples-go",
        stack: "test",
        workDir,
        apiKey: emulator.apiKey,
        baseUrl: emulator.url,
      };
      return (await previewWith([path.join(build, "driver"), "preview"], spec, dir)).changes;
    });
  }, 600_000);
});
