/**
 * `cdnstream drift` keeps every secret of its run out of what it prints and writes, on Pulumi's
 * PostgreSQL backend (test/helpers/postgres.ts: a real server) reached by a URL with a password:
 * once with the database up, and once with it down, when the `pulumi` CLI's own error quotes the
 * backend URL. The secrets: the URL's password, the passphrase, the API key (secret stack config)
 * and a secret config value of the project. The program prints the ones it has, so that the test
 * fails if any of them reaches stderr unredacted.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";
import {
  createTestStack,
  engineEnv,
  projectProgram,
  repoRoot,
  type TestStack,
  ENGINE_COMMAND_DEADLINE_MS,
} from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { startPostgres, type TestPostgres } from "../helpers/postgres";

const cli = path.join(repoRoot, "dist", "provider", "cli", "index.js");
const TOKEN = `tok-${crypto.randomBytes(9).toString("hex")}`;

const project = {
  "Pulumi.yaml": "name: drift-secrets\nruntime: nodejs\n",
  "package.json": JSON.stringify({ name: "drift-secrets", private: true }),
  "index.js": `const pulumi = require("@pulumi/pulumi");
const cdn = require("pulumi-cdnstream");
module.exports = () => {
  const token = new pulumi.Config().requireSecret("token");
  const key = new pulumi.Config("cdnstream").requireSecret("apiKey");
  pulumi.all([token, key]).apply(([t, k]) =>
    console.log(\`token \${t}, key \${k}, backend \${process.env.PULUMI_BACKEND_URL}\`),
  );
  new cdn.StreamStatus("main-event", { streamKind: "push", streamId: 3001, disabled: false });
};
`,
};

describe("cdnstream drift on a PostgreSQL backend with a password", () => {
  let emulator: TestEmulator;
  let pg: TestPostgres;
  let dir: string;
  let stack: TestStack;
  let env: Record<string, string>;
  let secrets: string[];

  /** The built command with the environment a pipeline gives it; what it printed and wrote, secrets checked absent. */
  async function drift(...args: string[]) {
    const json = path.join(dir, "d.json");
    const markdown = path.join(dir, "d.md");
    fs.rmSync(json, { force: true });
    fs.rmSync(markdown, { force: true });
    const {
      status: code,
      stdout,
      stderr,
    } = await runCommand(
      process.execPath,
      [cli, "drift", "--cwd", dir, "--json", json, "--markdown", markdown, ...args],
      {
        env,
        deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
        allowFailure: true,
      },
    );
    const run = {
      code,
      stdout,
      stderr,
      json: fs.readFileSync(json, "utf8"),
      markdown: fs.readFileSync(markdown, "utf8"),
    };
    for (const [where, text] of Object.entries(run))
      for (const secret of secrets)
        if (String(text).includes(secret)) throw new Error(`${where} shows a secret:\n${text}`);
    return run;
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    pg = await startPostgres();
    dir = path.join(repoRoot, ".tmp", "e2e", `drift-secrets-${crypto.randomBytes(6).toString("hex")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(dir, name), text);
    stack = await createTestStack({
      workDir: dir,
      projectName: "drift-secrets",
      stackName: "dev",
      program: projectProgram(dir),
      config: {
        "cdnstream:baseUrl": { value: emulator.url },
        "cdnstream:apiKey": { value: emulator.apiKey, secret: true },
        "drift-secrets:token": { value: TOKEN, secret: true },
      },
      env: { PULUMI_BACKEND_URL: pg.backendUrl },
    });
    expect((await stack.stack.up()).summary.resourceChanges).toEqual({ create: 2 });
    // No CDNSTREAM_API_KEY: the key is the stack's secret config, which only the stack's run knows.
    env = { ...(process.env as Record<string, string>), ...engineEnv(stack.dir), PULUMI_BACKEND_URL: pg.backendUrl };
    delete env.CDNSTREAM_API_KEY;
    secrets = [pg.password, env.PULUMI_CONFIG_PASSPHRASE!, emulator.apiKey, TOKEN];
  });
  afterAll(async () => {
    await pg?.stop();
    await emulator?.close();
    // The backend is gone with the server: nothing to destroy, the emulator forgets.
    for (const d of [stack?.dir, dir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it("database up: the check runs, and the program's secret config and the backend's password show redacted", async () => {
    const r = await drift();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.json).stacks).toEqual([
      {
        stack: "dev",
        cwd: dir,
        drifted: false,
        resources: [],
        checkpoint: { written: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
    ]);
    expect(r.stderr).toContain(
      `cdnstream drift: dev: token [REDACTED], key [REDACTED], backend postgres://${pg.user}:[REDACTED]@127.0.0.1:${pg.port}/`,
    );
  });

  it("database down: both reports and stderr keep the CLI's error, the URL's password redacted", async () => {
    await pg.stop();
    for (const args of [[], ["--stack", "dev"]]) {
      const r = await drift(...args);
      expect(r.code).toBe(1);
      const where = `postgres://${pg.user}:[REDACTED]@127.0.0.1:${pg.port}/${pg.database}`;
      const [entry] = JSON.parse(r.json).stacks;
      expect(entry.error).toContain(where);
      expect(r.markdown).toContain(where);
      expect(r.stderr).toContain(where);
      expect(r.stdout).toBe(r.markdown);
      process.stdout.write(
        `drift ${args.join(" ")} with the database down, exit ${r.code}; the markdown report:\n${r.markdown}\n`,
      );
    }
  });
});
