/**
 * `cdnstream drift reconcile` on a YAML project: the program run by the YAML language host and the
 * objects written by the provider plugin (pulumi-resource-cdnstream, on PATH from global setup),
 * through the `pulumi` CLI, from a report merged from shards and checked out elsewhere (`--cwd`).
 * A refusal writes nothing; a revert applies none of the changes pending in the program.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { run } from "../../scripts/child";
import { ENGINE_COMMAND_DEADLINE_MS, engineEnv, pulumiCli, repoRoot } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { installedPackageDir } from "../helpers/package";

const cli = path.join(installedPackageDir, "dist", "provider", "cli", "index.js");

const program = (studioDisabled: boolean) => `name: reconcile-yaml
runtime: yaml
resources:
  main-event:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: false
  studio-b:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3002"
      disabled: ${studioDisabled}
`;

describe("cdnstream drift reconcile on a YAML project", () => {
  let emulator: TestEmulator;
  let dir: string;
  let workDir: string;
  let stack: Stack;
  let env: Record<string, string>;

  /** The installed command, with a deadline; exit code and output, searched for the key. */
  async function cdnstream(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const {
      status: code,
      stdout,
      stderr,
    } = await run(process.execPath, [cli, ...args], {
      cwd: dir,
      env,
      deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
      allowFailure: true,
    });
    expect(stdout + stderr).not.toContain(emulator.apiKey);
    return { code, stdout, stderr };
  }
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  /** A shard's check of the one stack, merged as a fleet's job merges them; the report's directory moved, as on another runner. */
  async function fleetReport(name: string): Promise<void> {
    expect(
      (await cdnstream("drift", "--cwd", workDir, "--stack", "dev", "--shard", "1/1", "--json", "shard-1.json")).code,
    ).toBe(2);
    expect((await cdnstream("drift", "merge", "shard-1.json", "--json", `${name}.json`)).code).toBe(2);
    const merged = read(`${name}.json`);
    for (const s of merged.stacks) s.cwd = "/checkout/of/another/runner";
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(merged));
  }
  const checkpoint = () =>
    fs.readFileSync(path.join(dir, "backend", ".pulumi", "stacks", "reconcile-yaml", "dev.json"), "utf8");
  const writes = async () =>
    Object.entries(await emulator.requestCounts()).filter(([operation]) => !operation.startsWith("GET "));
  const disabled = async (id: number) => (await emulator.object("pushStreams", id)).disabled;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    dir = path.join(repoRoot, ".tmp", "e2e", `reconcile-yaml-${crypto.randomBytes(6).toString("hex")}`);
    workDir = path.join(dir, "project");
    fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
    fs.mkdirSync(workDir, { recursive: true });
    fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), program(false));
    env = { ...(process.env as Record<string, string>), ...engineEnv(dir), CDNSTREAM_API_KEY: emulator.apiKey };
    stack = await LocalWorkspace.createStack(
      { stackName: "dev", workDir },
      { workDir, envVars: env, pulumiCommand: await pulumiCli() },
    );
    await stack.setConfig("cdnstream:baseUrl", { value: emulator.url });
    expect((await stack.up({ color: "never" })).summary.resourceChanges).toEqual({ create: 3 });
  });
  afterAll(async () => {
    try {
      await stack?.destroy({ color: "never" });
    } finally {
      await emulator?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses when the account changed after the report: no write, the state unchanged", async () => {
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    await fleetReport("r1");
    await emulator.mutate("pushStreams", 3001, { disabled: "0" });
    const state = checkpoint();
    await emulator.clearRequests();
    const r = await cdnstream("drift", "reconcile", "r1.json", "--cwd", workDir, "--json", "out1.json");
    expect(r.code).toBe(1);
    expect(await writes()).toEqual([]);
    expect(checkpoint()).toBe(state);
    expect(read("out1.json").stacks[0].reconcile).toEqual({
      outcome: "refused",
      reason: expect.stringMatching(/main-event\.disabled is back to its recorded value false/),
    });
  });

  it("reverts the reported resource and not the change pending in the program, and leaves a clean check behind", async () => {
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    await fleetReport("r2");
    // Without --cwd, the directory the report names does not exist here: refused, nothing run.
    await emulator.clearRequests();
    let r = await cdnstream("drift", "reconcile", "r2.json", "--markdown", "out2.md");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /no Pulumi project \(Pulumi\.yaml\) in \/checkout\/of\/another\/runner, where the report was written: give the project's directory with --cwd DIR/,
    );
    expect(await writes()).toEqual([]);

    // A change pending in the program for another resource, not applied by the revert.
    fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), program(true));
    r = await cdnstream(
      "drift",
      "reconcile",
      "r2.json",
      "--cwd",
      workDir,
      "--json",
      "out2.json",
      "--markdown",
      "out2.md",
    );
    expect(r.code).toBe(0);
    expect(await writes()).toEqual([["POST /v2/streams/push/{streamid}/status", 1]]);
    expect([await disabled(3001), await disabled(3002)]).toEqual(["0", "0"]);
    const out = read("out2.json");
    expect(out.shards).toBe(1);
    expect(out.stacks[0].reconcile).toEqual({
      outcome: "reverted",
      resources: [
        {
          urn: "urn:pulumi:dev::reconcile-yaml::cdnstream:index:StreamStatus::main-event",
          name: "main-event",
          type: "cdnstream:index:StreamStatus",
          recreate: false,
          properties: [{ property: "disabled", recorded: false, before: true, after: false }],
        },
      ],
    });
    expect(fs.readFileSync(path.join(dir, "out2.md"), "utf8")).toContain(
      "| `main-event` | `cdnstream:index:StreamStatus` | `disabled` | `false` | `true` | `false` |",
    );
    const check = await cdnstream("drift", "--cwd", workDir, "--stack", "dev", "--json", "after.json");
    expect(check.code).toBe(0);
    expect(read("after.json").stacks[0].resources).toEqual([]);
  });
});
