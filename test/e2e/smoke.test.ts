/**
 * The engine itself, end to end: the real CLI, the in-process language runtime of the
 * Automation API and the dynamic-provider plugin run one resource through up, an empty
 * preview and destroy.
 */
import { spawnSync } from "node:child_process";
import * as pulumi from "@pulumi/pulumi";
import { createTestStack, projectName, projectProgram, repoRoot, TestStack } from "../helpers/engine";

const pinnedVersion: string = require("../../package.json").dependencies["@pulumi/pulumi"];

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
  it("is the version @pulumi/pulumi is pinned to", () => {
    const run = spawnSync("pulumi", ["version"], { encoding: "utf8" });
    expect(run.error).toBeUndefined();
    expect(run.stdout.trim()).toBe(`v${pinnedVersion}`);
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
  let test: TestStack;
  afterAll(async () => test?.cleanup());

  it("runs up, an empty preview and destroy", async () => {
    test = await createTestStack({
      workDir: repoRoot,
      projectName: projectName(repoRoot),
      stackName: `smoke-${process.pid}`,
      program: projectProgram(repoRoot),
      config: { "cdnstream:baseUrl": { value: "http://127.0.0.1:9" } },
    });
    const up = await test.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.project.value).toBe("cdnstream-demo");
    expect(up.outputs.baseUrl.value).toBe("http://127.0.0.1:9");

    const preview = await test.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 1 });
  });
});
