/**
 * The engine itself, end to end: the real CLI, the in-process language runtime of the
 * Automation API and the dynamic-provider plugin run one resource through up, an empty
 * preview and destroy; then the root Pulumi.yaml project (the demo stack) does the same.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { run } from "../../scripts/child";
import { compileProject } from "../../scripts/demo/project-build";
import {
  createTestStack,
  expectedCliVersion,
  projectName,
  projectProgram,
  repoRoot,
  sdkVersion,
  TestStack,
} from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";

/** A dynamic provider with no dependencies: it records its inputs and counts calls in outputs. */
const echoProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: `echo-${inputs.label}`, outs: { ...inputs, createdBy: "echo" } };
  },
  async diff(_id, olds, news) {
    const changed = olds.label !== news.label;
    return { changes: changed, replaces: changed ? ["label"] : [] };
  },
};

class Echo extends pulumi.dynamic.Resource {
  declare readonly label: pulumi.Output<string>;
  declare readonly createdBy: pulumi.Output<string>;
  constructor(name: string, label: string) {
    super(echoProvider, name, { label, createdBy: undefined }, {}, "smoke", "Echo");
  }
}

describe("the real Pulumi engine", () => {
  it("is the release of the installed @pulumi/pulumi, or the newest below it the Go module proxy serves", async () => {
    const version = await run("pulumi", ["version"], { deadlineMs: 60_000 });
    expect(version.stdout.trim()).toBe(`v${expectedCliVersion()}`);
    // Never newer than the SDK, and of its major version.
    const [cliMajor, cliMinor] = expectedCliVersion().split(".").map(Number);
    const [sdkMajor, sdkMinor] = sdkVersion.split(".").map(Number);
    expect(cliMajor).toBe(sdkMajor);
    expect(cliMinor).toBeLessThanOrEqual(sdkMinor!);
  });

  describe("one dynamic resource", () => {
    let test: TestStack;
    afterAll(async () => test?.cleanup());

    it("runs up, an empty preview and destroy", async () => {
      test = await createTestStack({
        projectName: "smoke",
        program: async () => {
          const echo = new Echo("greeting", "hello");
          return { label: echo.label, createdBy: echo.createdBy, id: echo.id };
        },
      });

      const up = await test.stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.summary.resourceChanges).toEqual({ create: 2 }); // the stack and the resource
      expect(up.outputs.label.value).toBe("hello");
      expect(up.outputs.createdBy.value).toBe("echo");
      expect(up.outputs.id.value).toBe("echo-hello");

      const preview = await test.stack.preview();
      expect(preview.changeSummary).toEqual({ same: 2 });

      const destroy = await test.stack.destroy();
      expect(destroy.summary.result).toBe("succeeded");
      expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
      const state = await test.stack.exportStack();
      expect(state.deployment.resources ?? []).toHaveLength(0);
    });
  });
});

describe("the root Pulumi.yaml demo project", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  afterAll(async () => {
    await test?.cleanup();
    await emulator?.close();
  });

  it("runs up, an empty preview and destroy against the emulator", async () => {
    emulator = await startTestEmulator();
    // The program is examples/demo, compiled against the installed package (as `npm run demo` does).
    await compileProject(path.join(repoRoot, "examples", "demo"));
    test = await createTestStack({
      workDir: repoRoot,
      projectName: projectName(repoRoot),
      stackName: `smoke-${process.pid}`,
      program: projectProgram(repoRoot),
      // The key as secret config: the program's data sources run in this process and read it there.
      config: emulator.stackConfig(),
    });
    const up = await test.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 11 }); // the stack and every kind
    const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    expect(out.assetsHostnames).toEqual(["assets.northwind.example", "static.northwind.example"]);
    expect(out.adBreaks).toEqual(["preroll 30s", "midroll @600s 90s", "postroll 60s"]);
    expect(out.retiredCampaign).toBe("Morning Roast Launch (Bluefin Coffee): archived");
    expect(out.usEastStream).toMatchObject({ name: "k3v9q2-main-event-us-east" });
    expect(out.dnsNameservers).toHaveLength(3);

    const preview = await test.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 11 });

    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 11 });
  });
});
