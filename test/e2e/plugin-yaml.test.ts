/**
 * The provider plugin through the real CLI, driven by a YAML program (the YAML language host
 * needs nothing but the plugin's schema): up, a preview with no changes, an out-of-band change
 * found by refresh, `pulumi import` with the code the CLI prints, an import refused where the
 * API cannot show the object, destroy; the provider's configuration checked at preview with no
 * request; and one program managing two accounts through two explicit providers.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { run } from "../../scripts/child";
import { engineEnv, pulumiCli, repoRoot } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { installedPackageDir } from "../helpers/package";
import { expectOnlySettingsGiven, expectUnretried } from "../helpers/plugin-program-suite";

const STATUS_WRITE = "POST /v2/streams/push/{streamid}/status";

/** A YAML project directory with its own backend; `write` replaces its Pulumi.yaml. */
async function yamlStack(
  name: string,
  config: Record<string, { value: string; secret?: boolean }>,
  env: Record<string, string> = {},
) {
  const dir = path.join(repoRoot, ".tmp", "e2e", crypto.randomBytes(6).toString("hex"));
  const workDir = path.join(dir, "project");
  fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
  fs.mkdirSync(workDir, { recursive: true });
  const write = (body: string) =>
    fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\n${body.trim()}\n`);
  write("resources: {}");
  const stack: Stack = await LocalWorkspace.createStack(
    { stackName: "test", workDir },
    { workDir, envVars: { ...engineEnv(dir), ...env }, pulumiCommand: await pulumiCli() },
  );
  await stack.setAllConfig(config);
  return {
    stack,
    dir,
    write,
    async cleanup() {
      try {
        await stack.destroy({ onOutput: () => undefined });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The stack's checkpoint as the file backend holds it: what must never hold the key. */
function checkpointText(dir: string): string {
  const stacks = path.join(dir, "backend", ".pulumi", "stacks");
  const files: string[] = [];
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(fs.readFileSync(full, "utf8"));
    }
  };
  if (fs.existsSync(stacks)) walk(stacks);
  return files.join("\n");
}

describe("the provider plugin, from a YAML program", () => {
  let emulator: TestEmulator;
  let project: Awaited<ReturnType<typeof yamlStack>>;
  let output = "";
  const onOutput = (text: string) => void (output += text);

  const program = (extra = "") => `
resources:
  status:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: true
${extra}
variables:
  dns:
    fn::invoke:
      function: cdnstream:index:getDnsZones
      arguments: {}
outputs:
  streamName: \${status.name}
  password: \${status.rtmpAuthPassword}
  domains: \${dns.domains}
`;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    project = await yamlStack("cdnstream-yaml", emulator.stackConfig());
  });
  afterAll(async () => {
    try {
      await project?.cleanup();
    } finally {
      await emulator?.close();
    }
  });

  it("creates, reads a data source, and keeps the credential output and the key secret", async () => {
    project.write(program());
    const up = await project.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.streamName.value).toBe("k3v9q2-main-event");
    expect(up.outputs.password.secret).toBe(true);
    expect((up.outputs.domains.value as { domain: string }[]).map((d) => d.domain)).toContain("northwind.example");
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
    const state = checkpointText(project.dir);
    expect(state).toContain("cdnstream:index:StreamStatus");
    expect(state).not.toContain(emulator.apiKey);
    expect(state).not.toContain(up.outputs.password.value as string);
    expect(output).not.toContain(emulator.apiKey);
  });

  it("previews no changes, sending no write", async () => {
    await emulator.clearRequests();
    const preview = await project.stack.preview({ onOutput });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect((await emulator.requestCounts())[STATUS_WRITE] ?? 0).toBe(0);
  });

  it("finds an out-of-band change on refresh, and up puts it back", async () => {
    await emulator.mutate("pushStreams", 3001, { disabled: "0" });
    const refresh = await project.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    const preview = await project.stack.preview({ onOutput, diff: true });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.stdout).toMatch(/disabled\s*:\s*false => true/);
    await project.stack.up({ onOutput });
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
  });

  it("imports a live object and prints the code that declares it; that code then previews no change", async () => {
    const imported = await project.stack.import({
      resources: [{ type: "cdnstream:index:StreamStatus", name: "relay", id: "timeshift/5001" }],
      protect: false,
      generateCode: true,
      onOutput,
    });
    expect(imported.summary.resourceChanges).toMatchObject({ import: 1 });
    expect(imported.generatedCode).toContain("type: cdnstream:StreamStatus");
    expect(imported.generatedCode).toMatch(/streamKind: timeshift/);
    expect(imported.generatedCode).toMatch(/streamId: '5001'/);
    expect(imported.generatedCode).toMatch(/disabled: false/);
    // The generated declaration, pasted into the program as the CLI asks, changes nothing.
    const declared = imported.generatedCode.replace(/^resources:\n/, "").trimEnd();
    project.write(program(declared));
    const preview = await project.stack.preview({ onOutput });
    expect(preview.changeSummary).toEqual({ same: 3 });
  });

  it("refuses to import an object the API cannot show, saying why and what to do", async () => {
    await emulator.setProfile({ reads: "spec-only" });
    try {
      const refused = project.stack.import({
        resources: [{ type: "cdnstream:index:StreamStatus", name: "unreadable", id: "push/3001" }],
        protect: false,
        onOutput,
      });
      await expect(refused).rejects.toThrow(/StreamStatus "push\/3001" cannot be imported: .*Declare the resource/s);
    } finally {
      await emulator.setProfile({ reads: "extensions" });
    }
  });

  it("destroys, leaving the stream as it is", async () => {
    const destroy = await project.stack.destroy({ onOutput });
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 3 });
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
    expect(output).not.toContain(emulator.apiKey);
  });
});

describe("the plugin's configuration, checked at preview before any request", () => {
  let emulator: TestEmulator;
  beforeAll(async () => (emulator = await startTestEmulator()));
  afterAll(() => emulator?.close());

  const resources = `
resources:
  status:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: true
`;

  it.each([
    [
      "a missing API key",
      { "cdnstream:baseUrl": { value: "" } },
      // An explicit provider takes the key as an argument too, and the advice says so.
      /apiKey.*No API key: set `pulumi config set --secret cdnstream:apiKey <key>` \(or the provider's `apiKey` argument\)/s,
    ],
    [
      "a malformed base URL",
      { "cdnstream:apiKey": { value: "k", secret: true }, "cdnstream:baseUrl": { value: "ftp//api.example" } },
      /baseUrl.*is not a URL/s,
    ],
    [
      "a negative rate limit",
      { "cdnstream:apiKey": { value: "k", secret: true }, "cdnstream:rps": { value: "-1" } },
      /rps.*is not a number >= 0/s,
    ],
  ])("fails preview on %s, naming the setting", async (_what, config, message) => {
    const withUrl = { "cdnstream:baseUrl": { value: emulator.url }, ...config };
    const project = await yamlStack("cdnstream-yaml-config", withUrl, {
      CDNSTREAM_API_KEY: "",
      CDNSTREAM_BASE_URL: "",
    });
    try {
      project.write(resources);
      await emulator.clearRequests();
      await expect(project.stack.preview()).rejects.toThrow(message);
      expect(await emulator.requestCounts()).toEqual({});
    } finally {
      await project.cleanup();
    }
  });
});

describe("the key and the retries from the environment only", () => {
  let emulator: TestEmulator;
  let project: Awaited<ReturnType<typeof yamlStack>>;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // No stack config: the explicit provider is given its address, the default provider nothing.
    project = await yamlStack(
      "cdnstream-yaml-environment",
      {},
      { CDNSTREAM_API_KEY: emulator.apiKey, CDNSTREAM_BASE_URL: emulator.url, CDNSTREAM_MAX_RETRIES: "0" },
    );
    project.write(`
resources:
  account:
    type: pulumi:providers:cdnstream
    properties:
      baseUrl: ${emulator.url}
  explicit:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: true
    options:
      provider: \${account}
  ambient:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: timeshift
      streamId: "5001"
      disabled: true
`);
  });
  afterAll(async () => {
    try {
      await project?.cleanup();
    } finally {
      await emulator?.close();
    }
  });

  it("exports a stack that holds neither the key nor a setting the program left unset", async () => {
    const up = await project.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    expect((await emulator.object("timeshiftStreams", 5001)).disabled).toBe("1");
    const { deployment } = await project.stack.exportStack();
    expectOnlySettingsGiven(deployment, emulator.apiKey, { "cdnstream:account": ["baseUrl"], "cdnstream:default": [] });
  });

  it("honours CDNSTREAM_MAX_RETRIES=0 on both providers: a 503 the client would retry fails at once", async () => {
    await expectUnretried(emulator, () => project.stack.refresh());
  });
});

describe("two accounts in one program, through explicit providers", () => {
  let staging: TestEmulator;
  let production: TestEmulator;
  let project: Awaited<ReturnType<typeof yamlStack>>;

  beforeAll(async () => {
    [staging, production] = await Promise.all([startTestEmulator(), startTestEmulator()]);
    // No default account: every resource names its provider.
    project = await yamlStack(
      "cdnstream-yaml-accounts",
      {
        stagingKey: { value: staging.apiKey, secret: true },
        productionKey: { value: production.apiKey, secret: true },
      },
      { CDNSTREAM_API_KEY: "", CDNSTREAM_BASE_URL: "" },
    );
  });
  afterAll(async () => {
    try {
      await project?.cleanup();
    } finally {
      await Promise.all([staging?.close(), production?.close()]);
    }
  });

  it("writes each resource to its own account with its own key", async () => {
    expect(staging.apiKey).not.toBe(production.apiKey);
    project.write(`
config:
  stagingKey:
    type: string
    secret: true
  productionKey:
    type: string
    secret: true
resources:
  staging:
    type: pulumi:providers:cdnstream
    properties:
      apiKey: \${stagingKey}
      baseUrl: ${staging.url}
  production:
    type: pulumi:providers:cdnstream
    properties:
      apiKey: \${productionKey}
      baseUrl: ${production.url}
  stagingStatus:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: true
    options:
      provider: \${staging}
  productionStatus:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: false
    options:
      provider: \${production}
`);
    // Production's stream starts disabled, so each account's end state shows whose write reached it.
    await production.mutate("pushStreams", 3001, { disabled: "1" });
    const up = await project.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    expect((await staging.object("pushStreams", 3001)).disabled).toBe("1");
    expect((await production.object("pushStreams", 3001)).disabled).toBe("0");
    expect((await staging.requestCounts())[STATUS_WRITE]).toBe(1);
    expect((await production.requestCounts())[STATUS_WRITE]).toBe(1);
    const state = checkpointText(project.dir);
    expect(state).not.toContain(staging.apiKey);
    expect(state).not.toContain(production.apiKey);

    // A refresh goes to each account with its own provider: nothing changed in either.
    const refresh = await project.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 5 });
  });
});

describe("cdnstream plugin install", () => {
  it("puts the plugin in the Pulumi plugin cache, where `pulumi plugin ls` lists it and a program finds it off PATH", async () => {
    const emulator = await startTestEmulator();
    // PATH without the plugin's launcher directory: only the plugin cache can serve it.
    const pathWithoutPlugin = (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => !fs.existsSync(path.join(dir, "pulumi-resource-cdnstream")))
      .join(path.delimiter);
    const project = await yamlStack("cdnstream-yaml-installed", emulator.stackConfig(), { PATH: pathWithoutPlugin });
    try {
      const pulumiHome = path.join(project.dir, "pulumi-home");
      const cli = path.join(installedPackageDir, "dist", "provider", "cli", "index.js");
      // A time limit: an install that never ends must fail this test, not block the whole run.
      const install = await run(process.execPath, [cli, "plugin", "install"], {
        env: { ...process.env, PULUMI_HOME: pulumiHome },
        deadlineMs: 120_000,
        allowFailure: true,
      });
      expect(install.stderr).toBe("");
      expect(install.status).toBe(0);
      expect(install.stdout).toMatch(/^installed pulumi-resource-cdnstream v\d+\.\d+\.\d+ at /);

      const listed = await run("pulumi", ["plugin", "ls", "--json"], {
        env: { ...process.env, PULUMI_HOME: pulumiHome },
        deadlineMs: 60_000,
        allowFailure: true,
      });
      expect(listed.status).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: "cdnstream", kind: "resource" })]),
      );

      project.write(`
resources:
  status:
    type: cdnstream:index:StreamStatus
    properties:
      streamKind: push
      streamId: "3001"
      disabled: true
`);
      const up = await project.stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: 2 });
      expect(up.stdout).not.toMatch(/using pulumi-resource-cdnstream from \$PATH/);
    } finally {
      try {
        await project.cleanup();
      } finally {
        await emulator.close();
      }
    }
  });
});
