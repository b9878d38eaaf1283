/**
 * Secrets audit: a distinctive API key goes through a whole life cycle (up, refresh, a drift run
 * of `cdnstream drift`, a failing `preview --refresh --expect-no-changes`, a 401 and a 500, destroy)
 * with the engine logging at `-v=9 --logtostderr`, and then no byte of it may show anywhere: not
 * whole, not as any 8-character window, not base64-encoded. Scanned: the decrypted state export
 * (Automation API and `pulumi stack export --show-secrets` from the CLI), every file the backend,
 * PULUMI_HOME and the project hold, all CLI output, the drift reports, the emulator's raw request
 * log and every error message. Credential-bearing outputs must be ciphertext in the raw state.
 *
 * Two ways to give the key:
 * - CDNSTREAM_API_KEY (the pipeline path): nothing may show, `--show-secrets` included.
 * - `cdnstream:apiKey` as secret stack config: the engine hands a dynamic provider the whole
 *   stack config as the inputs of the default `pulumi-nodejs` provider and records them, so the
 *   decrypted export shows the key there and only there (docs/configuration.md, "Where the key lives"); every
 *   other place stays clean and the raw state holds it as ciphertext only.
 * - an explicit provider's secret `apiKey` (the provider plugin): the engine records the
 *   provider's inputs, so the decrypted export shows the key there and only there; the plugin's
 *   own log, which the engine prints at -v=9, is scanned with the rest.
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { GlobalOpts } from "@pulumi/pulumi/automation";
import { request } from "undici";
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
import { filesUnder } from "../helpers/state";
import { loadSdk } from "../helpers/package";

const cdn = loadSdk();
const driftCli = path.join(repoRoot, "dist", "provider", "cli", "index.js");
const PROJECT = "secrets-audit";
/** Pulumi's mark of a secret value in serialized state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** `n` random letters and digits: a value no fixture, id or log line contains by chance. */
function distinctive(n: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.randomBytes(n), (b) => alphabet[b % alphabet.length]).join("");
}

const KEY = distinctive(40);
const WRONG_KEY = distinctive(40);
const TOKEN_KEY = `tok${distinctive(29)}`;
/** The secure token key as rotated out of band, for the drift run. */
const ROTATED_TOKEN_KEY = `rot${distinctive(29)}`;

/** What a user's project holds: several kinds, a secure token key from secret config, a data source. */
const project = {
  "Pulumi.yaml": `name: ${PROJECT}\nruntime: nodejs\ndescription: every credential path, audited\n`,
  "package.json": JSON.stringify({ name: PROJECT, private: true }),
  "index.js": `const pulumi = require("@pulumi/pulumi");
const cdn = require("pulumi-cdnstream");
module.exports = async () => {
  const config = new pulumi.Config("${PROJECT}");
  const delayed = new cdn.TimeshiftStream("delayed", {
    name: "audit-delayed-" + pulumi.getStack(), parent: 3001, timeshift: 300, protocols: ["HLS"],
    secureToken: { enabled: true, policy: "dynamic", key: config.requireSecret("tokenKey"), timeoutSeconds: 600 },
  });
  const status = new cdn.StreamStatus("status", { streamKind: "push", streamId: 3002, disabled: false });
  const zone = new cdn.PushZoneSettings("zone", { zoneId: 102, customDomains: ["audit.example.com"] });
  const slot = new cdn.AdBreakSlot("slot", { zoneId: 301, type: "postroll", maxDurationS: 30 });
  const dns = await cdn.getDnsZones();
  return { streamId: delayed.id, tokenKey: delayed.secureTokenKey, status: status.status, fqdn: zone.fqdn, slot: slot.id, dnsZones: dns.domains.length };
};
`,
};

/** The engine at its most talkative, logging to stderr (which the Automation API hands to onError). */
const VERBOSE: GlobalOpts = { logVerbosity: 9, logToStdErr: true, logFlow: true, color: "never" };

/** Every way a value could show: whole, base64, and every 8-character window. */
function needles(value: string): string[] {
  const windows = Array.from({ length: value.length - 7 }, (_, i) => value.slice(i, i + 8));
  return [...new Set([value, Buffer.from(value).toString("base64"), ...windows])];
}

/** Occurrences of any needle of `value` in `text` (each window counted; 0 means no byte of it shows). */
function hits(text: string, value: string): number {
  let count = 0;
  for (const needle of needles(value)) {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count++;
  }
  return count;
}

/** Paths (`a.b[2].c`) in `value` of every string that contains `needle`. */
function pathsContaining(value: unknown, needle: string, at = ""): string[] {
  if (typeof value === "string") return value.includes(needle) ? [at] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => pathsContaining(v, needle, `${at}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [
      ...(k.includes(needle) ? [`${at}.${k} (key)`] : []),
      ...pathsContaining(v, needle, at ? `${at}.${k}` : k),
    ]);
  }
  return [];
}

/**
 * The engine's own verbose log lines that show property values marshaled to or from a provider
 * (`Configure`, `Check`, `Read`, ...). The Pulumi CLI 3.246 masks the secrets it knows in them;
 * the CLI 3.259 formats a message's arguments before its logger masks secrets, so secret stack
 * config and secret inputs show there in clear (docs/engine.md, "Supported versions"). That is the
 * engine's log, not this provider's output: on a CLI that does not mask them these lines are
 * left out of the scan (and must then be the only place a secret shows); on 3.246 they count.
 */
const ENGINE_RPC_LINE = /"msg":"(Un)?[Mm]arshaling property for RPC\[/;
/** Whether the CLI on PATH masks secrets in its RPC log lines (checked for 3.246, the floor). */
function cliMasksRpcLines(): boolean {
  // Asked where a scan is made, synchronously: `pulumi version` answers in a fraction of a second.
  return execFileSync("pulumi", ["version"], { encoding: "utf8", timeout: 60_000 }).trim() === "v3.246.0";
}

/** What one audited path collected, by place. */
class Audit {
  readonly places = new Map<string, string[]>();
  add(place: string, text: string | undefined): void {
    if (text === undefined) return;
    const list = this.places.get(place) ?? [];
    list.push(text);
    this.places.set(place, list);
  }
  /** For each place: bytes scanned and hits of `value`; lines matching `leaveOut` are not scanned. */
  scan(value: string, leaveOut?: RegExp): Record<string, { bytes: number; hits: number }> {
    const out: Record<string, { bytes: number; hits: number }> = {};
    for (const [place, all] of this.places) {
      const texts = leaveOut
        ? all.map((t) =>
            t
              .split("\n")
              .filter((line) => !leaveOut.test(line))
              .join("\n"),
          )
        : all;
      out[place] = {
        bytes: texts.reduce((n, t) => n + t.length, 0),
        hits: texts.reduce((n, t) => n + hits(t, value), 0),
      };
    }
    return out;
  }
}

const zeroHits = (scan: Record<string, { bytes: number; hits: number }>) =>
  Object.fromEntries(Object.entries(scan).map(([place, { hits: n }]) => [place, n]));

describe("secrets audit", () => {
  let emulator: TestEmulator;
  let dir: string;
  const inherited = process.env.CDNSTREAM_API_KEY;

  /** The emulator's raw request log, as served. */
  async function requestLogText(): Promise<string> {
    const res = await request(`${emulator.url}/__emulator/requests`);
    return res.body.text();
  }

  /** Runs a child process (asynchronously: the emulator answering it lives in this process). */
  async function run(
    command: string,
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number | null; out: string }> {
    const ran = await runCommand(command, args, {
      env,
      cwd: dir,
      deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
      allowFailure: true,
    });
    return { code: ran.status, out: ran.output };
  }

  /** The environment a pipeline gives the CLI and the drift runner for `test`'s backend, with or without the key. */
  function pipelineEnv(test: TestStack, key: string | undefined): Record<string, string> {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...engineEnv(test.dir) };
    delete env.CDNSTREAM_API_KEY;
    if (key !== undefined) env.CDNSTREAM_API_KEY = key;
    return env;
  }

  /** An Automation API operation at -v=9 whose output goes to `audit`; returns the error it threw, if any. */
  async function operation(
    audit: Audit,
    name: string,
    op: (opts: GlobalOpts & { onOutput: (s: string) => void; onError: (s: string) => void }) => Promise<unknown>,
  ): Promise<Error | undefined> {
    let printed = "";
    const collect = (s: string) => (printed += s);
    const error = await op({ ...VERBOSE, onOutput: collect, onError: collect }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    audit.add(`CLI output (-v=9): ${name}`, printed);
    if (error) audit.add("error messages", `${error.message}\n${error.stack ?? ""}`);
    return error;
  }

  /** `pulumi stack export --show-secrets` from the CLI, at -v=9. */
  async function cliExport(test: TestStack, stackName: string): Promise<{ state: any; out: string; log: string }> {
    const file = path.join(test.dir, `export-${stackName}.json`);
    const r = await run(
      "pulumi",
      [
        "stack",
        "export",
        "--show-secrets",
        "--stack",
        stackName,
        "--file",
        file,
        "-v=9",
        "--logtostderr",
        "--non-interactive",
      ],
      pipelineEnv(test, undefined),
    );
    expect(r.code).toBe(0);
    const text = fs.readFileSync(file, "utf8");
    fs.rmSync(file);
    return { state: JSON.parse(text), out: `${text}\n${r.out}`, log: r.out };
  }

  /** `cdnstream drift` as a pipeline runs it; its output and both reports go to `audit`. */
  async function drift(
    audit: Audit,
    test: TestStack,
    stackName: string,
    key: string | undefined,
  ): Promise<{ code: number | null; report: any }> {
    const json = path.join(test.dir, "drift.json");
    const markdown = path.join(test.dir, "drift.md");
    const r = await run(
      process.execPath,
      [driftCli, "drift", "--cwd", dir, "--stack", stackName, "--json", json, "--markdown", markdown],
      pipelineEnv(test, key),
    );
    audit.add(
      "drift runner output and reports",
      `${r.out}\n${fs.readFileSync(json, "utf8")}\n${fs.readFileSync(markdown, "utf8")}`,
    );
    const report = JSON.parse(fs.readFileSync(json, "utf8"));
    fs.rmSync(json);
    fs.rmSync(markdown);
    return { code: r.code, report };
  }

  /** The raw checkpoint of a stack, as the backend keeps it. */
  function rawCheckpoint(test: TestStack, stackName: string): any {
    return JSON.parse(
      fs.readFileSync(path.join(test.dir, "backend", ".pulumi", "stacks", PROJECT, `${stackName}.json`), "utf8"),
    );
  }

  /** Whether `value` is Pulumi's serialized secret: the signature and ciphertext only. */
  function isCiphertext(value: any): boolean {
    return (
      value !== null &&
      typeof value === "object" &&
      value[SECRET_SIG] === "1b47061264138c4ac30d75fd1eb44270" &&
      typeof value.ciphertext === "string"
    );
  }

  /** Adds every file of the stack's directory (backend, PULUMI_HOME) and the project to `audit`. */
  function addFiles(audit: Audit, test: TestStack): void {
    for (const [file, text] of filesUnder(test.dir)) audit.add(`file ${file.split(path.sep)[0]}/...`, text);
    for (const [file, text] of filesUnder(dir)) if (!file.startsWith(".")) audit.add(`project file ${file}`, text);
  }

  beforeAll(async () => {
    // Nothing inherited: each path below decides where the key comes from.
    delete process.env.CDNSTREAM_API_KEY;
    emulator = await startTestEmulator({ apiKey: KEY });
    dir = path.join(repoRoot, ".tmp", "e2e", `secrets-audit-${crypto.randomBytes(6).toString("hex")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(project)) fs.writeFileSync(path.join(dir, name), text);
  });
  afterAll(async () => {
    await emulator?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (inherited !== undefined) process.env.CDNSTREAM_API_KEY = inherited;
    else delete process.env.CDNSTREAM_API_KEY;
  });

  it("finds its needles: a window of the key in any text counts", () => {
    expect(hits(`...${KEY.slice(13, 21)}...`, KEY)).toBe(1);
    expect(hits(`"${KEY}"`, KEY)).toBe(KEY.length - 7 + 1);
    expect(hits(Buffer.from(KEY).toString("base64"), KEY)).toBeGreaterThan(0);
    expect(hits(WRONG_KEY + TOKEN_KEY, KEY)).toBe(0);
  });

  describe("with the key in CDNSTREAM_API_KEY (the pipeline path)", () => {
    const STACK = "pipeline";
    let test: TestStack;
    const audit = new Audit();

    beforeAll(async () => {
      // The inline program (its data source) runs in this process; the CLI and the provider host get it too.
      process.env.CDNSTREAM_API_KEY = KEY;
      test = await createTestStack({
        workDir: dir,
        projectName: PROJECT,
        stackName: STACK,
        program: projectProgram(dir),
        config: {
          "cdnstream:baseUrl": { value: emulator.url },
          [`${PROJECT}:tokenKey`]: { value: TOKEN_KEY, secret: true },
        },
        env: { CDNSTREAM_API_KEY: KEY },
      });
    });
    afterAll(async () => {
      await test?.cleanup();
      delete process.env.CDNSTREAM_API_KEY;
    });

    it("runs up, refresh, a drift run, a failing preview, a 401, a 500 and destroy at -v=9", async () => {
      expect(await operation(audit, "up", (o) => test.stack.up(o))).toBeUndefined();
      const exported = await test.stack.exportStack();
      audit.add("stack.exportStack() (decrypted)", JSON.stringify(exported));
      // The decrypted state holds the token key (it is state), so the export is a place the scan can find things.
      expect(hits(JSON.stringify(exported), TOKEN_KEY)).toBeGreaterThan(0);
      const cli = await cliExport(test, STACK);
      audit.add("pulumi stack export --show-secrets (CLI)", cli.out);

      expect(await operation(audit, "refresh", (o) => test.stack.refresh(o))).toBeUndefined();

      // Drift: a stream disabled and the secure token key rotated out of band.
      const streamId = cli.state.deployment.resources.find((r: any) => r.type.endsWith("TimeshiftStream")).id;
      await emulator.mutate("pushStreams", 3002, { disabled: "1" });
      await emulator.mutate("timeshiftStreams", streamId, { securetoken: { list: ROTATED_TOKEN_KEY } });
      const report = await drift(audit, test, STACK, KEY);
      expect(report.code).toBe(2);
      expect(report.report.stacks[0].resources.map((r: any) => r.name).sort()).toEqual(["delayed", "status"]);

      const expectNoChanges = await operation(audit, "preview --refresh --expect-no-changes", (o) =>
        test.stack.preview({ ...o, refresh: true, expectNoChanges: true }),
      );
      expect(expectNoChanges?.message).toMatch(/no changes were expected for preview but changes were proposed/);

      test.stack.workspace.envVars.CDNSTREAM_API_KEY = WRONG_KEY;
      const unauthorized = await operation(audit, "refresh with a wrong key", (o) => test.stack.refresh(o));
      test.stack.workspace.envVars.CDNSTREAM_API_KEY = KEY;
      expect(unauthorized?.message).toMatch(/API key rejected \(401\)/);
      expect(unauthorized?.message).not.toContain(WRONG_KEY);

      await emulator.inject({ status: 500, count: 1 });
      const serverError = await operation(audit, "refresh with a 500", (o) => test.stack.refresh(o));
      expect(serverError?.message).toMatch(/Server error \(500\)/);

      // The state as it stands before destroy, raw: credential-bearing values are ciphertext.
      const raw = rawCheckpoint(test, STACK);
      const byType = (suffix: string) => raw.checkpoint.latest.resources.find((r: any) => r.type.endsWith(suffix));
      const stream = byType("TimeshiftStream");
      for (const name of ["secureToken", "secureTokenKey", "tokenizedPlaybackUrls"]) {
        expect([name, isCiphertext(stream.outputs[name])]).toEqual([name, true]);
      }
      // The API sends no RTMP password for a timeshift stream: the output is absent, not a secret null.
      expect(stream.outputs).not.toHaveProperty("rtmpAuthPassword");
      // The input keeps the other token fields readable for previews; the key itself is ciphertext.
      expect(isCiphertext(stream.inputs.secureToken.key)).toBe(true);
      expect(isCiphertext(byType("StreamStatus").outputs.rtmpAuthPassword)).toBe(true);
      expect(isCiphertext(byType("PushZoneSettings").outputs.ftpPassword)).toBe(true);

      expect(await operation(audit, "destroy", (o) => test.stack.destroy(o))).toBeUndefined();
      const afterDestroy = await cliExport(test, STACK);
      audit.add("pulumi stack export --show-secrets (CLI)", afterDestroy.out);
      audit.add("emulator request log", await requestLogText());
      addFiles(audit, test);
    });

    it("shows no byte of the key anywhere, --show-secrets included, and logged at -v=9 indeed", () => {
      const verbose = [...audit.places]
        .filter(([place]) => place.startsWith("CLI output"))
        .flatMap(([, t]) => t)
        .join("\n");
      // The engine did log at -v=9, down to its calls to the provider (CLIs up to 3.259 also log
      // each property value they marshal for it; 3.274 no longer does).
      expect(verbose).toMatch(/"msg":"Provider\[[^\]]*\]\.(Check|Diff|Create)\(urn:pulumi:/);
      expect(verbose).toContain('"v":9');
      const scan = audit.scan(KEY);
      expect(zeroHits(scan)).toEqual(Object.fromEntries(Object.keys(scan).map((place) => [place, 0])));
      expect(Object.keys(scan)).toEqual(
        expect.arrayContaining([
          "stack.exportStack() (decrypted)",
          "pulumi stack export --show-secrets (CLI)",
          "emulator request log",
          "error messages",
          "drift runner output and reports",
          "file backend/...",
          "file pulumi-home/...",
        ]),
      );
      // Nor the wrong key of the 401 run.
      expect(zeroHits(audit.scan(WRONG_KEY))).toEqual(Object.fromEntries(Object.keys(scan).map((place) => [place, 0])));
      console.log(
        `secrets audit, CDNSTREAM_API_KEY path: bytes scanned and hits of the key per place\n${JSON.stringify(scan, null, 1)}`,
      );
    });

    it("shows the secure token key only in the decrypted exports; one rotated out of band also in the engine's -v=9 RPC lines", () => {
      const scan = zeroHits(audit.scan(TOKEN_KEY, cliMasksRpcLines() ? undefined : ENGINE_RPC_LINE));
      for (const place of ["stack.exportStack() (decrypted)", "pulumi stack export --show-secrets (CLI)"])
        delete scan[place];
      expect(scan).toEqual(Object.fromEntries(Object.keys(scan).map((place) => [place, 0])));
      // The engine masks the secrets it knows in its verbose log (config, state). A value it first
      // meets in a provider's Read result it logs as received before it applies the resource's
      // additionalSecretOutputs, and a dynamic provider cannot mark it (it declares acceptSecrets
      // false). So the rotated key may show in those lines, and nowhere else: not in the drift
      // report, the request log, an error's own text or a file at rest.
      const engineRpcLine =
        /^\{"time":"[^"]+","level":"INFO","msg":"(Un)?[Mm]arshaling property for RPC\[Provider\[0x[0-9a-f]+\]\.(Read|Diff|Update|Delete)\(/;
      const elsewhere = [...audit.places].flatMap(([place, texts]) =>
        texts
          .flatMap((text) => text.split("\n"))
          .filter((line) => hits(line, ROTATED_TOKEN_KEY) > 0 && !engineRpcLine.test(line.trim()))
          .map((line) => `${place}: ${line.slice(0, 300)}`),
      );
      expect(elsewhere).toEqual([]);
    });

    it("keeps the plaintext secure token key, either value, out of every file at rest", () => {
      const files = [...audit.places].filter(
        ([place]) => place.startsWith("file ") || place.startsWith("project file "),
      );
      expect(files.length).toBeGreaterThan(0);
      expect(
        Object.fromEntries(
          files.map(([place, texts]) => [
            place,
            texts.filter((t) => t.includes(TOKEN_KEY) || t.includes(ROTATED_TOKEN_KEY)).length,
          ]),
        ),
      ).toEqual(Object.fromEntries(files.map(([place]) => [place, 0])));
    });
  });

  describe("with the key as secret stack config (cdnstream:apiKey)", () => {
    const STACK = "config";
    let test: TestStack;
    const audit = new Audit();
    /** Where the decrypted exports show the key, as JSON paths. */
    const shownAt: Record<string, string[]> = {};
    let providerIndex = -1;

    beforeAll(async () => {
      delete process.env.CDNSTREAM_API_KEY; // the program, the CLI and the provider host get only the config
      await emulator.clearRequests();
      test = await createTestStack({
        workDir: dir,
        projectName: PROJECT,
        stackName: STACK,
        program: projectProgram(dir),
        config: {
          "cdnstream:apiKey": { value: KEY, secret: true },
          "cdnstream:baseUrl": { value: emulator.url },
          [`${PROJECT}:tokenKey`]: { value: TOKEN_KEY, secret: true },
        },
      });
    });
    afterAll(() => test?.cleanup());

    it("runs up, a drift run, a 500 and destroy at -v=9", async () => {
      expect(await operation(audit, "up", (o) => test.stack.up(o))).toBeUndefined();
      const exported = await test.stack.exportStack();
      const cli = await cliExport(test, STACK);
      shownAt.automation = pathsContaining(exported, KEY);
      shownAt.cli = pathsContaining(cli.state, KEY);
      providerIndex = exported.deployment.resources.findIndex((r: any) => r.type === "pulumi:providers:pulumi-nodejs");
      // Outside the stack exports, the CLI's own -v=9 output of the export must be clean too.
      audit.add("CLI output (-v=9): stack export", cli.log);

      // At rest, the recorded config is ciphertext.
      const raw = rawCheckpoint(test, STACK);
      const provider = raw.checkpoint.latest.resources.find((r: any) => r.type === "pulumi:providers:pulumi-nodejs");
      expect(isCiphertext(provider.inputs["cdnstream:apiKey"])).toBe(true);

      const report = await drift(audit, test, STACK, undefined);
      expect([report.code, report.report.stacks[0].error]).toEqual([0, undefined]);

      await emulator.inject({ status: 500, count: 1 });
      const serverError = await operation(audit, "refresh with a 500", (o) => test.stack.refresh(o));
      expect(serverError?.message).toMatch(/Server error \(500\)/);

      expect(await operation(audit, "destroy", (o) => test.stack.destroy(o))).toBeUndefined();
      audit.add("pulumi stack export --show-secrets after destroy (CLI)", (await cliExport(test, STACK)).out);
      audit.add("emulator request log", await requestLogText());
      addFiles(audit, test);
    });

    it("shows the key only where the engine records the stack config: the default provider's inputs and outputs", () => {
      const at = `deployment.resources[${providerIndex}]`;
      expect(providerIndex).toBeGreaterThanOrEqual(0);
      // Decrypted, a secret is `{<signature>, plaintext}`: the provider's recorded config, inputs and outputs.
      expect(shownAt.automation).toEqual([
        `${at}.inputs.cdnstream:apiKey.plaintext`,
        `${at}.outputs.cdnstream:apiKey.plaintext`,
      ]);
      expect(shownAt.cli).toEqual(shownAt.automation);
    });

    it("shows no byte of the key anywhere else: files at rest, -v=9 output, drift reports, the request log, errors", () => {
      const scan = audit.scan(KEY, cliMasksRpcLines() ? undefined : ENGINE_RPC_LINE);
      expect(zeroHits(scan)).toEqual(Object.fromEntries(Object.keys(scan).map((place) => [place, 0])));
      expect(Object.keys(scan)).toEqual(
        expect.arrayContaining([
          "emulator request log",
          "error messages",
          "drift runner output and reports",
          "file backend/...",
          "project file Pulumi.config.yaml",
        ]),
      );
      console.log(
        `secrets audit, cdnstream:apiKey path: bytes scanned and hits of the key per place\n${JSON.stringify(scan, null, 1)}`,
      );
    });
  });

  describe("with the key as an explicit provider's secret input (the provider plugin)", () => {
    const STACK = "plugin";
    let test: TestStack;
    const audit = new Audit();
    const shownAt: Record<string, string[]> = {};
    let providerIndex = -1;

    beforeAll(async () => {
      delete process.env.CDNSTREAM_API_KEY; // only the provider's input carries the key
      await emulator.clearRequests();
      test = await createTestStack({
        projectName: PROJECT,
        stackName: STACK,
        program: async () => {
          const config = new pulumi.Config(PROJECT);
          const provider = new cdn.Provider("account", {
            apiKey: config.requireSecret("apiKey"),
            baseUrl: config.require("baseUrl"),
            maxRetries: 0,
          });
          const delayed = new cdn.TimeshiftStream(
            "delayed",
            {
              name: "audit-plugin-delayed",
              parent: 3001,
              timeshift: 300,
              protocols: ["HLS"],
              secureToken: {
                enabled: true,
                policy: "dynamic",
                key: config.requireSecret("tokenKey"),
                timeoutSeconds: 600,
              },
            },
            { provider },
          );
          new cdn.StreamStatus("status", { streamKind: "push", streamId: 3002, disabled: false }, { provider });
          return { streamId: delayed.id, tokenKey: delayed.secureTokenKey };
        },
        config: {
          [`${PROJECT}:apiKey`]: { value: KEY, secret: true },
          [`${PROJECT}:baseUrl`]: { value: emulator.url },
          [`${PROJECT}:tokenKey`]: { value: TOKEN_KEY, secret: true },
        },
      });
    });
    afterAll(() => test?.cleanup());

    it("runs up, refresh, a 500 and destroy at -v=9", async () => {
      expect(await operation(audit, "up", (o) => test.stack.up(o))).toBeUndefined();
      const exported = await test.stack.exportStack();
      const cli = await cliExport(test, STACK);
      shownAt.automation = pathsContaining(exported, KEY);
      shownAt.cli = pathsContaining(cli.state, KEY);
      providerIndex = exported.deployment.resources.findIndex((r: any) => r.type === "pulumi:providers:cdnstream");
      audit.add("CLI output (-v=9): stack export", cli.log);

      // At rest, the provider's recorded key and the credential output are ciphertext.
      const raw = rawCheckpoint(test, STACK);
      const resources = raw.checkpoint.latest.resources;
      const provider = resources.find((r: any) => r.type === "pulumi:providers:cdnstream");
      expect(isCiphertext(provider.inputs.apiKey)).toBe(true);
      const delayed = resources.find((r: any) => r.type === "cdnstream:index:TimeshiftStream");
      expect(isCiphertext(delayed.outputs.secureTokenKey)).toBe(true);

      expect(await operation(audit, "refresh", (o) => test.stack.refresh(o))).toBeUndefined();
      await emulator.inject({ status: 500, count: 1 });
      const serverError = await operation(audit, "refresh with a 500", (o) => test.stack.refresh(o));
      expect(serverError?.message).toMatch(/Server error \(500\)/);

      expect(await operation(audit, "destroy", (o) => test.stack.destroy(o))).toBeUndefined();
      audit.add("pulumi stack export --show-secrets after destroy (CLI)", (await cliExport(test, STACK)).out);
      audit.add("emulator request log", await requestLogText());
      for (const [file, text] of filesUnder(test.dir)) audit.add(`file ${file.split(path.sep)[0]}/...`, text);
    });

    it("shows the key only in the explicit provider's recorded inputs and outputs", () => {
      const at = `deployment.resources[${providerIndex}]`;
      expect(providerIndex).toBeGreaterThanOrEqual(0);
      expect(shownAt.automation).toEqual([`${at}.inputs.apiKey.plaintext`, `${at}.outputs.apiKey.plaintext`]);
      expect(shownAt.cli).toEqual(shownAt.automation);
    });

    it("shows no byte of the key anywhere else: files at rest, -v=9 output with the plugin's own log, the request log, errors", () => {
      const scan = audit.scan(KEY, cliMasksRpcLines() ? undefined : ENGINE_RPC_LINE);
      expect(zeroHits(scan)).toEqual(Object.fromEntries(Object.keys(scan).map((place) => [place, 0])));
      expect(Object.keys(scan)).toEqual(
        expect.arrayContaining(["emulator request log", "error messages", "file backend/...", "CLI output (-v=9): up"]),
      );
      // The plugin did run, and its log is in what was scanned.
      expect(audit.places.get("CLI output (-v=9): up")!.join("\n")).toMatch(/pulumi-resource-cdnstream/);
    });
  });
});
