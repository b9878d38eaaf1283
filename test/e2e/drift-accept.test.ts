/**
 * Accepted drift end to end, on a TypeScript project (run inline by `cdnstream drift`) and a YAML
 * project (run by the YAML language host through the `pulumi` CLI, the objects read by the plugin
 * pulumi-resource-cdnstream on PATH from global setup). Each has three StreamStatus resources:
 * `main-event` and `studio-b`, and `delayed` declared with `ignoreChanges: ["disabled"]`. All three
 * are disabled behind the stack's back once; then, on the one stack of each project:
 *
 * 1. rules accept main-event (and one has expired, one matches nothing): exit 2, studio-b the one
 *    counted finding, main-event accepted, delayed ignored by the program, both rules listed;
 * 2. `cdnstream drift accept` writes a rule for studio-b into the commented file, keeping it;
 * 3. the same check: exit 0, every finding accepted or ignored;
 * 4. a bad rule file: exit 64 naming file, line and field, nothing checked, no report.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { run as runCommand } from "../../scripts/child";
import { ENGINE_COMMAND_DEADLINE_MS, engineEnv, pulumiCli, repoRoot } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { upNodeProject } from "../helpers/node-project";
import { installedPackageDir } from "../helpers/package";

const cli = path.join(installedPackageDir, "dist", "provider", "cli", "index.js");

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const projects = {
  typescript: {
    name: "accept-ts",
    type: "pulumi-nodejs:dynamic/cdnstream:StreamStatus",
    files: {
      "Pulumi.yaml": "name: accept-ts\nruntime: nodejs\nmain: index.ts\n",
      "package.json": JSON.stringify({ name: "accept-ts", private: true }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "es2020",
          module: "commonjs",
          moduleResolution: "node",
          skipLibCheck: true,
        },
      }),
      "index.ts": `import * as cdn from "pulumi-cdnstream";

export = async () => {
  new cdn.StreamStatus("main-event", { streamKind: "push", streamId: 3001, disabled: false });
  new cdn.StreamStatus("studio-b", { streamKind: "push", streamId: 3002, disabled: false });
  // Toggled by the live-operations team: the program leaves it to them.
  new cdn.StreamStatus("delayed", { streamKind: "timeshift", streamId: 5001, disabled: false }, { ignoreChanges: ["disabled"] });
  return {};
};
`,
    },
  },
  yaml: {
    name: "accept-yaml",
    type: "cdnstream:index:StreamStatus",
    files: {
      "Pulumi.yaml": `name: accept-yaml
runtime: yaml
resources:
  main-event:
    type: cdnstream:index:StreamStatus
    properties: { streamKind: push, streamId: "3001", disabled: false }
  studio-b:
    type: cdnstream:index:StreamStatus
    properties: { streamKind: push, streamId: "3002", disabled: false }
  delayed:
    type: cdnstream:index:StreamStatus
    properties: { streamKind: timeshift, streamId: "5001", disabled: false }
    options:
      ignoreChanges: [disabled]
`,
    },
  },
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One run of the installed command: seconds; its deadline stays inside the test's. */
async function run(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  const {
    status: code,
    stdout,
    stderr,
  } = await runCommand(process.execPath, args, {
    ...options,
    deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
    allowFailure: true,
  });
  return { code, stdout, stderr };
}

describe.each(Object.keys(projects) as (keyof typeof projects)[])("accepted drift on a %s project", (kind) => {
  const { name: project, type, files } = projects[kind];
  const shortType = type.replace("pulumi-nodejs:dynamic/", "");
  let emulator: TestEmulator;
  let base: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const rulesFile = () => path.join(dir, "cdnstream-drift.yaml");

  /** The installed package's `cdnstream drift`, from the project directory, as a pipeline runs it. */
  async function drift(...args: string[]): Promise<Run & { json: any; markdown: string }> {
    const json = path.join(base, "drift.json");
    const markdown = path.join(base, "drift.md");
    fs.rmSync(json, { force: true });
    fs.rmSync(markdown, { force: true });
    const r = await run([cli, "drift", "--stack", "dev", "--json", json, "--markdown", markdown, ...args], {
      cwd: dir,
      env,
    });
    const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
    expect(r.stdout + r.stderr + read(json) + read(markdown)).not.toContain(emulator.apiKey);
    return { ...r, json: read(json) && JSON.parse(read(json)), markdown: read(markdown) };
  }

  const urn = (name: string) => `urn:pulumi:dev::${project}::${type}::${name}`;
  const finding = (name: string, extra: object = {}) => ({
    urn: urn(name),
    name,
    type,
    deleted: false,
    properties: [{ property: "disabled", recorded: false, live: true, ...extra }],
  });

  beforeAll(async () => {
    emulator = await startTestEmulator();
    base = path.join(repoRoot, ".tmp", "e2e", `accept-${kind}-${crypto.randomBytes(6).toString("hex")}`);
    dir = path.join(base, "project");
    fs.mkdirSync(path.join(base, "backend"), { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    env = { ...process.env, ...engineEnv(base), CDNSTREAM_API_KEY: emulator.apiKey };
    if (kind === "yaml") {
      const stack = await LocalWorkspace.createStack(
        { stackName: "dev", workDir: dir },
        { workDir: dir, envVars: env as Record<string, string>, pulumiCommand: await pulumiCli() },
      );
      await stack.setConfig("cdnstream:baseUrl", { value: emulator.url });
      expect((await stack.up({ color: "never" })).summary.resourceChanges).toEqual({ create: 4 });
    } else {
      expect(await upNodeProject(dir, { stack: "dev", baseUrl: emulator.url, env })).toEqual({ create: 4 });
    }
    // The dashboard: all three disabled behind the stack's back.
    await emulator.mutate("pushStreams", 3001, { disabled: "1" });
    await emulator.mutate("pushStreams", 3002, { disabled: "1" });
    await emulator.mutate("timeshiftStreams", 5001, { disabled: "1" });
  });
  afterAll(async () => {
    await emulator?.close();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  // Written as a person would: comments, an expired rule, one that matches nothing.
  const commented = () => `# Drift we expect (docs/drift.md, "Accepted drift")
accept:
  # The live-operations team disables the main event between shows.
  - resource: main-*          # every main stream
    property: disabled
    stack: dev
    reason: toggled by live operations during events
    until: ${day(30)}
  - resource: studio-b
    reason: studio rebuilt last season
    until: 2020-06-30
  - resource: ${shortType}
    property: streamId
    reason: no stream moves
    until: ${day(10)}
`;

  it("an accepted and an unaccepted change: exit 2, one counted; ignoreChanges reported as ignored; expired and stale rules listed", async () => {
    fs.writeFileSync(rulesFile(), commented());
    const r = await drift();
    expect(r.stderr).toMatch(/dev: drift in studio-b\.\{disabled\}; 2 accepted or ignored/);
    expect(r.code).toBe(2);
    const accepted = {
      rule: "cdnstream-drift.yaml:4",
      reason: "toggled by live operations during events",
      until: day(30),
    };
    expect(r.json.stacks[0].drifted).toBe(true);
    // Sorted by URN: delayed, main-event, studio-b.
    expect(r.json.stacks[0].resources).toEqual([
      finding("delayed", { ignoredByProgram: true }),
      finding("main-event", { accepted }),
      finding("studio-b"),
    ]);
    expect(r.json.acceptance).toEqual({
      file: "cdnstream-drift.yaml",
      expired: [
        {
          rule: "cdnstream-drift.yaml:9",
          resource: "studio-b",
          reason: "studio rebuilt last season",
          until: "2020-06-30",
        },
      ],
      stale: [
        {
          rule: "cdnstream-drift.yaml:12",
          resource: shortType,
          property: "streamId",
          reason: "no stream moves",
          until: day(10),
        },
      ],
    });
    expect(r.markdown).toMatch(/### Stack `dev`: drift \(1 finding\)/);
    expect(r.markdown).toContain(`| \`studio-b\` | \`${shortType}\` | \`disabled\` | \`false\` | \`true\` |\n\n`);
    expect(r.markdown).toContain(
      `| \`main-event\` | \`${shortType}\` | \`disabled\` | \`false\` | \`true\` | accepted until ${day(30)} (\`cdnstream-drift.yaml:4\`): \`toggled by live operations during events\` |`,
    );
    expect(r.markdown).toContain(
      `| \`delayed\` | \`${shortType}\` | \`disabled\` | \`false\` | \`true\` | ignored by the program (\`ignoreChanges\`) |`,
    );
    expect(r.markdown).toMatch(
      /Expired \(they no longer accept anything\):\n\n- `cdnstream-drift.yaml:9` `studio-b`, until 2020-06-30/,
    );
    expect(r.markdown).toMatch(/Stale \(they matched nothing in this run\):\n\n- `cdnstream-drift.yaml:12`/);
    fs.writeFileSync(path.join(base, "first.json"), JSON.stringify(r.json));
  });

  it("`drift accept` writes a rule for the counted change into the commented file, keeping it; then exit 0", async () => {
    const before = commented();
    const accept = await run(
      [
        cli,
        "drift",
        "accept",
        path.join(base, "first.json"),
        "--reason",
        "studio B is being rebuilt",
        "--until",
        day(60),
      ],
      { cwd: dir, env },
    );
    expect(accept.stderr).toContain(`dev: studio-b.disabled accepted until ${day(60)}`);
    expect(accept.code).toBe(0);
    // The file as it was, every comment and rule in place, and the new rule after them.
    expect(fs.readFileSync(rulesFile(), "utf8")).toBe(
      `${before.replace("main-*          # every", "main-* # every")}  - resource: studio-b
    property: disabled
    stack: dev
    reason: studio B is being rebuilt
    until: ${day(60)}
`,
    );

    const r = await drift();
    expect(r.stderr).toMatch(/dev: no drift \(3 accepted or ignored\)/);
    expect(r.code).toBe(0);
    expect(r.json.drifted).toBe(false);
    expect(r.json.stacks[0].resources.map((x: any) => [x.name, Object.keys(x.properties[0]).sort()])).toEqual([
      ["delayed", ["ignoredByProgram", "live", "property", "recorded"]],
      ["main-event", ["accepted", "live", "property", "recorded"]],
      ["studio-b", ["accepted", "live", "property", "recorded"]],
    ]);
    expect(r.json.stacks[0].resources[2].properties[0].accepted).toEqual({
      rule: "cdnstream-drift.yaml:16",
      reason: "studio B is being rebuilt",
      until: day(60),
    });
    expect(r.markdown).toMatch(/^## No drift\n\n1 stack checked: 0 drifted, 1 clean\./);
    expect(r.markdown).toContain("No drift that counts: every change below is accepted or ignored by the program.");
  });

  it("a bad rule file: exit 64 naming the file, line and field; nothing checked, no report", async () => {
    fs.writeFileSync(
      path.join(base, "bad.yaml"),
      `accept:\n  - resource: main-event\n    reason: too long\n    until: ${day(400)}\n`,
    );
    const r = await drift("--accept", path.join(base, "bad.yaml"));
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(
      `${path.join(base, "bad.yaml")}:4: accept[0].until: ${day(400)} is more than 366 days after today (${day(0)})`,
    );
    expect(r.stderr).not.toMatch(/checking dev/);
    expect(r.json).toBe("");
  });
});
