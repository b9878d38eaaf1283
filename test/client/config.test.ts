/** Configuration: explicit options, then stack config, then environment, then defaults. */
import { ConfigError, NUMERIC_SETTINGS, normalizeBaseUrl, resolveConfig } from "../../client";
import { stackWording } from "../../kinds/common/advice";

describe("resolveConfig", () => {
  const env = {
    CDNSTREAM_API_KEY: "env-key-1234",
    CDNSTREAM_BASE_URL: "https://env.example.com",
    CDNSTREAM_MAX_RETRIES: "7",
    CDNSTREAM_RPS: "20",
  };

  it("takes explicit options over stack config over environment", () => {
    const config = {
      apiKey: "cfg-key-1234",
      baseUrl: "https://cfg.example.com/v2/",
      maxRetries: "2",
    };
    const fromEnv = resolveConfig({ env });
    expect(fromEnv).toMatchObject({ baseUrl: "https://env.example.com", maxRetries: 7, rps: 20, maxConcurrency: 16 });
    expect(fromEnv.apiKey.reveal()).toBe("env-key-1234");
    const fromConfig = resolveConfig({ env, config });
    expect(fromConfig).toMatchObject({ baseUrl: "https://cfg.example.com", maxRetries: 2, rps: 20 });
    expect(fromConfig.apiKey.reveal()).toBe("cfg-key-1234");
    const explicit = resolveConfig({
      env,
      config,
      apiKey: "opt-key-1234",
      baseUrl: "http://127.0.0.1:9/",
      maxRetries: 0,
    });
    expect(explicit).toMatchObject({ baseUrl: "http://127.0.0.1:9", maxRetries: 0 });
    expect(explicit.apiKey.reveal()).toBe("opt-key-1234");
  });

  it("defaults every numeric setting, rps off", () => {
    const s = resolveConfig({ env: { CDNSTREAM_API_KEY: "k-123456", CDNSTREAM_BASE_URL: "http://h" } });
    for (const [name, spec] of Object.entries(NUMERIC_SETTINGS))
      expect(s[name as keyof typeof NUMERIC_SETTINGS]).toBe(spec.fallback);
    expect(s.rps).toBe(0);
    const t = resolveConfig({
      env: {
        CDNSTREAM_API_KEY: "k-123456",
        CDNSTREAM_BASE_URL: "http://h",
        CDNSTREAM_TIMEOUT_MS: "5000",
        CDNSTREAM_BODY_TIMEOUT_MS: "9000",
      },
    });
    expect(t).toMatchObject({ timeoutMs: 5000, headersTimeoutMs: 5000, bodyTimeoutMs: 9000 });
  });

  it("says where to set a missing key or base URL: the caller's advice, or the client's own option", () => {
    expect(() => resolveConfig({ env: {}, ...stackWording() })).toThrow(
      /^No API key: set `pulumi config set --secret cdnstream:apiKey <key>` or CDNSTREAM_API_KEY/,
    );
    expect(() => resolveConfig({ env: { CDNSTREAM_API_KEY: "k-123456" }, ...stackWording() })).toThrow(
      /^No API base URL: .*CDNSTREAM_BASE_URL.*there is no default/,
    );
    expect(() => resolveConfig({ env: {} })).toThrow(
      new ConfigError("No API key: give the apiKey option or set CDNSTREAM_API_KEY."),
    );
    expect(() => resolveConfig({ env: {}, apiKey: "k" })).toThrow(
      expect.objectContaining({
        setting: "baseUrl",
        message: "No API base URL: give the baseUrl option or set CDNSTREAM_BASE_URL.",
      }),
    );
  });

  it("names the source of a malformed number", () => {
    expect(() => resolveConfig({ env: { ...env, CDNSTREAM_TIMEOUT_MS: "soon" } })).toThrow(
      new ConfigError('CDNSTREAM_TIMEOUT_MS="soon" is not a number >= 1: set it to a plain number such as 1.'),
    );
    expect(() => resolveConfig({ env, config: { maxConcurrency: "0" }, ...stackWording() })).toThrow(
      /^config cdnstream:maxConcurrency="0" is not a number >= 1/,
    );
    expect(() => resolveConfig({ env, config: { maxConcurrency: "0" } })).toThrow(
      /^config maxConcurrency="0" is not a number >= 1/,
    );
  });

  it.each([
    ["https://api.example.com/v2", "https://api.example.com"],
    ["https://api.example.com/v2/", "https://api.example.com"],
    ["https://api.example.com//", "https://api.example.com"],
    ["  http://127.0.0.1:8080  ", "http://127.0.0.1:8080"],
    ["https://gw.example.com/cdn/v2", "https://gw.example.com/cdn"],
  ])("normalizes the base URL %j", (raw, expected) => {
    expect(normalizeBaseUrl(raw)).toBe(expected);
  });

  it.each(["api.example.com", "ftp://x", "https://x/?a=1"])("refuses the base URL %j", (raw) => {
    expect(() => normalizeBaseUrl(raw)).toThrow(ConfigError);
  });
});
