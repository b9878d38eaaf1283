/**
 * What to do about a failure, worded once for the people who run Pulumi. The client's errors
 * state facts (status, operation, setting, where the key came from); each entry that knows its
 * user (the handlers' context in either host, the program's data sources, the CLI) gives the
 * client {@link stackWording}, and the client puts the advice after the facts (client/core/errors.ts,
 * `advised`). Nothing rewrites another layer's text.
 */
import * as errors from "../../client/core/errors";
import type { ConfigOptions } from "../../client/core/config";

/** Who reads the advice, where it differs. */
export interface Audience {
  /** The settings are also an explicit provider's arguments (the provider plugin's configuration). */
  providerArguments?: boolean;
  /** The key can only come from CDNSTREAM_API_KEY: a command that reads no stack config. */
  keyFromEnvironmentOnly?: boolean;
}

/** The client options that word its errors for people who set the stack config `cdnstream:*`. */
export function stackWording(audience: Audience = {}): Required<Pick<ConfigOptions, "configName" | "advise">> {
  return { configName: (name) => `config cdnstream:${name}`, advise: (error) => adviceFor(error, audience) };
}

/** How a setting is set: the stack config command, and the provider's argument where there is one. */
function setCommand(name: string, placeholder: string, { providerArguments }: Audience, secret = false): string {
  const command = `\`pulumi config set ${secret ? "--secret " : ""}cdnstream:${name} <${placeholder}>\``;
  return providerArguments ? `${command} (or the provider's \`${name}\` argument)` : command;
}

/**
 * After a key is regenerated (§5), steps that do not run the program get the configuration the
 * state recorded at the last `up`; the client cannot tell which key it was given, so the advice
 * names the case and the flag that helps (docs/key-rotation.md).
 */
const ROTATED_KEY =
  "If you have just set a regenerated key: `pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` send the old one, which the stack's state recorded at the last `pulumi up` while it was stack config. " +
  "Run them with `--run-program` (`pulumi refresh --run-program`, `pulumi preview --refresh --run-program`, `pulumi destroy --run-program`); once a refresh or an up has run the program, the state holds the new key.";

/** The same advice for a key taken from the environment, which the state does not record. */
const SET_ENV_KEY =
  "The key came from CDNSTREAM_API_KEY: set it to a valid key in the environment that runs pulumi (keys are made under Settings > API Keys). " +
  "If the key was regenerated: put the new one in CDNSTREAM_API_KEY of every shell or CI job that runs pulumi for this stack; the stack's state does not hold a key taken from the environment, so nothing else changes.";

/** What a repeat of a refused key says instead of the advice, within one run of a provider. */
export const KEY_REFUSED_AGAIN =
  "The same key was refused earlier in this run: the error of the first resource it refused says what to do.";

/** What to do about a refused key in a command that reads it only from CDNSTREAM_API_KEY. */
export const SET_ENV_KEY_ONLY =
  "Set CDNSTREAM_API_KEY to a valid key (keys are made under Settings > API Keys); this command reads no stack config.";

/** What a failed write that is never sent twice adds: it may have reached the API (docs/design.md, "Rate limits, retry safety"). */
const NOT_RETRIED =
  "Not retried: this request is not idempotent (a timeshift create is never repeated automatically), so look for the object before running again.";

/** What to do about `error`, for `audience`; undefined where there is nothing to add. */
export function adviceFor(error: errors.CdnstreamError, audience: Audience = {}): string | undefined {
  if (error instanceof errors.ConfigError) {
    if (error.setting === "apiKey")
      return `set ${setCommand("apiKey", "key", audience, true)} or CDNSTREAM_API_KEY (keys are made in the dashboard under Settings > API Keys).`;
    if (error.setting === "baseUrl")
      return `set ${setCommand("baseUrl", "url", audience)} or CDNSTREAM_BASE_URL to the address before /v2 (for the emulator, the url it prints). The API spec names no public address, so there is no default.`;
    return undefined;
  }
  if (!(error instanceof errors.ApiError)) return undefined;
  if (error instanceof errors.AuthenticationError) {
    if (audience.keyFromEnvironmentOnly) return SET_ENV_KEY_ONLY;
    if (error.apiKeySource === "environment") return SET_ENV_KEY;
    return `Set ${setCommand("apiKey", "key", audience, true)} or CDNSTREAM_API_KEY (keys are made under Settings > API Keys). ${ROTATED_KEY}`;
  }
  if (error instanceof errors.ValidationError)
    return error.sent
      ? "Correct the value the message names and run again."
      : "Nothing was sent; fix the value and run again.";
  if (error instanceof errors.ConnectionError) {
    const action = errors.isTimeout(error.code)
      ? "Raise cdnstream:timeoutMs (CDNSTREAM_TIMEOUT_MS) or check the API's health."
      : "Check cdnstream:baseUrl (CDNSTREAM_BASE_URL) and the network.";
    return error.retry === "connect-only" && !errors.isConnectPhase(error.code) ? `${action} ${NOT_RETRIED}` : action;
  }
  if (error instanceof errors.ResponseShapeError)
    return "The client cannot use this answer; the raw body is on err.rawBody. Report it if the API changed.";
  if (error instanceof errors.PermissionDeniedError) return permissionAdvice(error.apiMessage);
  if (error instanceof errors.NotFoundError) return notFoundAdvice(error);
  // Every operation, a create included, is retried on a 429: the API processed nothing.
  if (error instanceof errors.RateLimitError)
    return "Lower cdnstream:rps (CDNSTREAM_RPS) or cdnstream:maxConcurrency, or raise cdnstream:maxRetryWaitMs.";
  if (error instanceof errors.ServerError) {
    if (error.retry === "connect-only") return NOT_RETRIED;
    return error.status === 502 || error.status === 503 || error.status === 504
      ? "The API is unavailable; try again later, or raise cdnstream:maxRetries / cdnstream:maxRetryWaitMs."
      : "The API failed on this request (not retried: a 500 usually repeats); try again later and report it if it persists.";
  }
  return "Check the request against the API reference of this operation.";
}

/** What the API's path parameters stand for, as advice names them (`zone 301`). */
const PARAM_NOUNS: Readonly<Record<string, string>> = {
  zoneid: "zone",
  streamid: "stream",
  backupid: "backup",
  pid: "ad-manager project",
  cid: "campaign",
  crid: "creative",
  purgeid: "purge",
};

/**
 * The objects a request path addresses, innermost first (`campaign cmp_1 of ad-manager project 7`),
 * from the operation's template and the path sent; undefined when the path has no ids.
 */
function addressed(template: string, requestPath: string | undefined): string | undefined {
  const sent = (requestPath ?? "").replace(/\?.*$/, "").split("/");
  const named = template
    .split("/")
    .flatMap((part, i) => {
      const param = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!param) return [];
      const value = sent[i] !== undefined && sent[i] !== "" ? decodeURIComponent(sent[i]!) : undefined;
      const noun = PARAM_NOUNS[param.toLowerCase()] ?? param;
      return [value === undefined ? noun : `${noun} ${value}`];
    })
    .reverse();
  return named.length ? named.join(" of ") : undefined;
}

/**
 * A 404 said for its case: a body that is not the API's JSON, or a message about the path, means
 * a path the API does not serve; otherwise a read is of an object that is gone, and a write
 * addresses an object that does not exist.
 */
function notFoundAdvice({ body, apiMessage, operation, requestPath }: errors.NotFoundError): string {
  const apiAnswer = body !== null && typeof body === "object";
  const aboutPath =
    /no such path|not part of the api|unknown path|no route|route not found|cannot (get|post|put|patch|delete) /i;
  if (!apiAnswer || (apiMessage !== undefined && aboutPath.test(apiMessage))) {
    return "The API does not serve this path: check that cdnstream:baseUrl (CDNSTREAM_BASE_URL) is the API's address before /v2, and that this API version offers the operation.";
  }
  const objects = addressed(operation.path, requestPath);
  if (operation.method === "GET") {
    return `Nothing in this account has this id${objects ? ` (${objects})` : ""}: if the stack recorded the object, it was deleted outside the stack; check the id in the dashboard.`;
  }
  return objects
    ? `The ${objects} this write addresses does not exist in this account: check the id in the program (it may never have existed, or have been deleted outside the stack), or create it first.`
    : "An object this write refers to does not exist in this account: check the ids among its inputs (the API's message names it).";
}

/**
 * What to do about a 403 (the key is valid either way, §5): what the account lacks when the API
 * names the custom plan or the analytics add-on; otherwise the account is restricted.
 */
function permissionAdvice(apiMessage: string | undefined): string {
  const text = apiMessage?.toLowerCase() ?? "";
  const plan = text.includes("custom plan");
  const addOn = text.includes("add-on") || text.includes("advanced analytics");
  if (plan || addOn) {
    const missing = [plan && "the custom plan", addOn && "the advanced analytics add-on"].filter(Boolean).join(" and ");
    return `The key is valid, but the account lacks ${missing}: add it to the account in the dashboard, then run again.`;
  }
  if (apiMessage === undefined) {
    return "The key is valid, but the account may not do this: an account restriction, or a missing plan or add-on (ad insertion needs the custom plan; some reports and filters the advanced analytics add-on). Check the account in the dashboard.";
  }
  return "The key is valid, but the account is restricted from this operation: check the account's restrictions in the dashboard, or use the key of an account that may do this.";
}
