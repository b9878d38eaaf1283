/**
 * Every failure the client raises, one class per meaning, built by {@link createApiError} so messages read
 * alike: a summary, the operation, the API's message, what to do. Bodies, messages and causes are redacted copies.
 */
import { redactCause, redactText, redactValue } from "./redact";

/** The method and path template an error happened on (`GET /v2/cb/{backupid}`; the literal path of a generic call). */
export interface OperationRef {
  method: string;
  path: string;
}

/** Base class of everything this client throws. */
export class CdnstreamError extends Error {
  override name = "CdnstreamError";
}

/** Configuration is missing or malformed (no API key, a non-numeric retry setting...). */
export class ConfigError extends CdnstreamError {
  override name = "ConfigError";
}

/** Fields common to every {@link ApiError}. */
export interface ApiErrorFields {
  /** HTTP status, or `undefined` when no response arrived or nothing was sent. */
  status: number | undefined;
  operation: OperationRef;
  /** The concrete (encoded) path that was or would have been requested. */
  requestPath?: string;
  /** The API's own message (`message`, or `errors[].message` of the §5 envelope), redacted. */
  apiMessage?: string;
  /** The parsed response body (redacted copy), when there was one. */
  body?: unknown;
  /** How many attempts were made (0 when nothing was sent). */
  attempts: number;
}

/** An operation failed: the API answered an error, was unreachable, or answered nonsense. Keeps every field given. */
export class ApiError extends CdnstreamError implements ApiErrorFields {
  override name = "ApiError";
  declare readonly status: number | undefined;
  declare readonly operation: OperationRef;
  declare readonly requestPath?: string;
  declare readonly apiMessage?: string;
  declare readonly body?: unknown;
  declare readonly attempts: number;

  constructor(message: string, fields: ApiErrorFields, options?: { cause?: unknown }) {
    super(message, options);
    Object.assign(this, fields);
  }

  /** A plain summary for logs and JSON output (already redacted). */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, message: this.message };
  }
}

/** 401: the key is missing or invalid (§5). */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}

/** 403: the key is valid but the account may not do this (restriction, missing plan or add-on). */
export class PermissionDeniedError extends ApiError {
  override name = "PermissionDeniedError";
}

/** 404: the object (or the path) does not exist in this account. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}

/** One rule a request broke. */
export interface ValidationIssue {
  /** Dotted field path, e.g. `maxDurationS` or `domainlock.list`; empty for the whole body. */
  field: string;
  /** The rule, e.g. `must be 1 to 3600 seconds (§4.2)`. */
  rule: string;
}

/**
 * The request breaks a rule: found before sending (`sent: false`, no request made) or reported
 * by the API (400, 422, or `result: "error"` on a 2xx).
 */
export class ValidationError extends ApiError {
  override name = "ValidationError";
  /** `false` when the client refused the request before sending it. */
  declare readonly sent: boolean;
  /** The client-side checks' first field at fault and rule broken, and every issue. */
  readonly field?: string;
  readonly rule?: string;
  readonly issues: ValidationIssue[];
  constructor(message: string, fields: ApiErrorFields & { sent: boolean; issues?: ValidationIssue[] }) {
    super(message, fields);
    this.issues = fields.issues ?? [];
    this.field = this.issues[0]?.field;
    this.rule = this.issues[0]?.rule;
  }
}

/** 429 after the retry budget ran out. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  /** The wait the API asked for in its last `Retry-After`, in milliseconds. */
  declare readonly retryAfterMs?: number;
  constructor(message: string, fields: ApiErrorFields & { retryAfterMs?: number }) {
    super(message, fields);
  }
}

/** 5xx after the retry budget ran out (or at once, for a request that must not be retried). */
export class ServerError extends ApiError {
  override name = "ServerError";
}

/** No usable response: refused, reset, DNS failure, timeout. `cause` is the transport error. */
export class ConnectionError extends ApiError {
  override name = "ConnectionError";
  /** The transport error code, e.g. `ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`. */
  declare readonly code?: string;
  constructor(message: string, fields: ApiErrorFields & { code?: string }, options: { cause?: unknown }) {
    super(message, fields, options);
  }
}

/** A 2xx whose body is not JSON or does not match the spec's shape. */
export class ResponseShapeError extends ApiError {
  override name = "ResponseShapeError";
  /** The raw response text, redacted. */
  declare readonly rawBody: string;
  /** Where the body departs from the expected shape. */
  declare readonly issues: ValidationIssue[];
  constructor(message: string, fields: ApiErrorFields & { rawBody: string; issues: ValidationIssue[] }) {
    super(message, fields);
  }
}

/** How the failed operation was retried: decides the advice about trying again. */
export type RetryKind = "retriable" | "connect-only";

/** Input of {@link createApiError}: what went wrong, with the secrets to scrub from it. */
export type ApiErrorInput = {
  operation: OperationRef;
  requestPath?: string;
  /** Attempts made; 0 when nothing was sent. */
  attempts: number;
  /** Values that must never appear in the error (the API key). */
  secrets: readonly string[];
  /** The operation's retry class. */
  retry?: RetryKind;
} & (
  | {
      kind: "response";
      status: number;
      body: unknown;
      rawBody: string;
      retryAfterMs?: number;
      /** Why retries stopped early, e.g. the Retry-After was beyond the wait budget. */
      stopReason?: string;
    }
  | { kind: "connection"; cause: unknown; origin: string }
  | { kind: "shape"; status: number; body?: unknown; rawBody: string; issues: ValidationIssue[] }
  | { kind: "invalid-request"; issues: ValidationIssue[] }
);

/** Codes of an answer that did not come in time (a connect timeout is a failure to reach the API). */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

const SET_KEY =
  "Set `pulumi config set --secret cdnstream:apiKey <key>` or CDNSTREAM_API_KEY (keys are made under Settings > API Keys).";

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
  "The key came from CDNSTREAM_API_KEY: set it to a valid key in the environment that runs pulumi (keys are made under Settings > API Keys).";
const ROTATED_ENV_KEY =
  "If the key was regenerated: put the new one in CDNSTREAM_API_KEY of every shell or CI job that runs pulumi for this stack; the stack's state does not hold a key taken from the environment, so nothing else changes.";

/** A 401's advice for where the key came from: a key from CDNSTREAM_API_KEY gets the environment's wording. */
export function adviceForKeySource<E>(err: E, source: "option" | "config" | "environment"): E {
  return source === "environment" ? withKeyAdvice(err, `${SET_ENV_KEY} ${ROTATED_ENV_KEY}`) : err;
}

/** What a repeat of a refused key says instead of the advice, within one run of a provider. */
export const KEY_REFUSED_AGAIN =
  "The same key was refused earlier in this run: the error of the first resource it refused says what to do.";

/** A 401's message with `advice` (e.g. {@link KEY_REFUSED_AGAIN}) for either wording above; others as they are. */
export function withKeyAdvice<E>(err: E, advice: string): E {
  if (!(err instanceof AuthenticationError)) return err;
  const given = [`${SET_KEY} ${ROTATED_KEY}`, `${SET_ENV_KEY} ${ROTATED_ENV_KEY}`].find((g) => err.message.includes(g));
  if (given) err.message = err.message.replace(given, advice);
  return err;
}

/** What to do about a refused key in a command that reads it only from CDNSTREAM_API_KEY. */
export const SET_ENV_KEY_ONLY =
  "Set CDNSTREAM_API_KEY to a valid key (keys are made under Settings > API Keys); this command reads no stack config.";

const NOT_RETRIED =
  "Not retried: this request is not idempotent (a timeshift create is never repeated automatically), so look for the object before running again.";

/** The one way errors are built: picks the class and writes the summary, the API's message and the action. */
export function createApiError(input: ApiErrorInput): ApiError {
  const { operation, requestPath, attempts, secrets } = input;
  const op = `${operation.method} ${operation.path}`;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  const at = (summary: string, detail: string | undefined, action: string) =>
    redactText(`${summary} on ${op}${tries}${detail ? `: ${detail.replace(/\.$/, "")}` : ""}. ${action}`, secrets);

  switch (input.kind) {
    case "invalid-request": {
      const detail = input.issues.map((i) => (i.field ? `\`${i.field}\` ${i.rule}` : i.rule)).join("; ");
      return new ValidationError(at("Invalid request", detail, "Nothing was sent; fix the value and run again."), {
        status: undefined,
        operation,
        requestPath,
        attempts: 0,
        sent: false,
        issues: input.issues,
      });
    }
    case "connection": {
      const cause = redactCause(input.cause, secrets);
      const code = (input.cause as { code?: unknown } | undefined)?.code;
      const codeText = typeof code === "string" ? code : undefined;
      const causeMessage = input.cause instanceof Error ? input.cause.message : String(input.cause);
      const timeout = codeText !== undefined && TIMEOUT_CODES.has(codeText);
      const action = timeout
        ? "Raise cdnstream:timeoutMs (CDNSTREAM_TIMEOUT_MS) or check the API's health."
        : "Check cdnstream:baseUrl (CDNSTREAM_BASE_URL) and the network.";
      const note = input.retry === "connect-only" && !isConnectPhase(codeText) ? ` ${NOT_RETRIED}` : "";
      const summary = timeout ? "No response in time" : "Could not reach the API";
      return new ConnectionError(
        at(`${summary}${codeText ? ` (${codeText})` : ""} at ${input.origin}`, causeMessage, action + note),
        { status: undefined, operation, requestPath, attempts, code: codeText },
        { cause },
      );
    }
    case "shape": {
      const detail = input.issues
        .slice(0, 5)
        .map((i) => `${i.field || "(body)"}: ${i.rule}`)
        .join("; ");
      return new ResponseShapeError(
        at(
          `Unexpected response (${input.status})`,
          detail,
          "The client cannot use this answer; the raw body is on err.rawBody. Report it if the API changed.",
        ),
        {
          status: input.status,
          operation,
          requestPath,
          attempts,
          body: redactValue(input.body, secrets),
          rawBody: redactText(input.rawBody, secrets),
          issues: redactValue(input.issues, secrets),
        },
      );
    }
    case "response":
      return responseError(input, at);
  }
}

function responseError(
  input: Extract<ApiErrorInput, { kind: "response" }>,
  at: (summary: string, detail: string | undefined, action: string) => string,
): ApiError {
  const { status, secrets } = input;
  const apiMessage = extractMessage(input.body, input.rawBody);
  const fields: ApiErrorFields = {
    status,
    operation: input.operation,
    requestPath: input.requestPath,
    attempts: input.attempts,
    apiMessage: apiMessage === undefined ? undefined : redactText(apiMessage, secrets),
    body: redactValue(input.body ?? (input.rawBody || undefined), secrets),
  };
  const stop = input.stopReason ? ` (${input.stopReason})` : "";
  if (status === 401) {
    return new AuthenticationError(at("API key rejected (401)", apiMessage, `${SET_KEY} ${ROTATED_KEY}`), fields);
  }
  if (status === 403) {
    return new PermissionDeniedError(at("Permission denied (403)", apiMessage, permissionAdvice(apiMessage)), fields);
  }
  if (status === 404) {
    const where = input.requestPath && input.requestPath !== input.operation.path ? ` (${input.requestPath})` : "";
    return new NotFoundError(at(`Not found (404)${where}`, apiMessage, notFoundAdvice(input, apiMessage)), fields);
  }
  if (status === 400 || status === 422 || (status >= 200 && status < 300)) {
    return new ValidationError(
      at(
        `Rejected by the API (${status}${status < 300 ? ', result "error"' : ""})`,
        apiMessage,
        "Correct the value the message names and run again.",
      ),
      { ...fields, sent: true },
    );
  }
  if (status === 429) {
    // Every operation, a create included, is retried on a 429: the API processed nothing.
    const action =
      "Lower cdnstream:rps (CDNSTREAM_RPS) or cdnstream:maxConcurrency, or raise cdnstream:maxRetryWaitMs.";
    return new RateLimitError(at(`Rate limited (429)${stop}`, apiMessage, action), {
      ...fields,
      retryAfterMs: input.retryAfterMs,
    });
  }
  if (status >= 500) {
    const transient = status === 502 || status === 503 || status === 504;
    const action =
      input.retry === "connect-only"
        ? NOT_RETRIED
        : transient
          ? "The API is unavailable; try again later, or raise cdnstream:maxRetries / cdnstream:maxRetryWaitMs."
          : "The API failed on this request (not retried: a 500 usually repeats); try again later and report it if it persists.";
    return new ServerError(at(`Server error (${status})${stop}`, apiMessage, action), fields);
  }
  return new ApiError(
    at(`Request failed (${status})`, apiMessage, "Check the request against the API reference of this operation."),
    fields,
  );
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
function notFoundAdvice(input: Extract<ApiErrorInput, { kind: "response" }>, apiMessage: string | undefined): string {
  const apiAnswer = input.body !== null && typeof input.body === "object";
  const aboutPath =
    /no such path|not part of the api|unknown path|no route|route not found|cannot (get|post|put|patch|delete) /i;
  if (!apiAnswer || (apiMessage !== undefined && aboutPath.test(apiMessage))) {
    return "The API does not serve this path: check that cdnstream:baseUrl (CDNSTREAM_BASE_URL) is the API's address before /v2, and that this API version offers the operation.";
  }
  const objects = addressed(input.operation.path, input.requestPath);
  if (input.operation.method === "GET") {
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

/** The API's own words: `message`, or the §5 envelope's `errors[].message`, or a text body. */
function extractMessage(body: unknown, rawBody: string): string | undefined {
  if (body && typeof body === "object") {
    const b = body as { message?: unknown; errors?: unknown };
    if (typeof b.message === "string" && b.message) return b.message;
    if (Array.isArray(b.errors)) {
      const messages = b.errors
        .map((e) => (e && typeof e === "object" ? (e as { message?: unknown }).message : e))
        .filter((m): m is string => typeof m === "string" && m.length > 0);
      if (messages.length) return messages.join("; ");
    }
    return undefined;
  }
  const text = rawBody.trim();
  return text ? (text.length > 200 ? `${text.slice(0, 200)}...` : text) : undefined;
}

/** Transport codes raised before any request byte is written (the connection never opened). */
const CONNECT_PHASE_CODES = new Set([
  "ECONNREFUSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** Whether a transport error code proves nothing was sent. */
export function isConnectPhase(code: string | undefined): boolean {
  return code !== undefined && CONNECT_PHASE_CODES.has(code);
}
