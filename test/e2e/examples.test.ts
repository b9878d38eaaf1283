/**
 * The examples as users run them: each project compiled with tsc against the installed package's
 * types, then run inline through the Automation API on its own directory (its Pulumi.yaml, its
 * package.json scope) against the emulator: up, a preview with zero changes and zero API calls,
 * destroy. The gitops example's nightly `cdnstream drift` runs as its workflow runs it, in a child process.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { compileProject } from "../../scripts/demo/project-build";
import { run as runCommand } from "../../scripts/child";
import {
  createTestStack,
  engineEnv,
  projectName,
  projectProgram,
  repoRoot,
  TestStack,
  ENGINE_COMMAND_DEADLINE_MS,
} from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";

const yaml: { load(text: string): any } = require("js-yaml");

const exampleDir = (name: string) => path.join(repoRoot, "examples", name);
const outputsOf = (outputs: Record<string, { value: unknown; secret: boolean }>) =>
  Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));

describe("examples", () => {
  let emulator: TestEmulator;
  let test: TestStack | undefined;

  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterEach(async () => {
    await test?.cleanup();
    test = undefined;
    // Each example starts from the fixture, whatever the one before left behind.
    await fetch(`${emulator.url}/__emulator/reset`, { method: "POST" });
  });
  afterAll(async () => emulator?.close());

  /** Compiles the example and creates a stack in its directory, pointed at the emulator. */
  async function deploy(
    name: string,
    config: Record<string, { value: string; secret?: boolean }> = {},
  ): Promise<TestStack> {
    const dir = exampleDir(name);
    await compileProject(dir);
    test = await createTestStack({
      workDir: dir,
      projectName: projectName(dir),
      stackName: `e2e-${crypto.randomBytes(4).toString("hex")}`,
      program: projectProgram(dir),
      config: { "cdnstream:baseUrl": { value: emulator.url }, ...config },
      env: { CDNSTREAM_API_KEY: emulator.apiKey },
    });
    return test;
  }

  /** A preview right after up: nothing to do, and not one API request (check and diff never call it). */
  async function expectEmptyPreview(stack: TestStack, resources: number): Promise<void> {
    await emulator.clearRequests();
    expect((await stack.stack.preview()).changeSummary).toEqual({ same: resources });
    expect(await emulator.requestCounts()).toEqual({});
  }

  it("quickstart: up, empty preview, destroy", async () => {
    const { stack } = await deploy("quickstart");
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    expect(outputsOf(up.outputs)).toMatchObject({
      cnameTarget: "assets-2c8a6b.push.cdnstream.example",
      customDomains: ["assets.northwind.example", "static.northwind.example"],
      mainEventHls: "https://live.cdnstream.example/k3v9q2-main-event/playlist.m3u8",
    });
    expect((await emulator.object("httpPushZones", 101)).cnames).toBe(
      "assets.northwind.example,static.northwind.example",
    );

    await expectEmptyPreview(test!, 3);
    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
  });

  it("streaming: up with a secret token key, empty preview, destroy disables the timeshift stream", async () => {
    const { stack } = await deploy("streaming", {
      "cdnstream-streaming:tokenKey": { value: "replay-token-key-1", secret: true },
    });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 8 });
    const out = outputsOf(up.outputs) as any;
    expect(out.delayedStream).toMatchObject({
      name: "k3v9q2-event-plus-3h",
      hls: expect.stringContaining("playlist_dvr.m3u8"),
    });
    expect(up.outputs.delayedTokenizedHls!.secret).toBe(true);
    expect(out.adTimeline).toMatchObject({
      preroll: { maxDurationS: 20 },
      every15Minutes: { intervalS: 900, maxBreaks: 6 },
      postroll: { maxDurationS: 45 },
    });
    expect(out.retiredCampaigns).toEqual(["Unlimited Plan Q2 (Lumen Mobile): archived"]);
    const streamId = out.delayedStream.id as string;
    expect((await emulator.object("timeshiftStreams", streamId)).ndvr).toMatchObject({ enabled: "Y" });
    expect(JSON.stringify(await stack.exportStack())).not.toContain(emulator.apiKey);

    await expectEmptyPreview(test!, 8);
    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 8 });
    expect((await emulator.object("timeshiftStreams", streamId)).disabled).toBe("1");
  });

  describe("gitops", () => {
    const dir = exampleDir("gitops");

    /** `npx cdnstream drift ...` as the workflow's nightly job runs it: the installed package's command, in the project directory. */
    async function drift(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
      const env = { ...process.env, ...engineEnv(test!.dir), CDNSTREAM_API_KEY: emulator.apiKey };
      const cli = path.join(repoRoot, "node_modules", "pulumi-cdnstream", "dist", "provider", "cli", "index.js");
      const {
        status: code,
        stdout,
        stderr,
      } = await runCommand(process.execPath, [cli, "drift", ...args], {
        cwd: dir,
        env,
        deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
        allowFailure: true,
      });
      expect(stdout + stderr).not.toContain(emulator.apiKey);
      return { code, stdout, stderr };
    }

    it("up, an empty preview, the nightly cdnstream drift naming the property on the uncompiled TypeScript, destroy", async () => {
      const { stack } = await deploy("gitops");
      const reports = fs.mkdtempSync(path.join(test!.dir, "reports-"));
      const name = stack.name;

      const up = await stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect((await emulator.object("vodPullZones", 402)).domainlock).toMatchObject({
        enabled: "Y",
        list: "player.northwind.example,*.northwind.example",
      });

      // What the pull-request job's preview shows after a merge: nothing to do, no API call.
      await expectEmptyPreview(test!, 4);

      await emulator.mutate("vodPullZones", 402, { domainlock: { list: "player.northwind.example" } });
      const markdown = path.join(reports, "drift.md");
      const found = await drift("--stack", name, "--markdown", markdown, "--json", path.join(reports, "drift.json"));
      expect(found.code).toBe(2);
      expect(fs.readFileSync(markdown, "utf8")).toMatch(/^## Drift detected\n/);
      expect(fs.readFileSync(markdown, "utf8")).toContain("| `vod-402` | `cdnstream:VodPullDomainLock` | `domains` |");

      expect((await drift("--stack", name, "deploy")).code).toBe(64); // bad usage: EX_USAGE, never the 2 of drift
      expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 4 });
    });

    it("the workflow: pulumi/actions previews pull requests (its own comment) and runs up on main, a scheduled drift check with an issue", () => {
      const workflow = yaml.load(fs.readFileSync(path.join(dir, ".github", "workflows", "cdnstream.yml"), "utf8"));
      expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push", "schedule", "workflow_dispatch"]);
      expect(workflow.on.push.branches).toEqual(["main"]);
      const steps = (job: string): { uses?: string; run?: string; with?: Record<string, unknown> }[] =>
        workflow.jobs[job].steps;
      const runs = (job: string) =>
        steps(job)
          .map((s) => s.run ?? "")
          .join("\n");
      const pulumiAction = (job: string) => steps(job).find((s) => s.uses?.startsWith("pulumi/actions@"));
      expect(workflow.jobs.preview.if).toBe("github.event_name == 'pull_request'");
      expect(pulumiAction("preview")?.with).toMatchObject({
        command: "preview",
        "stack-name": "${{ env.STACK }}",
        "comment-on-pr": true,
      });
      expect(workflow.jobs.up.if).toBe("github.event_name == 'push'");
      expect(pulumiAction("up")?.with).toMatchObject({ command: "up", "stack-name": "${{ env.STACK }}" });
      expect(workflow.jobs.drift.if).toContain("schedule");
      expect(runs("drift")).toContain('npx cdnstream drift --stack "$STACK" --markdown drift.md');
      expect(runs("drift")).toContain("gh issue create");
      // Every job installs what it runs; TypeScript runs uncompiled (package.json main index.ts, no main in Pulumi.yaml).
      for (const job of ["preview", "up", "drift"]) expect(runs(job)).toContain("npm ci");
      expect(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).main).toBe("index.ts");
      expect(yaml.load(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).main).toBeUndefined();
    });
  });
});
