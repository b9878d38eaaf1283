/** The `cdnstream` command: argument handling, exit codes, and the `api` subcommand against the emulator. */
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { parseApiArgs } from "../../provider/cli/api";
import { SET_ENV_KEY_ONLY } from "../../kinds/common/advice";
import { main } from "../../provider/cli";
import type { Io } from "../../provider/cli/command";

function run(argv: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env };
  return main(argv, io).then((code) => ({ code, stdout: out.join("\n"), stderr: err.join("\n") }));
}

const noFile = () => {
  throw new Error("no file");
};

describe("argument handling", () => {
  it("parses method, path, query and data", () => {
    expect(parseApiArgs(["get", "dns", "-q", "page=2", "--query", "x=a b"], noFile)).toEqual({
      method: "GET",
      path: "/v2/dns?page=2&x=a+b",
      body: undefined,
      baseUrl: undefined,
      verbose: false,
    });
    expect(parseApiArgs(["POST", "/v2/streams/push/1/status", "--data", '{"disabled":1}'], noFile)?.body).toEqual({
      disabled: 1,
    });
    expect(
      parseApiArgs(["POST", "/v2/x", "--data", "@body.json"], (p) => (p === "body.json" ? '{"a":1}' : noFile()))?.body,
    ).toEqual({ a: 1 });
    expect(parseApiArgs(["--help"], noFile)).toBeUndefined();
  });

  it.each([
    [["api"], /expected <METHOD> <path>/],
    [["api", "GET"], /expected <METHOD> <path>/],
    [["api", "G3T", "/v2/dns"], /not an HTTP method/],
    [["api", "GET", "https://evil.example/v2/dns"], /give the path only/],
    [["api", "POST", "/v2/x", "--data", "{nope"], /--data is not valid JSON/],
    [["api", "POST", "/v2/x", "--data", "@/does/not/exist"], /cannot read --data file/],
    [["api", "GET", "/v2/dns", "--query", "novalue"], /--query takes key=value/],
    [["api", "GET", "/v2/dns", "--frobnicate"], /Unknown option/],
    [["nope"], /unknown command "nope"/],
    [["drfit"], /unknown command "drfit"/],
    [["--frobnicate"], /unknown option "--frobnicate"/],
    [[], /Usage: cdnstream <command>/],
  ])("%j is bad usage (exit 64, never 2, which says drift found)", async (argv, message) => {
    const r = await run(argv, { CDNSTREAM_API_KEY: "k-123456", CDNSTREAM_BASE_URL: "http://127.0.0.1:9" });
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("--help explains the command (exit 0)", async () => {
    expect((await run(["--help"])).stdout).toMatch(/Commands:\n {2}api /);
    const api = await run(["api", "--help"]);
    expect(api.code).toBe(0);
    expect(api.stdout).toMatch(
      /^Usage: cdnstream api <METHOD> <path> \[--data JSON\|@file\] \[--query key=value \.\.\.\]/,
    );
    expect(api.stdout).toMatch(/\n {2}1 {4}could not do or check it: an API or connection error/);
  });

  it("missing configuration is exit 1 (the environment is not ready) with what to set", async () => {
    const r = await run(["api", "GET", "/v2/dns"], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No API key: set .*CDNSTREAM_API_KEY/);
  });

  it("an unreachable API is exit 1", async () => {
    const r = await run(["api", "GET", "/v2/dns"], {
      CDNSTREAM_API_KEY: "k-123456",
      CDNSTREAM_BASE_URL: "http://127.0.0.1:9",
      CDNSTREAM_MAX_RETRIES: "0",
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Could not reach the API \(ECONNREFUSED\)/);
  });
});

describe("cdnstream api against the emulator", () => {
  const KEY = "emu_cli_key_9b8a7c6d5e";
  let emu: RunningEmulator;
  let env: Record<string, string>;
  const admin = (path: string, body?: unknown) =>
    request(`${emu.url}/__emulator/${path}`, {
      method: body === undefined ? "GET" : "POST",
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { "content-type": "application/json" },
    }).then((r) => r.body.json() as Promise<Record<string, any>>);

  beforeAll(async () => {
    emu = await startEmulator({ apiKey: KEY });
    env = { CDNSTREAM_API_KEY: KEY, CDNSTREAM_BASE_URL: `${emu.url}/v2`, CDNSTREAM_RETRY_BASE_DELAY_MS: "20" };
  });
  afterAll(() => emu.close());
  beforeEach(async () => {
    await admin("reset", {});
    await request(`${emu.url}/__emulator/requests`, { method: "DELETE" }).then((r) => r.body.dump());
  });

  it("GET /v2/dns prints the DNS zones as JSON", async () => {
    const r = await run(["api", "GET", "/v2/dns"], env);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.result).toBe("success");
    expect(body.domains.length).toBeGreaterThan(0);
  });

  it("sends queries and bodies", async () => {
    const page = JSON.parse((await run(["api", "GET", "/v2/zones/http/pull", "--query", "page=3"], env)).stdout);
    expect(page.zones.length).toBeLessThan(20);
    const r = await run(["api", "POST", "/v2/streams/push/3001/status", "--data", '{"disabled":1}'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).stream.disabled).toBe("1");
  });

  it("a wrong key exits 1 with a 401 message that does not contain the key", async () => {
    const wrong = "emu_wrong_cli_key_31337";
    const r = await run(["api", "GET", "/v2/dns"], { ...env, CDNSTREAM_API_KEY: wrong });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cdnstream api: API key rejected \(401\) on GET \/v2\/dns: /);
    // The command reads the key from CDNSTREAM_API_KEY only: the advice says that, and nothing of
    // stack config or of the rotation steps that concern a stack's state.
    expect(r.stderr).toContain(SET_ENV_KEY_ONLY);
    expect(r.stderr).not.toMatch(/pulumi config set|--run-program|stack's state/);
    expect(r.stderr + r.stdout).not.toContain(wrong);
  });

  it("rides out two 429s with Retry-After: 1", async () => {
    await admin("faults", { status: 429, retryAfter: 1, count: 2 });
    const r = await run(["api", "GET", "/v2/dns", "--verbose"], env);
    expect(r.code).toBe(0);
    expect(r.stderr.match(/got status 429/g)).toHaveLength(2);
    expect((await admin("requests")).counts["GET /v2/dns"]).toBe(3);
  });

  it("classifies by operation: timeshift create is not retried, a 422 is shown", async () => {
    await admin("faults", { status: 503, count: 2 });
    const r = await run(["api", "POST", "/v2/streams/timeshift/new", "--data", '{"name":"x","parent":3001}'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Server error \(503\) on POST \/v2\/streams\/timeshift\/new: .*Not retried/);
    expect((await admin("requests")).counts["POST /v2/streams/timeshift/new"]).toBe(1);
    const bad = await run(["api", "POST", "/v2/streams/push/3001/status", "--data", '{"disabled":5}'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Rejected by the API \(422\) on POST \/v2\/streams\/push\/\{streamid\}\/status/);
  });
});
