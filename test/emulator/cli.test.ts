/**
 * The CLI as users run it: `node <build>/emulator/cli.js`. The sources are transpiled here into a
 * temp dir (so this test does not depend on a prior `npm run build`) and spawned as a process.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { send } from "./helpers";

const repo = path.join(__dirname, "../..");
let out: string;

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "emu-cli-"));
  const copy = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(repo, rel), { withFileTypes: true })) {
      const from = path.join(rel, entry.name);
      if (entry.isDirectory()) copy(from);
      else if (entry.name.endsWith(".json")) fs.cpSync(path.join(repo, from), path.join(out, from));
      else if (entry.name.endsWith(".ts")) {
        const js = ts.transpileModule(fs.readFileSync(path.join(repo, from), "utf8"), {
          compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
        }).outputText;
        fs.mkdirSync(path.dirname(path.join(out, from)), { recursive: true });
        fs.writeFileSync(path.join(out, from.replace(/\.ts$/, ".js")), js);
      }
    }
  };
  copy("emulator");
});
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  lines: string[];
  exit: Promise<number | null>;
}

/** Spawns the CLI and resolves once it has printed `wantLines` lines (or exited). */
function run(args: string[], wantLines: number): Promise<Run> {
  const child = spawn(process.execPath, [path.join(out, "emulator/cli.js"), ...args], {
    env: { ...process.env, NODE_PATH: path.join(repo, "node_modules") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return new Promise((resolve) => {
    let text = "";
    const done = () => resolve({ child, lines: text.split("\n").filter(Boolean), exit });
    child.stdout!.on("data", (d: Buffer) => {
      text += d.toString();
      if (text.split("\n").length > wantLines) done();
    });
    child.stderr!.on("data", (d: Buffer) => (text += d.toString()));
    child.on("exit", done);
  });
}

it("prints exactly `emulator listening on http://127.0.0.1:<port>` first, then the generated key", async () => {
  const r = await run(["--port", "0"], 2);
  try {
    expect(r.lines[0]).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = r.lines[0].slice("emulator listening on ".length);
    expect(r.lines[1]).toMatch(/^api key: \S{32,}$/);
    const key = r.lines[1].slice("api key: ".length);
    expect((await send(`${url}/v2/dns`, "GET", undefined, { "x-api-key": key })).status).toBe(200);
    expect((await send(`${url}/v2/dns`, "GET")).status).toBe(401);
    const log = await send(`${url}/__emulator/requests`, "GET");
    expect(log.body.requests).toHaveLength(2);
    expect(JSON.stringify(log.body)).not.toContain(key);
  } finally {
    r.child.kill("SIGTERM");
  }
  expect(await r.exit).toBe(0);
});

it("takes --api-key, --forbidden-key, --fixture and --strict-spec, and prints no key line when given one", async () => {
  const fixture = path.join(out, "tiny.json");
  fs.writeFileSync(fixture, JSON.stringify({ backups: { "5": { id: 5, name: "only", linkedZones: [] } } }));
  const r = await run(
    [
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--api-key",
      "k-1",
      "--forbidden-key",
      "k-2",
      "--fixture",
      fixture,
      "--strict-spec",
    ],
    1,
  );
  try {
    const url = r.lines[0].slice("emulator listening on ".length);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.lines).toHaveLength(1);
    expect((await send(`${url}/v2/cb`, "GET", undefined, { "x-api-key": "k-1" })).body.backups[0].name).toBe("only");
    expect((await send(`${url}/v2/cb`, "GET", undefined, { "x-api-key": "k-2" })).status).toBe(403);
    expect((await send(`${url}/v2/streams/push/1`, "GET", undefined, { "x-api-key": "k-1" })).body.message).toContain(
      "not part of the API",
    );
  } finally {
    r.child.kill("SIGTERM");
  }
});

it("exits 2 with usage on bad arguments", async () => {
  for (const args of [["--port", "http"], ["--bogus"], ["--fixture", path.join(out, "missing.json")]]) {
    const r = await run(args, 99);
    expect(await r.exit).toBe(2);
    expect(r.lines.join("\n")).toContain("usage: emulator");
  }
});

it("takes --profile: fields and named profiles, in force from the first request", async () => {
  const r = await run(
    ["--port", "0", "--api-key", "k-1", "--profile", "pages-of-1000,pageSize=2,slots=add-only,writeNotes=true"],
    1,
  );
  try {
    const url = r.lines[0].slice("emulator listening on ".length);
    expect((await send(`${url}/__emulator/profile`, "GET")).body.profile).toMatchObject({
      pageSize: 2,
      slots: "add-only",
      writeNotes: true,
      reads: "extensions",
    });
    expect((await send(`${url}/v2/zones/http/pull`, "GET", undefined, { "x-api-key": "k-1" })).body.zones).toHaveLength(
      2,
    );
  } finally {
    r.child.kill("SIGTERM");
  }
  expect(await r.exit).toBe(0);
});

it.each([
  ["pageSize=0", "--profile: pageSize: must be an integer >= 1 (got 0)"],
  ["slots=replace", '--profile: slots: must be upsert or add-only (got "replace")'],
  ["pagesize=2", "--profile: pagesize: unknown profile field"],
  ["strict", "--profile: 'strict' is neither field=value nor a named profile"],
])("--profile %s exits 2 naming the field and value, before listening", async (value, message) => {
  const r = await run(["--port", "0", "--profile", value], 99);
  expect(await r.exit).toBe(2);
  const text = r.lines.join("\n");
  expect(text).toContain(message);
  expect(text).toContain("usage: emulator");
  expect(text).not.toContain("listening");
});
