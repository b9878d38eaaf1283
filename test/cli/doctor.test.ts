/**
 * `cdnstream doctor` against the emulator over real HTTP: one read, the key's source named on
 * every outcome, the key never printed; stack config read through the real Pulumi CLI.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run } from "../../scripts/child";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { main } from "../../provider/cli";
import type { Io } from "../../provider/cli/command";
import { ensureEngine } from "../helpers/engine";

const KEY = "emu_doctor_key_5c4b3a29";
const WRONG = "emu_doctor_wrong_key_7f6e5d";

async function doctor(argv: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env };
  const code = await main(["doctor", ...argv], io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

describe("cdnstream doctor", () => {
  let emu: RunningEmulator;
  let dir: string;
  const requests = async () =>
    ((await request(`${emu.url}/__emulator/requests`).then((r) => r.body.json())) as { counts: Record<string, number> })
      .counts;

  beforeAll(async () => {
    emu = await startEmulator({ apiKey: KEY });
  });
  afterAll(() => emu.close());
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-doctor-"));
    await request(`${emu.url}/__emulator/requests`, { method: "DELETE" }).then((r) => r.body.dump());
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a working key and address: exit 0 after exactly one cheap read, each setting's source named, the key never shown", async () => {
    const r = await doctor(["--cwd", dir], {
      CDNSTREAM_API_KEY: KEY,
      CDNSTREAM_BASE_URL: emu.url,
      CDNSTREAM_TIMEOUT_MS: "5000",
    });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(/project +none in .*: the environment alone is read/);
    expect(r.stdout).toMatch(/apiKey +set, from environment variable CDNSTREAM_API_KEY \(not shown\)/);
    expect(r.stdout).toContain(`baseUrl  ${emu.url}, from environment variable CDNSTREAM_BASE_URL`);
    expect(r.stdout).toMatch(/timeoutMs 5000, from environment variable CDNSTREAM_TIMEOUT_MS/);
    expect(r.stdout).toMatch(
      /ok +GET \/v2\/zones\/http\/pull\?page=1 answered in \d+ ms: the API accepts the key from environment variable CDNSTREAM_API_KEY/,
    );
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(await requests()).toEqual({ "GET /v2/zones/http/pull": 1 });
  });

  it("a refused key: exit 1 naming the variable that supplied it, never its value", async () => {
    const r = await doctor(["--cwd", dir], { CDNSTREAM_API_KEY: WRONG, CDNSTREAM_BASE_URL: emu.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^cdnstream doctor: GET \/v2\/zones\/http\/pull\?page=1: the API refused the API key from environment variable CDNSTREAM_API_KEY: API key rejected \(401\)/,
    );
    expect(r.stdout + r.stderr).not.toContain(WRONG);
    expect(await requests()).toEqual({ "GET /v2/zones/http/pull": 1 });
  });

  it("an unreachable API: exit 1 naming the address and where it came from, in seconds", async () => {
    const started = Date.now();
    const r = await doctor(["--cwd", dir], { CDNSTREAM_API_KEY: KEY, CDNSTREAM_BASE_URL: "http://127.0.0.1:9" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /cannot reach the API at http:\/\/127\.0\.0\.1:9 \(from environment variable CDNSTREAM_BASE_URL\): Could not reach the API \(ECONNREFUSED\)/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("no key anywhere: exit 1 saying what to set", async () => {
    const r = await doctor(["--cwd", dir], { CDNSTREAM_BASE_URL: emu.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No API key: set .*CDNSTREAM_API_KEY/);
  });

  it("bad usage is 64", async () => {
    expect((await doctor(["--frobnicate"], {})).code).toBe(64);
    expect((await doctor(["--cwd", dir, "--stack", "dev"], {})).code).toBe(64);
  });

  it("stack config wins over the environment, as for `up`: a wrong cdnstream:apiKey is named as the source", async () => {
    const binDir = await ensureEngine();
    const env = {
      PATH: [binDir, process.env.PATH].join(path.delimiter),
      HOME: process.env.HOME,
      PULUMI_HOME: path.join(dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "doctor-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      CDNSTREAM_API_KEY: KEY,
      CDNSTREAM_BASE_URL: "http://127.0.0.1:9",
    };
    fs.mkdirSync(path.join(dir, "backend"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: doctored\nruntime: nodejs\n");
    // `pulumi stack init` and `config set` on a file backend: a second each.
    const pulumi = (...args: string[]) => run("pulumi", args, { cwd: dir, env, deadlineMs: 2 * 60_000 });
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "--secret", "cdnstream:apiKey", WRONG);
    await pulumi("config", "set", "cdnstream:baseUrl", emu.url);

    const wrong = await doctor(["--cwd", dir], env);
    expect(wrong.stdout).toContain(`project  ${dir}, stack dev`);
    expect(wrong.stdout).toMatch(/apiKey +set, from config cdnstream:apiKey of stack dev \(not shown\)/);
    expect(wrong.stdout).toContain(`baseUrl  ${emu.url}, from config cdnstream:baseUrl of stack dev`);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/the API refused the API key from config cdnstream:apiKey of stack dev/);
    expect(wrong.stdout + wrong.stderr).not.toContain(WRONG);

    await pulumi("config", "set", "--secret", "cdnstream:apiKey", KEY);
    const right = await doctor(["--cwd", dir, "--stack", "dev"], env);
    expect(right.code).toBe(0);
    expect(right.stdout).toMatch(/the API accepts the key from config cdnstream:apiKey of stack dev/);
    expect(right.stdout + right.stderr).not.toContain(KEY);
  });
});
