/**
 * Every failure the client raises, one class per meaning, built by {@link createApiError} so messages read
 * alike: a summary, the operation, the API's message, then the caller's advice ({@link Advise}), if any.
 * The client states facts only. Bodies, messages and causes are redacted copies.
 */
import { redactCause, redactText, redactValue } from "./redact";

/** The method and path template an error happened on (`GET /v2/cb/{backupid}`; the literal path of a generic call). */
export interface OperationRef {
  method: string;
  path: string;
}

/** Where the client took its API key from (resolveConfig decides; a 401 carries it). */
export type ApiKeySource = "option" | "config" | "environment";

/** Base class of everything this client throws. */
export class CdnstreamError extends Error {
  override name = "CdnstreamError";
}

/** Configuration is missing or malformed (no API key, a non-numeric retry setting...). */
export class ConfigError extends CdnstreamError {
  override name = "ConfigError";
  /** The setting that was given nowhere (`apiKey`, `baseUrl`); undefined for a malformed value. */
  readonly setting?: string;
  constructor(message: string, fields: { setting?: string } = {}) {
    super(message);
    this.setting = fields.setting;
  }
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
  /** How the operation is retried: a `connect-only` one is never sent twice. */
  retry?: RetryKind;
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
  declare readonly retry?: RetryKind;

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
  /** Where the refused key came from: the advice names that place. */
  declare readonly apiKeySource?: ApiKeySource;
  constructor(message: string, fields: ApiErrorFields & { apiKeySource?: ApiKeySource }) {
    super(message, fields);
  }
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
  /** Where the client's key came from (a 401 carries it). */
  apiKeySource?: ApiKeySource;
  /** The caller's advice, after the facts. */
  advise?: Advise;
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

/** Whether a transport error code means the answer did not come in time. */
export const isTimeout = (code: string | undefined): boolean => code !== undefined && TIMEOUT_CODES.has(code);

/**
 * What to do about a failure, worded by the layer that knows who reads it (kinds/common/advice.ts);
 * the client's messages state facts only, and this text follows them.
 */
export type Advise = (error: CdnstreamError) => string | undefined;

/** `error` with the caller's advice after its facts: the one place a message gains advice. */
export function advised<E extends CdnstreamError>(error: E, advise: Advise | undefined): E {
  const advice = advise?.(error);
  if (advice) error.message = `${error.message} ${advice}`;
  return error;
}

/** The one way errors are built: picks the class, writes the facts (summary, operation, the API's message), adds the caller's advice. */
export function createApiError(input: ApiErrorInput): ApiError {
  const { operation, requestPath, attempts, secrets, retry } = input;
  const op = `${operation.method} ${operation.path}`;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  const at = (summary: string, detail: string | undefined) =>
    redactText(`${summary} on ${op}${tries}${detail ? `: ${detail.replace(/\.$/, "")}` : ""}.`, secrets);
  return advised(factsOf(input, at, { operation, requestPath, attempts, retry }), input.advise);
}

/** The error of `input`'s meaning, its message the facts alone (`at` writes them, redacted). */
function factsOf(
  input: ApiErrorInput,
  at: (summary: string, detail: string | undefined) => string,
  known: Pick<ApiErrorFields, "operation" | "requestPath" | "attempts" | "retry">,
): ApiError {
  const { secrets } = input;
  switch (input.kind) {
    case "invalid-request": {
      const detail = input.issues.map((i) => (i.field ? `\`${i.field}\` ${i.rule}` : i.rule)).join("; ");
      return new ValidationError(at("Invalid request", detail), {
        ...known,
        status: undefined,
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
      const summary = isTimeout(codeText) ? "No response in time" : "Could not reach the API";
      return new ConnectionError(
        at(`${summary}${codeText ? ` (${codeText})` : ""} at ${input.origin}`, causeMessage),
        { ...known, status: undefined, code: codeText },
        { cause },
      );
    }
    case "shape": {
      const detail = input.issues
        .slice(0, 5)
        .map((i) => `${i.field || "(body)"}: ${i.rule}`)
        .join("; ");
      return new ResponseShapeError(at(`Unexpected response (${input.status})`, detail), {
        ...known,
        status: input.status,
        body: redactValue(input.body, secrets),
        rawBody: redactText(input.rawBody, secrets),
        issues: redactValue(input.issues, secrets),
      });
    }
    case "response": {
      const { status } = input;
      const apiMessage = extractMessage(input.body, input.rawBody);
      const fields: ApiErrorFields = {
        ...known,
        status,
        apiMessage: apiMessage === undefined ? undefined : redactText(apiMessage, secrets),
        body: redactValue(input.body ?? (input.rawBody || undefined), secrets),
      };
      const stop = input.stopReason ? ` (${input.stopReason})` : "";
      if (status === 401)
        return new AuthenticationError(at("API key rejected (401)", apiMessage), {
          ...fields,
          apiKeySource: input.apiKeySource,
        });
      if (status === 403) return new PermissionDeniedError(at("Permission denied (403)", apiMessage), fields);
      if (status === 404) {
        const where = input.requestPath && input.requestPath !== input.operation.path ? ` (${input.requestPath})` : "";
        return new NotFoundError(at(`Not found (404)${where}`, apiMessage), fields);
      }
      if (status === 400 || status === 422 || (status >= 200 && status < 300)) {
        const result = status < 300 ? ', result "error"' : "";
        return new ValidationError(at(`Rejected by the API (${status}${result})`, apiMessage), {
          ...fields,
          sent: true,
        });
      }
      if (status === 429)
        return new RateLimitError(at(`Rate limited (429)${stop}`, apiMessage), {
          ...fields,
          retryAfterMs: input.retryAfterMs,
        });
      if (status >= 500) return new ServerError(at(`Server error (${status})${stop}`, apiMessage), fields);
      return new ApiError(at(`Request failed (${status})`, apiMessage), fields);
    }
  }
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
