/**
 * Configuration resolution. Each setting is taken from the first of: 1. explicit options, 2. a
 * lookup of configuration values by setting name (the Pulumi side passes stack config),
 * 3. the environment (`CDNSTREAM_*`), 4. the default below. The API key and the base URL have no
 * default: the spec names no public address.
 */
import { advised, ConfigError, type Advise, type ApiKeySource } from "./errors";
import { redactUrl, Secret } from "./redact";

/** Resolved settings of a client. */
export interface ClientSettings {
  /** Address before `/v2`, without a trailing slash, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The account's API key, sent as the `X-API-Key` header. */
  apiKey: Secret;
  /**
   * Where the key was taken from: the advice of a refused key names that place (stack config
   * `cdnstream:apiKey`, the environment's CDNSTREAM_API_KEY, or the client's own option).
   */
  apiKeySource: ApiKeySource;
  /** Retries after the first attempt (so attempts = maxRetries + 1). Default 4. */
  maxRetries: number;
  /** First backoff step, doubled per retry, before jitter. Default 500 ms. */
  retryBaseDelayMs: number;
  /** Cap of one backoff step (a `Retry-After` is honoured even beyond it). Default 8000 ms. */
  retryMaxDelayMs: number;
  /** Cap of the total time spent waiting between attempts of one call. Default 60000 ms. */
  maxRetryWaitMs: number;
  /** Per-attempt wait for response headers, and between body chunks. Default 30000 ms. */
  timeoutMs: number;
  /** Wait for response headers; default `timeoutMs`. */
  headersTimeoutMs: number;
  /** Wait between response body chunks; default `timeoutMs`. */
  bodyTimeoutMs: number;
  /**
   * Wait for the answer to a write that is never retried (the timeshift create, `POST /v2/streams/timeshift/new`), at least
   * `headersTimeoutMs`. Default 120000 ms: giving up on such a request early cannot make it
   * not happen, it only leaves a stream the stack does not know about.
   */
  unretriedTimeoutMs: number;
  /** Per-connection TCP/TLS connect timeout. Default 10000 ms. */
  connectTimeoutMs: number;
  /** How long an idle keep-alive socket is kept. Default 4000 ms. */
  keepAliveTimeoutMs: number;
  /** Maximum open connections to the API origin. Default 16. */
  connections: number;
  /** Maximum requests in flight from this client; more wait in a queue. Default 16. */
  maxConcurrency: number;
  /** Client-side requests-per-second limit; 0 = off (the default). */
  rps: number;
}

/** A lookup of configuration values by setting name, e.g. stack config (`{apiKey: "..."}`). */
export type ConfigSource = Readonly<Record<string, string | undefined>>;

/** Options accepted by {@link resolveConfig} and the client constructor. */
export interface ConfigOptions extends Partial<Omit<ClientSettings, "apiKey" | "apiKeySource">> {
  /** The API key; wins over config and environment. */
  apiKey?: string | Secret;
  /** Configuration values by setting name (step 2), e.g. the stack's `cdnstream:*` config. */
  config?: ConfigSource;
  /** What messages call a setting taken from `config`; `config <name>` by default. */
  configName?: (name: string) => string;
  /** What to do about a failure, after its facts ({@link Advise}); a missing key or URL gets it too. */
  advise?: Advise;
  /** Environment (step 3); defaults to `process.env`. Pass `{}` to ignore it. */
  env?: Readonly<Record<string, string | undefined>>;
}

type NumericSetting = Exclude<keyof ClientSettings, "baseUrl" | "apiKey" | "apiKeySource">;

/** Each numeric setting's environment variable, default and minimum; or the setting (listed earlier) it `inherits`. */
export const NUMERIC_SETTINGS: Record<
  NumericSetting,
  { env: string; fallback: number; min: number; inherits?: NumericSetting }
> = {
  maxRetries: { env: "CDNSTREAM_MAX_RETRIES", fallback: 4, min: 0 },
  retryBaseDelayMs: { env: "CDNSTREAM_RETRY_BASE_DELAY_MS", fallback: 500, min: 0 },
  retryMaxDelayMs: { env: "CDNSTREAM_RETRY_MAX_DELAY_MS", fallback: 8_000, min: 0 },
  maxRetryWaitMs: { env: "CDNSTREAM_MAX_RETRY_WAIT_MS", fallback: 60_000, min: 0 },
  timeoutMs: { env: "CDNSTREAM_TIMEOUT_MS", fallback: 30_000, min: 1 },
  headersTimeoutMs: { env: "CDNSTREAM_HEADERS_TIMEOUT_MS", fallback: 30_000, min: 1, inherits: "timeoutMs" },
  bodyTimeoutMs: { env: "CDNSTREAM_BODY_TIMEOUT_MS", fallback: 30_000, min: 1, inherits: "timeoutMs" },
  unretriedTimeoutMs: { env: "CDNSTREAM_UNRETRIED_TIMEOUT_MS", fallback: 120_000, min: 1 },
  connectTimeoutMs: { env: "CDNSTREAM_CONNECT_TIMEOUT_MS", fallback: 10_000, min: 1 },
  keepAliveTimeoutMs: { env: "CDNSTREAM_KEEP_ALIVE_TIMEOUT_MS", fallback: 4_000, min: 1 },
  connections: { env: "CDNSTREAM_CONNECTIONS", fallback: 16, min: 1 },
  maxConcurrency: { env: "CDNSTREAM_MAX_CONCURRENCY", fallback: 16, min: 1 },
  rps: { env: "CDNSTREAM_RPS", fallback: 0, min: 0 },
};

/** Every setting's name (`config`'s keys; stack config `cdnstream:<name>`): what a Pulumi-side caller looks up. */
export const CONFIG_NAMES: readonly string[] = ["apiKey", "baseUrl", ...Object.keys(NUMERIC_SETTINGS)];

/** A setting without a default that was given nowhere: the caller's advice says how to give it, or the client's own option. */
function missing(setting: "apiKey" | "baseUrl", envVar: string, advise: Advise | undefined): ConfigError {
  const error = new ConfigError(setting === "apiKey" ? "No API key:" : "No API base URL:", { setting });
  return advised(error, (e) => advise?.(e) ?? `give the ${setting} option or set ${envVar}.`);
}

/** Resolves every setting; throws {@link ConfigError} naming the key and where it came from. */
export function resolveConfig(options: ConfigOptions = {}): ClientSettings {
  const env = options.env ?? process.env;
  const configName = options.configName ?? ((name: string) => `config ${name}`);
  const pick = (name: string, envVar: string): { value: string; where: string } | undefined => {
    const value = options.config?.[name]?.trim();
    if (value) return { value, where: configName(name) };
    const fromEnv = env[envVar]?.trim();
    return fromEnv ? { value: fromEnv, where: envVar } : undefined;
  };

  const explicitKey = options.apiKey;
  const explicitText = explicitKey instanceof Secret ? explicitKey.reveal() : explicitKey?.trim();
  const picked = explicitKey instanceof Secret || explicitText ? undefined : pick("apiKey", "CDNSTREAM_API_KEY");
  const keyText = explicitText || picked?.value;
  if (!keyText) throw missing("apiKey", "CDNSTREAM_API_KEY", options.advise);
  const fromEnv = picked?.where === "CDNSTREAM_API_KEY";
  const apiKeySource: ApiKeySource = explicitText ? "option" : fromEnv ? "environment" : "config";

  const base =
    options.baseUrl !== undefined
      ? { value: options.baseUrl, where: "option baseUrl" }
      : pick("baseUrl", "CDNSTREAM_BASE_URL");
  if (!base) throw missing("baseUrl", "CDNSTREAM_BASE_URL", options.advise);

  const settings = {
    baseUrl: normalizeBaseUrl(base.value, base.where),
    apiKey: new Secret(keyText),
    apiKeySource,
  } as ClientSettings;
  for (const name of Object.keys(NUMERIC_SETTINGS) as NumericSetting[]) {
    const spec = NUMERIC_SETTINGS[name];
    const explicit = options[name];
    const found = explicit !== undefined ? { value: String(explicit), where: `option ${name}` } : pick(name, spec.env);
    settings[name] = found
      ? parseNumber(found.value, found.where, spec.min)
      : spec.inherits
        ? settings[spec.inherits]
        : spec.fallback;
  }
  return settings;
}

/**
 * Each setting (by name: `apiKey`, `rps`) that cannot work, with why and how to set it, as resolveConfig
 * judges it, the environment included. Nothing is sent; the plugin's checkConfig and the handlers' check use it.
 */
export function configFailures(
  settings: Readonly<Record<string, string | undefined>>,
  { env = process.env, configName, advise }: Pick<ConfigOptions, "env" | "configName" | "advise"> = {},
): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  const judge = (property: string, config: Record<string, string>, from: ConfigOptions["env"]) => {
    try {
      resolveConfig({ config, env: from, configName, advise });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      failures.push({ property, reason: err.message });
    }
  };
  // Each setting judged alone beside a valid key and URL, so a failure names the one it is about;
  // an empty value is an absent one.
  const valid = { apiKey: "placeholder", baseUrl: "http://placeholder.invalid" };
  judge("apiKey", { ...valid, apiKey: settings.apiKey ?? "" }, env);
  judge("baseUrl", { ...valid, baseUrl: settings.baseUrl ?? "" }, env);
  for (const [name, spec] of Object.entries(NUMERIC_SETTINGS)) {
    const value = settings[name];
    judge(name, { ...valid, [name]: value ?? "" }, value !== undefined ? {} : { [spec.env]: env[spec.env] });
  }
  return failures;
}

/**
 * The part before `/v2`: trims, drops trailing slashes and one trailing `/v2`, and requires
 * http(s). `https://api.example.com/v2/` becomes `https://api.example.com`.
 */
export function normalizeBaseUrl(raw: string, where = "baseUrl"): string {
  let text = raw.trim().replace(/\/+$/, "");
  if (/\/v2$/i.test(text)) text = text.slice(0, -3).replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(
      `${where} is not a URL (${redactUrl(text)}): give the address before /v2, e.g. https://api.example.com.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${where} must be an http or https URL, not ${url.protocol}: give the address before /v2.`);
  }
  if (url.search || url.hash) {
    throw new ConfigError(`${where} must not carry a query or fragment: give the address before /v2.`);
  }
  return text;
}

function parseNumber(text: string, where: string, min: number): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value) || value < min) {
    throw new ConfigError(
      `${where}=${JSON.stringify(text)} is not a number >= ${min}: set it to a plain number such as ${Math.max(min, 1)}.`,
    );
  }
  return value;
}
