/**
 * The provider plugin from a TypeScript program: the same resource classes, given a cdnstream
 * `Provider`, become resources of the plugin. One program manages two accounts, and a stack moves
 * a resource from the dynamic path to the plugin path (`pulumi state delete`, then the `import`
 * option) without a single write to the API.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { run } from "../../scripts/child";
import { createTestStack, engineEnv, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";
import { filesUnder } from "../helpers/state";
import { expectOnlySettingsGiven, expectUnretried } from "../helpers/plugin-program-suite";

const cdn = loadSdk();

/** Every request that changes something, by operation: what "no write" is measured by. */
async function writesSeen(emulator: TestEmulator): Promise<Record<string, number>> {
  const counts = await emulator.requestCounts();
  return Object.fromEntries(Object.entries(counts).filter(([operation]) => !operation.startsWith("GET ")));
}

const checkpointText = (test: TestStack) =>
  filesUnder(path.join(test.dir, "backend"))
    .map(([, text]) => text)
    .join("\n");

describe("two accounts in one TypeScript program, through two cdnstream Providers", () => {
  let staging: TestEmulator;
  let production: TestEmulator;
  let test: TestStack;
  let output = "";
  const onOutput = (text: string) => void (output += text);

  beforeAll(async () => {
    [staging, production] = await Promise.all([startTestEmulator(), startTestEmulator()]);
    // No stack-wide account: each resource names its provider.
    test = await createTestStack({
      program: async () => {
        const accounts = { staging, production };
        const outputs: Record<string, pulumi.Output<unknown>> = {};
        for (const [name, emulator] of Object.entries(accounts)) {
          const provider = new cdn.Provider(name, {
            apiKey: pulumi.secret(emulator.apiKey),
            baseUrl: emulator.url,
            maxRetries: 1,
          });
          const status = new cdn.StreamStatus(
            `${name}-status`,
            { streamKind: "push", streamId: 3001, disabled: name === "staging" },
            { provider },
          );
          outputs[`${name}Urn`] = status.urn;
          outputs[`${name}Name`] = status.name;
        }
        return outputs;
      },
    });
    await production.mutate("pushStreams", 3001, { disabled: "1" });
  });
  afterAll(async () => {
    try {
      await test?.cleanup();
    } finally {
      await Promise.all([staging?.close(), production?.close()]);
    }
  });

  it("creates each resource in its own account, with the keys kept out of state and output", async () => {
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    expect(up.outputs.stagingUrn.value).toContain("cdnstream:index:StreamStatus::staging-status");
    expect(up.outputs.productionName.value).toBe("k3v9q2-main-event");
    expect((await staging.object("pushStreams", 3001)).disabled).toBe("1");
    expect((await production.object("pushStreams", 3001)).disabled).toBe("0");
    expect(await writesSeen(staging)).toEqual({ "POST /v2/streams/push/{streamid}/status": 1 });
    expect(await writesSeen(production)).toEqual({ "POST /v2/streams/push/{streamid}/status": 1 });
    const state = checkpointText(test);
    for (const key of [staging.apiKey, production.apiKey]) {
      expect(state).not.toContain(key);
      expect(output).not.toContain(key);
    }
  });

  it("finds a change made in one account on refresh, and only there", async () => {
    await production.mutate("pushStreams", 3001, { disabled: "1" });
    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1, same: 4 });
    const preview = await test.stack.preview({ onOutput, diff: true });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.stdout).toMatch(/production-status[\s\S]*disabled\s*:\s*true => false/);
  });
});

describe("moving a resource from the dynamic path to the plugin path", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let onPlugin = false;
  let output = "";
  const onOutput = (text: string) => void (output += text);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    test = await createTestStack({
      config: emulator.stackConfig(),
      program: async () => {
        const args = { streamKind: "timeshift" as const, streamId: 5001, disabled: false };
        if (!onPlugin) return { urn: new cdn.StreamStatus("relay", args).urn };
        // The stack's own settings, now handed to an explicit provider.
        const config = new pulumi.Config("cdnstream");
        const provider = new cdn.Provider("account", {
          apiKey: config.requireSecret("apiKey"),
          baseUrl: config.require("baseUrl"),
        });
        return { urn: new cdn.StreamStatus("relay", args, { provider, import: "timeshift/5001" }).urn };
      },
    });
  });
  afterAll(async () => {
    try {
      await test?.cleanup();
    } finally {
      await emulator?.close();
    }
  });

  it("drops the dynamic resource from state and imports it through the plugin, writing nothing", async () => {
    const up = await test.stack.up({ onOutput });
    expect(up.outputs.urn.value).toContain("pulumi-nodejs:dynamic/cdnstream:StreamStatus::relay");

    const deleted = await run("pulumi", ["state", "delete", up.outputs.urn.value as string, "--yes"], {
      cwd: test.stack.workspace.workDir,
      env: { ...process.env, ...engineEnv(test.dir) },
      deadlineMs: 2 * 60_000,
      allowFailure: true,
    });
    expect(deleted.stderr).toBe("");
    expect(deleted.status).toBe(0);

    await emulator.clearRequests();
    onPlugin = true;
    const moved = await test.stack.up({ onOutput });
    expect(moved.summary.resourceChanges).toEqual({ create: 1, import: 1, same: 1 });
    expect(moved.outputs.urn.value).toContain("cdnstream:index:StreamStatus::relay");
    expect(await writesSeen(emulator)).toEqual({});

    const preview = await test.stack.preview({ onOutput });
    expect(preview.changeSummary).toEqual({ same: 3 });
    expect(checkpointText(test)).not.toContain(emulator.apiKey);
    expect(output).not.toContain(emulator.apiKey);
  });
});

describe("the key and the retries from the environment only, on both paths", () => {
  let emulator: TestEmulator;
  let test: TestStack;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // No stack config: the explicit provider is given its address; the dynamic resource's
    // provider host, like the plugin, reads the rest from the environment the engine passes on.
    test = await createTestStack({
      env: { CDNSTREAM_API_KEY: emulator.apiKey, CDNSTREAM_BASE_URL: emulator.url, CDNSTREAM_MAX_RETRIES: "0" },
      program: async () => {
        const provider = new cdn.Provider("account", { baseUrl: emulator.url });
        new cdn.StreamStatus("plugin", { streamKind: "push", streamId: 3001, disabled: true }, { provider });
        new cdn.StreamStatus("dynamic", { streamKind: "timeshift", streamId: 5001, disabled: true });
      },
    });
  });
  afterAll(async () => {
    try {
      await test?.cleanup();
    } finally {
      await emulator?.close();
    }
  });

  it("exports a stack that holds neither the key nor a setting the program left unset", async () => {
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
    expect((await emulator.object("timeshiftStreams", 5001)).disabled).toBe("1");
    const { deployment } = await test.stack.exportStack();
    expectOnlySettingsGiven(deployment, emulator.apiKey, {
      "cdnstream:account": ["baseUrl"],
      "pulumi-nodejs:default": [],
    });
  });

  it("honours CDNSTREAM_MAX_RETRIES=0 on both paths: a 503 the client would retry fails at once", async () => {
    await expectUnretried(emulator, () => test.stack.refresh());
  });
});
