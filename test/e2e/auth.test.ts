/**
 * Authentication failures through the real CLI against the emulator, for resources (in the
 * provider host) and for data sources (in the program): no key at all, a wrong key, a key the
 * account restricts, and an account without the custom plan or the advanced analytics add-on.
 * Each is one clear error that says what to do, costs at most one request per operation (an
 * authentication failure is never retried), and echoes no key.
 */
import * as crypto from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { request } from "undici";
import { run as runCommand } from "../../scripts/child";
import { createTestStack, engineEnv, type TestStack, ENGINE_COMMAND_DEADLINE_MS } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { installedPackageDir, loadSdk } from "../helpers/package";
import { KEY_REFUSED_AGAIN } from "../../kinds/common/advice";

const cdn = loadSdk();

const random = (prefix: string) => `${prefix}${crypto.randomBytes(18).toString("hex")}`;
const KEY = random("valid");
const WRONG = random("wrong");
const FORBIDDEN = random("forbid");

const STATUS = "POST /v2/streams/push/{streamid}/status";
const TIMESHIFT = "POST /v2/streams/timeshift/new";
const SCHEDULE = "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule";
const DNS = "GET /v2/dns";
const CONSUMPTION = "POST /v2/streams/pull/{streamid}/adinsertion/consumption";
const AD_BREAKS = "GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks";

/**
 * A user's program that calls one data source, run by the Automation API in its own Node process
 * as a deployment script does. (Inside jest, the unhandled rejections through which Pulumi's inline
 * runner reports a failed program would fail the test that expects the failure.)
 */
const DATA_SOURCE_PROGRAM = `
const { LocalWorkspace } = require("@pulumi/pulumi/automation");
const cdn = require(process.env.SDK_DIR);
const programs = {
  dnsZones: async () => ({ domains: (await cdn.getDnsZones()).domains.length }),
  adConsumption: async () => ({ days: (await cdn.getAdConsumption({ streamId: 4001, groupBy: "day", r: "2025-01-01 00:00:00 - 2025-01-03 00:00:00" })).adInsertionsChart.length }),
  adBreaks: async () => ({ count: (await cdn.getAdBreaks({ zoneId: 401 })).items.length }),
};
(async () => {
  const [workDir, projectName, stackName, program] = process.argv.slice(1);
  const stack = await LocalWorkspace.selectStack({ projectName, stackName, program: programs[program] }, { workDir });
  try {
    await stack.up({ color: "never", onOutput: (s) => process.stdout.write(s), onError: (s) => process.stderr.write(s) });
    process.exit(0);
  } catch (e) {
    process.stderr.write("\\nthrown: " + e.message);
    process.exit(1);
  }
})();
`;

interface LogEntry {
  operation: string | null;
  status: number;
}

describe("authentication failures", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let body: () => Record<string, unknown> = () => ({});
  /** The key the next run gets in CDNSTREAM_API_KEY, as pipelines pass it; undefined: none at all. */
  let key: string | undefined;
  const inherited = process.env.CDNSTREAM_API_KEY;

  /** Three kinds, each failing on its first request: a retried POST, the never-retried create, a custom-plan write. */
  const resources = () => {
    const status = new cdn.StreamStatus("status", { streamKind: "push", streamId: 3001, disabled: false });
    const delayed = new cdn.TimeshiftStream("delayed", { name: "auth-delayed", parent: 3001, timeshift: 300 });
    const slot = new cdn.AdBreakSlot("slot", { zoneId: 301, type: "preroll", maxDurationS: 30 });
    return { status: status.id, delayed: delayed.id, slot: slot.id };
  };
  const slotOnly = () => ({ slot: new cdn.AdBreakSlot("slot", { zoneId: 301, type: "preroll", maxDurationS: 30 }).id });

  /** Fails unless `text` is free of every key of the suite. */
  function expectNoKey(text: string): void {
    for (const k of [KEY, WRONG, FORBIDDEN]) expect(text).not.toContain(k);
  }

  /** Runs `up` of resources in this process, which must fail: what the CLI printed plus the thrown error's text. */
  async function failingUp(program: () => Record<string, unknown>): Promise<string> {
    body = program;
    const cliEnv = test.stack.workspace.envVars;
    if (key === undefined) delete cliEnv.CDNSTREAM_API_KEY;
    else cliEnv.CDNSTREAM_API_KEY = key;
    await emulator.clearRequests();
    let printed = "";
    // Every resource is attempted even after the first fails: without continueOnError the engine
    // stops starting steps, and whether the last one had started would be a race.
    const error = await test.stack
      .up({ color: "never", continueOnError: true, onOutput: (s) => (printed += s), onError: (s) => (printed += s) })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    const text = `${printed}\n${(error as Error).message}`;
    expectNoKey(text);
    return text;
  }

  /** Runs `up` of a program calling one data source, in its own process, which must fail: all it printed. */
  async function failingDataSource(program: "dnsZones" | "adConsumption" | "adBreaks"): Promise<string> {
    await emulator.clearRequests();
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...engineEnv(test.dir),
      SDK_DIR: installedPackageDir,
    };
    delete env.CDNSTREAM_API_KEY;
    if (key !== undefined) env.CDNSTREAM_API_KEY = key;
    const args = ["-e", DATA_SOURCE_PROGRAM, test.stack.workspace.workDir, "cdnstream-e2e", test.stack.name, program];
    // Asynchronous: the emulator answering the program lives in this process.
    const { status: code, output: text } = await runCommand(process.execPath, args, {
      env,
      deadlineMs: ENGINE_COMMAND_DEADLINE_MS,
      allowFailure: true,
    });
    expect(code).toBe(1);
    expect(text).toMatch(/\nthrown: /);
    expectNoKey(text);
    return text;
  }

  /** `POST /__emulator/mutate` on the account's plan flags. */
  async function account(patch: { customPlan?: boolean; advancedAnalytics?: boolean }): Promise<void> {
    const res = await request(`${emulator.url}/__emulator/mutate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "account", patch }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`account mutate answered ${res.statusCode}: ${text}`);
  }

  /** The emulator's raw request log since the last clear: every API request, failed ones included. */
  async function requestLog(): Promise<LogEntry[]> {
    const res = await request(`${emulator.url}/__emulator/requests`);
    return ((await res.body.json()) as { requests: LogEntry[] }).requests;
  }

  /** Each logged request as `<operation> <status>`, sorted. */
  const requested = async () => (await requestLog()).map((e) => `${e.operation} ${e.status}`).sort();

  beforeAll(async () => {
    emulator = await startTestEmulator({ apiKey: KEY, forbiddenKey: FORBIDDEN });
    // Nothing inherited: the CLI's environment extends this process's, and a CDNSTREAM_API_KEY
    // of the shell running the tests would hide the first case.
    delete process.env.CDNSTREAM_API_KEY;
    test = await createTestStack({
      program: async () => body() as Record<string, pulumi.Input<unknown>>,
      config: { "cdnstream:baseUrl": { value: emulator.url } },
    });
  });
  afterAll(async () => {
    try {
      if (test) test.stack.workspace.envVars.CDNSTREAM_API_KEY = KEY;
      if (emulator) await account({ customPlan: true, advancedAnalytics: true });
      await test?.cleanup();
    } finally {
      await emulator?.close();
      if (inherited !== undefined) process.env.CDNSTREAM_API_KEY = inherited;
    }
  });

  describe("with no key at all", () => {
    beforeAll(() => (key = undefined));

    it("a resource fails before any request, saying how to set the key", async () => {
      const text = await failingUp(resources);
      expect(text).toMatch(/No API key: set `pulumi config set --secret cdnstream:apiKey <key>` or CDNSTREAM_API_KEY/);
      expect(await requestLog()).toEqual([]);
    });

    it("a data source fails before any request, saying how to set the key", async () => {
      const text = await failingDataSource("dnsZones");
      expect(text).toMatch(
        /error: getDnsZones: No API key: set `pulumi config set --secret cdnstream:apiKey <key>` or CDNSTREAM_API_KEY/,
      );
      expect(await requestLog()).toEqual([]);
    });
  });

  describe("with a wrong key", () => {
    beforeAll(() => (key = WRONG));

    it("each resource makes one request, answered 401, and the error says the key is invalid and how to fix it", async () => {
      const text = await failingUp(resources);
      expect(await requested()).toEqual([`${STATUS} 401`, `${TIMESHIFT} 401`, `${SCHEDULE} 401`]);
      for (const op of [STATUS, TIMESHIFT, SCHEDULE])
        expect(text).toContain(`API key rejected (401) on ${op}: API key is invalid.`);
      // What to do is said once per run, under the first resource refused, and the others point
      // at it; the key came from CDNSTREAM_API_KEY, as pipelines pass it, so the advice names
      // that variable. Counted in the CLI's closing summary, which lists each diagnostic once.
      const summary = text.slice(text.lastIndexOf("Diagnostics:"), text.lastIndexOf("Resources:"));
      const count = (needle: string) => summary.split(needle).length - 1;
      expect(
        count("The key came from CDNSTREAM_API_KEY: set it to a valid key in the environment that runs pulumi"),
      ).toBe(1);
      expect(count(KEY_REFUSED_AGAIN)).toBe(2);
      // The provider host's echo of each error under the stack ("X: X" and our stack trace) is
      // gone. (The newest SDK's program prints a trace of its own for a resource that failed to
      // register; that one is Pulumi's, not the provider's.)
      expect(summary).not.toContain("AuthenticationError");
      expect(summary).not.toMatch(/pulumi-cdnstream\/(provider|kinds)\//);
      expect(text).not.toMatch(/after \d+ attempts/);
    });

    it("a data source makes one request, answered 401, with the same advice", async () => {
      const text = await failingDataSource("dnsZones");
      expect(await requested()).toEqual([`${DNS} 401`]);
      // As the resources' first: the key came from CDNSTREAM_API_KEY, and the advice names it.
      expect(text).toContain(
        "error: getDnsZones: API key rejected (401) on GET /v2/dns: API key is invalid. The key came from CDNSTREAM_API_KEY: set it to a valid key in the environment that runs pulumi",
      );
    });
  });

  describe("with a key the account restricts", () => {
    beforeAll(() => (key = FORBIDDEN));

    it("each resource makes one request, answered 403, and the error names the permission problem", async () => {
      const text = await failingUp(resources);
      expect(await requested()).toEqual([`${STATUS} 403`, `${TIMESHIFT} 403`, `${SCHEDULE} 403`]);
      for (const op of [STATUS, TIMESHIFT, SCHEDULE]) {
        expect(text).toContain(
          `Permission denied (403) on ${op}: permission denied: this account is restricted and lacks permission for this operation. ` +
            "The key is valid, but the account is restricted from this operation: check the account's restrictions in the dashboard",
        );
      }
      expect(text).not.toMatch(/custom plan|add-on/);
      expect(text).not.toMatch(/after \d+ attempts/);
    });

    it("a data source makes one request, answered 403, and the error names the permission problem", async () => {
      const text = await failingDataSource("dnsZones");
      expect(await requested()).toEqual([`${DNS} 403`]);
      expect(text).toMatch(
        /error: getDnsZones: permission denied \(403\): the API key is valid but this account may not read DNS zones \(an account restriction/,
      );
    });
  });

  describe("with the valid key on an account without the plan or add-on", () => {
    beforeAll(() => (key = KEY));
    afterEach(() => account({ customPlan: true, advancedAnalytics: true }));

    it("a custom-plan resource makes one request, answered 403, and the error names the custom plan", async () => {
      await account({ customPlan: false });
      const text = await failingUp(slotOnly);
      expect(await requested()).toEqual([`${SCHEDULE} 403`]);
      expect(text).toContain(
        `Permission denied (403) on ${SCHEDULE}: ad break schedule requires the custom plan; this account is not on the custom plan. ` +
          "The key is valid, but the account lacks the custom plan: add it to the account in the dashboard, then run again.",
      );
    });

    it("a custom-plan data source makes one request, answered 403, naming the custom plan", async () => {
      await account({ customPlan: false });
      const text = await failingDataSource("adConsumption");
      expect(await requested()).toEqual([`${CONSUMPTION} 403`]);
      expect(text).toContain(
        "error: getAdConsumption: permission denied (403): reading ad consumption needs the custom plan (POST /v2/streams/pull/{streamid}/adinsertion/consumption).",
      );
      expect(text).toContain("Add the custom plan to the account in the dashboard");
    });

    it("an add-on data source makes one request, answered 403, naming the advanced analytics add-on", async () => {
      await account({ advancedAnalytics: false });
      const text = await failingDataSource("adBreaks");
      expect(await requested()).toEqual([`${AD_BREAKS} 403`]);
      expect(text).toContain(
        'The API said: "list ad breaks requires the advanced analytics add-on; this account does not have it".',
      );
      expect(text).toContain("Add the custom plan and the advanced analytics add-on to the account in the dashboard");
    });
  });
});
