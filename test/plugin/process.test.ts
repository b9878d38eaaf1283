/**
 * The plugin process as the engine runs it (dist/provider/plugin/main.js, spoken to over gRPC):
 * a kind it does not serve, a kind that fails to load, and a failure outside any call while a
 * call is in flight, which must answer that call and end the process rather than leave the engine
 * waiting. Faults are put in with a `--require` preload; the plugin's code is the built one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "..", "..");
const pluginMain = path.join(repoRoot, "dist", "provider", "plugin", "main.js");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
/* eslint-disable @typescript-eslint/no-require-imports -- the engine's generated stubs, as the plugin loads them */
const grpc: typeof import("@grpc/grpc-js") = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const structproto: any = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }));
const provrpc: any = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
/* eslint-enable @typescript-eslint/no-require-imports */

import { startTestEmulator } from "../helpers/emulator";

const urnOf = (kind: string) => `urn:pulumi:dev::proj::cdnstream:index:${kind}::x`;

interface Plugin {
  child: ChildProcess;
  client: InstanceType<typeof provrpc.ResourceProviderClient>;
  stderr: () => string;
  exited: Promise<number | null>;
}

let workDir: string;
const started: Plugin[] = [];

beforeAll(() => {
  if (!fs.existsSync(pluginMain)) throw new Error(`${pluginMain} is missing: run \`npm run build\` first`);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-plugin-process-"));
});

afterAll(() => {
  for (const plugin of started) {
    plugin.client.close();
    plugin.child.kill("SIGKILL");
  }
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** Starts the plugin with `preload` (JavaScript) required first, and connects to the port it prints. */
async function startPlugin(preload = ""): Promise<Plugin> {
  const preloadFile = path.join(workDir, `preload-${started.length}.js`);
  fs.writeFileSync(preloadFile, preload);
  const child = spawn(process.execPath, ["--require", preloadFile, pluginMain], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const line = /^(\d+)\n/.exec(out);
      if (line) resolve(Number(line[1]));
    });
    child.on("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port:\n${stderr}`)));
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const plugin = { child, client, stderr: () => stderr, exited };
  started.push(plugin);
  return plugin;
}

/** One unary call; resolves with the error's message, or "" for success. */
function call(plugin: Plugin, method: string, request: unknown): Promise<string> {
  return new Promise((resolve) =>
    plugin.client[method](request, (err: Error | null) => resolve(err ? err.message : "")),
  );
}

function checkRequest(kind: string) {
  const request = new provproto.CheckRequest();
  request.setUrn(urnOf(kind));
  request.setOlds(structproto.Struct.fromJavaScript({}));
  request.setNews(structproto.Struct.fromJavaScript({ streamKind: "push", streamId: 1234, disabled: false }));
  return request;
}

test("a kind the plugin does not serve is named as such", async () => {
  const plugin = await startPlugin();
  expect(await call(plugin, "check", checkRequest("NoSuchKind"))).toContain(
    'unknown resource type cdnstream:index:NoSuchKind: cdnstream has no resource kind "NoSuchKind"',
  );
  // A kind it serves answers.
  expect(await call(plugin, "check", checkRequest("StreamStatus"))).toBe("");
});

test("a kind that fails to load is reported as that failure, not as an unknown kind", async () => {
  const plugin = await startPlugin(`
    const Module = require("node:module");
    const load = Module._load;
    Module._load = function (request, ...rest) {
      if (/stream-status[\\\\/]declaration(\\.js)?$/.test(request)) throw new Error("a broken install: declaration.js is truncated");
      return load.call(this, request, ...rest);
    };
  `);
  const message = await call(plugin, "check", checkRequest("StreamStatus"));
  expect(message).toContain(
    'resource kind "StreamStatus" of cdnstream could not be loaded: a broken install: declaration.js is truncated',
  );
  expect(message).not.toContain("no resource kind");
});

test("an uncaught exception answers the call in flight with it and ends the plugin with status 1", async () => {
  // An API that accepts connections and never answers keeps a read in flight.
  const connected: net.Socket[] = [];
  let onConnection: () => void = () => {};
  const silentApi = net.createServer((socket) => {
    connected.push(socket);
    onConnection();
  });
  await new Promise<void>((resolve) => silentApi.listen(0, "127.0.0.1", resolve));
  const apiPort = (silentApi.address() as net.AddressInfo).port;
  try {
    // SIGUSR2 stands for a bug outside any call: an exception thrown from a timer.
    const plugin = await startPlugin(`
      process.on("SIGUSR2", () => setImmediate(() => { throw new Error("a failure outside any call"); }));
    `);
    const configure = new provproto.ConfigureRequest();
    configure.setArgs(
      structproto.Struct.fromJavaScript({ apiKey: "k-process-test", baseUrl: `http://127.0.0.1:${apiPort}` }),
    );
    expect(await call(plugin, "configure", configure)).toBe("");

    const read = new provproto.ReadRequest();
    read.setId("push/1234");
    read.setUrn(urnOf("StreamStatus"));
    read.setProperties(structproto.Struct.fromJavaScript({ streamKind: "push", streamId: 1234 }));
    read.setInputs(structproto.Struct.fromJavaScript({ streamKind: "push", streamId: 1234, disabled: false }));
    const apiReached = new Promise<void>((resolve) => (onConnection = resolve));
    const answered = call(plugin, "read", read);
    await apiReached;

    plugin.child.kill("SIGUSR2");
    expect(await answered).toContain("a failure outside any call");
    expect(await plugin.exited).toBe(1);
    expect(plugin.stderr()).toContain("a failure outside any call");
    expect(plugin.stderr()).not.toContain("k-process-test");
  } finally {
    for (const socket of connected) socket.destroy();
    silentApi.close();
  }
}, 30_000);

test("an invoke is answered without loading @pulumi/pulumi's program runtime", async () => {
  const emulator = await startTestEmulator();
  try {
    const loadedFile = path.join(workDir, "loaded-modules.json");
    // SIGUSR2 asks the plugin which modules it has loaded.
    const plugin = await startPlugin(`
      process.on("SIGUSR2", () => require("node:fs").writeFileSync(${JSON.stringify(loadedFile)}, JSON.stringify(Object.keys(require.cache))));
    `);
    const configure = new provproto.ConfigureRequest();
    configure.setArgs(structproto.Struct.fromJavaScript({ apiKey: emulator.apiKey, baseUrl: emulator.url }));
    expect(await call(plugin, "configure", configure)).toBe("");

    const invoke = new provproto.InvokeRequest();
    invoke.setTok("cdnstream:index:getDnsZones");
    invoke.setArgs(structproto.Struct.fromJavaScript({}));
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) =>
      plugin.client.invoke(invoke, (err: Error | null, response: { getReturn(): { toJavaScript(): object } }) =>
        err ? reject(err) : resolve(response.getReturn().toJavaScript() as Record<string, unknown>),
      ),
    );
    expect(Array.isArray(answer.domains)).toBe(true);
    expect((answer.domains as unknown[]).length).toBeGreaterThan(0);

    plugin.child.kill("SIGUSR2");
    for (let i = 0; i < 100 && !fs.existsSync(loadedFile); i++) await new Promise((r) => setTimeout(r, 50));
    const loaded = (JSON.parse(fs.readFileSync(loadedFile, "utf8")) as string[]).map((f) =>
      f.split(path.sep).join("/"),
    );
    // The engine's protocol stubs are @pulumi/pulumi's too, and are expected; its index and runtime are not.
    expect(loaded.some((f) => f.includes("/@pulumi/pulumi/proto/"))).toBe(true);
    expect(loaded.filter((f) => /\/@pulumi\/pulumi\/(index\.js$|runtime\/)/.test(f))).toEqual([]);
  } finally {
    await emulator.close();
  }
});
