/**
 * Configuration that cannot work fails `pulumi preview` on the dynamic path, as it does on the
 * provider plugin's: no API key, a base URL that is not a URL, a negative `cdnstream:rps`. Each
 * fails in the resources' check, before any request (the emulator's log stays empty), with an
 * error naming the setting and how to set it, and without the key. A correct configuration
 * still previews.
 */
import * as crypto from "node:crypto";
import { createTestStack, failedPreviewText, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";

const cdn = loadSdk();
const KEY = `cfgkey${crypto.randomBytes(18).toString("hex")}`;

interface BadConfig {
  title: string;
  /** Stack config of the case, beside the emulator's key and URL unless it removes them. */
  config: (emulator: TestEmulator) => Record<string, { value: string; secret?: boolean }>;
  /** What the error must say, on one line: the setting and how to set it. */
  says: RegExp;
}

const cases: BadConfig[] = [
  {
    title: "no API key",
    config: (emulator) => ({ "cdnstream:baseUrl": { value: emulator.url } }),
    says: /No API key: set `pulumi config set --secret cdnstream:apiKey <key>` or CDNSTREAM_API_KEY/,
  },
  {
    title: "a base URL that is not a URL",
    config: () => ({ "cdnstream:apiKey": { value: KEY, secret: true }, "cdnstream:baseUrl": { value: "not a url" } }),
    says: /config cdnstream:baseUrl is not a URL \(not a url\): give the address before \/v2/,
  },
  {
    title: "a negative cdnstream:rps",
    config: (emulator) => ({ ...emulator.stackConfig(), "cdnstream:rps": { value: "-1" } }),
    says: /config cdnstream:rps="-1" is not a number >= 0: set it to a plain number/,
  },
];

describe("configuration that cannot work fails preview on the dynamic path, naming the setting", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  const inherited = { key: process.env.CDNSTREAM_API_KEY, url: process.env.CDNSTREAM_BASE_URL };

  beforeAll(async () => {
    emulator = await startTestEmulator({ apiKey: KEY });
    // The CLI's environment extends this process's: a key or address of the shell running the
    // tests would stand in for the missing setting.
    delete process.env.CDNSTREAM_API_KEY;
    delete process.env.CDNSTREAM_BASE_URL;
    delete process.env.CDNSTREAM_RPS;
    test = await createTestStack({
      program: async () => {
        new cdn.AdBreakSlot("slot", { zoneId: 301, type: "preroll", maxDurationS: 30 });
        new cdn.StreamStatus("status", { streamKind: "push", streamId: 3001, disabled: true });
      },
    });
  });
  afterAll(async () => {
    try {
      await test?.stack.setAllConfig(emulator.stackConfig());
      await test?.cleanup();
    } finally {
      await emulator?.close();
      if (inherited.key !== undefined) process.env.CDNSTREAM_API_KEY = inherited.key;
      if (inherited.url !== undefined) process.env.CDNSTREAM_BASE_URL = inherited.url;
    }
  });

  /** Replaces the stack's `cdnstream:*` config with `config`. */
  async function configure(config: Record<string, { value: string; secret?: boolean }>): Promise<void> {
    const current = Object.keys(await test.stack.getAllConfig()).filter((key) => key.startsWith("cdnstream:"));
    if (current.length) await test.stack.removeAllConfig(current);
    await test.stack.setAllConfig(config);
  }

  it.each(cases.map((item, index) => [item.title, index] as const))(
    "%s: preview fails, nothing sent",
    async (_t, i) => {
      const item = cases[i]!;
      await configure(item.config(emulator));
      await emulator.clearRequests();
      const text = await failedPreviewText(test.stack);
      expect(text).toMatch(item.says);
      // A resource's check says it, as that resource's problem (the engine stops at the first);
      // no stack trace, no crash.
      expect(text).toMatch(/(AdBreakSlot resource 'slot'|StreamStatus resource 'status') has a problem: /);
      expect(text).not.toMatch(/Unhandled exception|at Object\.|\.ts:\d+:\d+/);
      expect(text).not.toContain(KEY);
      expect(await emulator.requestCounts()).toEqual({});
    },
  );

  it("a correct configuration previews", async () => {
    await configure(emulator.stackConfig());
    await emulator.clearRequests();
    const result = await test.stack.preview({ onOutput: () => undefined });
    // The stack and its two resources.
    expect(result.changeSummary).toEqual({ create: 3 });
  });
});
