/**
 * A refused key's advice names where the key came from: resolveConfig records the place, and the
 * provider's client words a 401 for it (stack config `cdnstream:apiKey`, or CDNSTREAM_API_KEY).
 */
import { HandlerContext } from "../../kinds/common/context";
import { dns, resolveConfig } from "../../client";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

/** One provider host's context, configured per case as the host configures it. */
const context = new HandlerContext();

describe("where the API key came from", () => {
  it("resolveConfig records it: option, stack config or environment", () => {
    const base = { baseUrl: "http://127.0.0.1:9" };
    expect(resolveConfig({ ...base, apiKey: "k", env: {} }).apiKeySource).toBe("option");
    expect(resolveConfig({ ...base, config: { apiKey: "k" }, env: {} }).apiKeySource).toBe("config");
    expect(resolveConfig({ ...base, env: { CDNSTREAM_API_KEY: "k" } }).apiKeySource).toBe("environment");
    // Stack config wins over the environment, and so does its advice.
    expect(resolveConfig({ ...base, config: { apiKey: "k" }, env: { CDNSTREAM_API_KEY: "e" } }).apiKeySource).toBe(
      "config",
    );
  });

  describe("a 401 to the provider's client", () => {
    let emulator: TestEmulator;
    const inherited = process.env.CDNSTREAM_API_KEY;
    const WRONG = "wrong-key-0123456789abcdef";
    beforeAll(async () => (emulator = await startTestEmulator()));
    afterAll(async () => {
      await context.configure({});
      await emulator.close();
      if (inherited === undefined) delete process.env.CDNSTREAM_API_KEY;
      else process.env.CDNSTREAM_API_KEY = inherited;
    });

    const refused = async (): Promise<string> => {
      const err = await context
        .client()
        .call(dns.listDnsZones, {})
        .then(() => undefined)
        .catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message).toMatch(/^API key rejected \(401\)/);
      expect(message).not.toContain(WRONG);
      return message;
    };

    it("names stack config and --run-program when the key came from cdnstream:apiKey", async () => {
      delete process.env.CDNSTREAM_API_KEY;
      await context.configure({ apiKey: WRONG, baseUrl: emulator.url });
      const message = await refused();
      expect(message).toContain("`pulumi config set --secret cdnstream:apiKey <key>`");
      expect(message).toContain("--run-program");
    });

    it("names CDNSTREAM_API_KEY, and neither stack config nor --run-program, when the key came from there", async () => {
      process.env.CDNSTREAM_API_KEY = WRONG;
      await context.configure({ baseUrl: emulator.url });
      const message = await refused();
      expect(message).toContain("The key came from CDNSTREAM_API_KEY: set it to a valid key");
      expect(message).toContain("put the new one in CDNSTREAM_API_KEY");
      expect(message).not.toContain("cdnstream:apiKey");
      expect(message).not.toContain("--run-program");
    });
  });
});
