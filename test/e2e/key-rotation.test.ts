/**
 * Rotating the API key (§5: regenerate it when a person leaves or it may be compromised), end to
 * end, as docs/key-rotation.md tells it: `up` with key A; the account switches to key B
 * only (the emulator restarts on the same port and state file with B, so A gets 401); the new key
 * is set once in stack config and once in CDNSTREAM_API_KEY; then `cdnstream drift` exits 0 and
 * refresh and destroy succeed without an `up` in between, and no request after the switch is
 * refused (none carries A). Each stack declares a TimeshiftStream, whose destroy disables it
 * through the API, so destroy must authenticate too.
 *
 * Then why `--run-program` matters: a stack whose state holds A from stack config fails a plain
 * refreshing preview with 401s whose message names the flag; the refresh it names succeeds and
 * records B, after which a plain destroy works.
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
  TestStack,
  ENGINE_COMMAND_DEADLINE_MS,
} from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";
import { installedPackageDir } from "../helpers/package";

const cli = path.join(installedPackageDir, "dist", "provider", "cli", "index.js");
const KEY_A = `key-a-${crypto.randomBytes(16).toString("hex")}`;
const KEY_B = `key-b-${crypto.randomBytes(16).toString("hex")}`;

const project = {
  "Pulumi.yaml": "name: key-rotation\nruntime: nodejs\n",
  "package.json": JSON.stringify({ name: "key-rotation", private: true }),
  "index.js": `const pulumi = require("@pulumi/pulumi");
const cdn = require("pulumi-cdnstream");
module.exports = () => {
  const status = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: 3001, disabled: false });
  // Destroying it disables it through the API (§4.4): destroy sends the key too.
  const replay = new cdn.TimeshiftStream("replay", { name: "replay-" + pulumi.getStack(), parent: 3001, timeshift: 3600, protocols: ["HLS"] });
  return { status: status.id, replay: replay.id };
};
`,
};

interface LogEntry {
  method: string;
  path: string;
  status: number;
}

describe("rotating the API key", () => {
  let emulator: TestEmulator;
  let dir: string;
  let stateFile: string;
  const stacks: Record<"config" | "env" | "stale" | "staleEnv", TestStack | undefined> = {
    config: undefined,
    env: undefined,
    stale: undefined,
    staleEnv: undefined,
  };
  const inherited = process.env.CDNSTREAM_API_KEY;

  /** The emulator's request log since the last clear. */
  async function requests(): Promise<LogEntry[]> {
    return ((await (await fetch(`${emulator.url}/__emulator/requests`)).json()) as { requests: LogEntry[] }).requests;
  }
  const refused = async () => (await requests()).filter((r) => r.status === 401);

  /** The installed `cdnstream drift` as a pipeline runs it, with the stack's backend and `extraEnv`. */
  async function drift(
    stack: TestStack,
    extraEnv: Record<string, string>,
  ): Promise<{ code: number | null; output: string }> {
    const env = { ...(process.env as Record<string, string>), ...engineEnv(stack.dir), ...extraEnv };
    const ran = await runCommand(
      process.execPath,
      [cli, "drift", "--cwd", dir, "--stack", stack.stack.name, "--json", "-"],
      {
        env,
        deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
        allowFailure: true,
      },
    );
    return { code: ran.status, output: ran.output };
  }

  function expectNoKey(text: string): void {
    expect(text).not.toContain(KEY_A);
    expect(text).not.toContain(KEY_B);
  }

  beforeAll(async () => {
    // Only what each step sets may provide the key.
    delete process.env.CDNSTREAM_API_KEY;
    dir = path.join(repoRoot, ".tmp", "e2e", `rotation-${crypto.randomBytes(6).toString("hex")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(dir, name), text);
    stateFile = path.join(dir, "emulator-state.json");
    emulator = await startTestEmulator({ apiKey: KEY_A, stateFile });

    const create = (
      stackName: string,
      config: Record<string, { value: string; secret?: boolean }>,
      env: Record<string, string> = {},
    ) =>
      createTestStack({
        workDir: dir,
        projectName: "key-rotation",
        stackName,
        program: projectProgram(dir),
        config: { "cdnstream:baseUrl": { value: emulator.url }, ...config },
        env,
      });
    stacks.config = await create("config", { "cdnstream:apiKey": { value: KEY_A, secret: true } });
    stacks.env = await create("env", {}, { CDNSTREAM_API_KEY: KEY_A });
    stacks.stale = await create("stale", { "cdnstream:apiKey": { value: KEY_A, secret: true } });
    stacks.staleEnv = await create("stale-env", {}, { CDNSTREAM_API_KEY: KEY_A });
  });

  afterAll(async () => {
    try {
      // Whatever a failed step left behind is destroyed with the key the account takes now.
      for (const test of Object.values(stacks)) {
        if (!test) continue;
        await test.stack.setConfig("cdnstream:apiKey", { value: KEY_B, secret: true });
        await test.stack.destroy({ runProgram: true, onOutput: () => undefined }).catch(() => undefined);
        await test.cleanup().catch(() => undefined);
      }
    } finally {
      await emulator?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      if (inherited !== undefined) process.env.CDNSTREAM_API_KEY = inherited;
    }
  });

  it("up with key A, in stack config and in the environment", async () => {
    for (const test of Object.values(stacks))
      expect((await test!.stack.up()).summary.resourceChanges).toEqual({ create: 3 });
    expect(await refused()).toEqual([]);
  });

  it("the account switches to key B only: the emulator restarts on the same port and state with B, and refuses A", async () => {
    const before = await emulator.state();
    const { port, url } = emulator;
    await emulator.close();
    emulator = await startTestEmulator({ apiKey: KEY_B, stateFile, port });
    expect(emulator.url).toBe(url);
    expect(await emulator.state()).toEqual(before);
    const withA = await fetch(`${url}/v2/dns`, { headers: { "x-api-key": KEY_A } });
    expect(withA.status).toBe(401);
    const withB = await fetch(`${url}/v2/dns`, { headers: { "x-api-key": KEY_B } });
    expect(withB.status).toBe(200);
    // From here on every request must carry B.
    await emulator.clearRequests();
  });

  it("key B in stack config: drift exits 0, refresh and destroy succeed with --run-program, no up in between", async () => {
    const { stack } = stacks.config!;
    await stack.setConfig("cdnstream:apiKey", { value: KEY_B, secret: true });

    const checked = await drift(stacks.config!, {});
    expectNoKey(checked.output);
    expect(checked.output).toMatch(/config: no drift/);
    expect(checked.code).toBe(0);

    const refresh = await stack.refresh({ runProgram: true });
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
    const replayId = (await stack.outputs()).replay!.value as string;
    const destroy = await stack.destroy({ runProgram: true });
    // With --run-program the engine first registers the program's resources (same), then deletes them.
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3, same: 3 });
    expect((await emulator.object("timeshiftStreams", replayId)).disabled).toBe("1");
    expect(await refused()).toEqual([]);
    stacks.config = await removed(stacks.config!);
  });

  it("key B in CDNSTREAM_API_KEY: drift exits 0, refresh and destroy succeed", async () => {
    const { stack } = stacks.env!;
    stack.workspace.envVars.CDNSTREAM_API_KEY = KEY_B;

    const checked = await drift(stacks.env!, { CDNSTREAM_API_KEY: KEY_B });
    expectNoKey(checked.output);
    expect(checked.output).toMatch(/env: no drift/);
    expect(checked.code).toBe(0);

    // The state holds no key here (it came from the environment), so plain commands work too.
    expect((await stack.refresh()).summary.resourceChanges).toEqual({ same: 3 });
    const replayId = (await stack.outputs()).replay!.value as string;
    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
    expect((await emulator.object("timeshiftStreams", replayId)).disabled).toBe("1");
    stacks.env = await removed(stacks.env!);
  });

  it("after the switch, no request was refused: none carried key A", async () => {
    const log = await requests();
    // The two drift checks and the two refreshes read both streams each; the destroys disabled the replays.
    expect(log.filter((r) => r.method === "GET" && r.status === 200).length).toBeGreaterThanOrEqual(8);
    expect(
      log
        .filter((r) => r.method === "POST" && /^\/v2\/streams\/timeshift\/\d+\/status$/.test(r.path))
        .map((r) => r.status),
    ).toEqual([200, 200]);
    expect(log.filter((r) => r.status === 401)).toEqual([]);
  });

  it("a plain refresh of a state that holds key A fails with 401 naming --run-program; that refresh records B", async () => {
    const { stack } = stacks.stale!;
    await stack.setConfig("cdnstream:apiKey", { value: KEY_B, secret: true });
    await emulator.clearRequests();

    let message = "";
    await stack.preview({ refresh: true, onOutput: () => undefined }).catch((e: Error) => (message = e.message));
    expectNoKey(message);
    expect(message).toMatch(/API key rejected \(401\) on GET \/v2\/streams\/push\/\{streamid\}: API key is invalid\./);
    expect(message).toContain(
      "If you have just set a regenerated key: `pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` send the old one, which the stack's state recorded at the last `pulumi up` while it was stack config. " +
        "Run them with `--run-program` (`pulumi refresh --run-program`, `pulumi preview --refresh --run-program`, `pulumi destroy --run-program`)",
    );
    expect((await refused()).length).toBeGreaterThan(0);

    // The command the message names (`pulumi refresh --run-program`): succeeds, and records B.
    await emulator.clearRequests();
    expect((await stack.refresh({ runProgram: true })).summary.result).toBe("succeeded");
    const replayId = (await stack.outputs()).replay!.value as string;
    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
    expect((await emulator.object("timeshiftStreams", replayId)).disabled).toBe("1");
    expect(await refused()).toEqual([]);
    stacks.stale = await removed(stacks.stale!);
  });

  it("a refresh with the old key still in CDNSTREAM_API_KEY fails with 401 naming that variable; setting it works", async () => {
    const { stack } = stacks.staleEnv!;
    await emulator.clearRequests();

    let message = "";
    await stack.refresh({ onOutput: () => undefined }).catch((e: Error) => (message = e.message));
    expectNoKey(message);
    expect(message).toMatch(/API key rejected \(401\) on GET \/v2\/streams\/push\/\{streamid\}: API key is invalid\./);
    expect(message).toContain(
      "The key came from CDNSTREAM_API_KEY: set it to a valid key in the environment that runs pulumi",
    );
    expect(message).toContain("If the key was regenerated: put the new one in CDNSTREAM_API_KEY");
    // Advice for a key the state recorded from stack config would send the user the wrong way.
    expect(message).not.toContain("pulumi config set --secret cdnstream:apiKey");
    expect(message).not.toContain("--run-program");
    expect((await refused()).length).toBeGreaterThan(0);

    // What the message says: the new key in CDNSTREAM_API_KEY, and a plain refresh and destroy work.
    await emulator.clearRequests();
    stack.workspace.envVars.CDNSTREAM_API_KEY = KEY_B;
    expect((await stack.refresh()).summary.resourceChanges).toEqual({ same: 3 });
    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
    expect(await refused()).toEqual([]);
    stacks.staleEnv = await removed(stacks.staleEnv!);
  });
});

/** Cleans up a destroyed stack; undefined, so afterAll leaves it alone. */
async function removed(test: TestStack): Promise<undefined> {
  await test.cleanup();
  return undefined;
}
