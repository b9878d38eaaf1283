/**
 * `cdnstream drift` on a YAML project: the program is run by the YAML language host and the
 * objects read by the provider plugin (pulumi-resource-cdnstream, on PATH from global setup),
 * through the `pulumi` CLI, and the report is the same as for a Node.js project: per resource
 * and property, exit 0 when clean, 2 on drift, the state never written.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { run as runCommand } from "../../scripts/child";
import { engineEnv, pulumiCli, repoRoot, ENGINE_COMMAND_DEADLINE_MS } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const cli = path.join(repoRoot, "dist", "provider", "cli", "index.js");

const PROGRAM = `name: drift-yaml
runtime: yaml
resources:
  main-event:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: true
`;

describe("cdnstream drift on a YAML project", () => {
  let emulator: TestEmulator;
  let dir: string;
  let workDir: string;
  let stack: Stack;
  let env: Record<string, string>;

  async function drift(): Promise<{ code: number | null; stderr: string; json: any; markdown: string }> {
    const json = path.join(dir, "report.json");
    const markdown = path.join(dir, "report.md");
    const {
      status: code,
      stdout,
      stderr,
    } = await runCommand(
      process.execPath,
      [cli, "drift", "--cwd", workDir, "--stack", "dev", "--json", json, "--markdown", markdown],
      { env, deadlineMs: ENGINE_COMMAND_DEADLINE_MS, allowFailure: true },
    );
    const out = {
      code,
      stderr,
      json: JSON.parse(fs.readFileSync(json, "utf8")),
      markdown: fs.readFileSync(markdown, "utf8"),
    };
    expect(stdout + stderr + out.markdown + JSON.stringify(out.json)).not.toContain(emulator.apiKey);
    return out;
  }

  const checkpoint = () =>
    fs.readFileSync(path.join(dir, "backend", ".pulumi", "stacks", "drift-yaml", "dev.json"), "utf8");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    dir = path.join(repoRoot, ".tmp", "e2e", `drift-yaml-${crypto.randomBytes(6).toString("hex")}`);
    workDir = path.join(dir, "project");
    fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
    fs.mkdirSync(workDir, { recursive: true });
    fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), PROGRAM);
    // The key from the environment, as a pipeline sets it; the address as stack config.
    env = { ...(process.env as Record<string, string>), ...engineEnv(dir), CDNSTREAM_API_KEY: emulator.apiKey };
    stack = await LocalWorkspace.createStack(
      { stackName: "dev", workDir },
      { workDir, envVars: env, pulumiCommand: await pulumiCli() },
    );
    await stack.setConfig("cdnstream:baseUrl", { value: emulator.url });
    const up = await stack.up({ color: "never" });
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
  });
  afterAll(async () => {
    try {
      await stack?.destroy({ color: "never" });
    } finally {
      await emulator?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("unchanged: exit 0, no drift", async () => {
    const r = await drift();
    expect(r.stderr).toMatch(/dev: no drift/);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      stacks: [
        {
          stack: "dev",
          cwd: workDir,
          drifted: false,
          resources: [],
          checkpoint: { written: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        },
      ],
      drifted: false,
    });
  });

  it("changed out of band: exit 2 naming the resource and property with both values, the state not written", async () => {
    await emulator.mutate("pushStreams", 3001, { disabled: "0" });
    const before = checkpoint();
    const r = await drift();
    expect(r.stderr).toMatch(/dev: drift in main-event\.\{disabled\}/);
    expect(r.code).toBe(2);
    expect(r.json.drifted).toBe(true);
    expect(r.json.stacks[0].resources).toEqual([
      {
        urn: "urn:pulumi:dev::drift-yaml::cdnstream:index:StreamStatus::main-event",
        name: "main-event",
        type: "cdnstream:index:StreamStatus",
        deleted: false,
        properties: [{ property: "disabled", recorded: true, live: false }],
      },
    ]);
    expect(r.markdown).toMatch(
      /\| `main-event` \| `cdnstream:index:StreamStatus` \| `disabled` \| `true` \| `false` \|/,
    );
    // Nothing written: the state still records the declared value, and `up --refresh` puts it back.
    expect(checkpoint()).toBe(before);
    const up = await stack.up({ color: "never", refresh: true });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
  });
});
