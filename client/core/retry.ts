/**
 * The retry layer (docs/design.md, "Rate limits, retry safety"). Not undici's RetryAgent: it
 * decides by method alone (we retry POST for every §4 write but one), has no cap on the total
 * wait, drops the final error response's body, and has no jitter.
 *
 * `retriable` operations retry on {@link RETRY_STATUSES} and {@link RETRY_ERROR_CODES};
 * `connect-only` ones (§4.19 timeshift create, unknown non-GET calls of the CLI) only when no
 * byte was sent (the connection never opened) or on a 429. A `Retry-After` replaces the backoff
 * step, even beyond `retryMaxDelayMs`; no wait pushes a call's total past `maxRetryWaitMs`.
 */
import type { ClientSettings } from "./config";
import { isConnectPhase, type RetryKind } from "./errors";

/** Numbers that shape retrying (config.ts). */
export type RetryPolicy = Pick<
  ClientSettings,
  "maxRetries" | "retryBaseDelayMs" | "retryMaxDelayMs" | "maxRetryWaitMs"
>;

/** HTTP statuses worth another attempt. 500 is not among them: it usually means the request itself breaks the server. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Transport codes worth another attempt of a `retriable` operation (resets and timeouts). */
export const RETRY_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** What one attempt produced. */
export type AttemptOutcome =
  | { kind: "response"; status: number; headers: Record<string, string | string[] | undefined> }
  | { kind: "error"; error: unknown };

/** The retry decision for one outcome. */
export type RetryDecision =
  { retry: true; delayMs: number; retryAfterMs?: number } | { retry: false; reason?: string; retryAfterMs?: number };

/** Parses `Retry-After` (delta-seconds or an HTTP date) to milliseconds, 0 for a past date. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The capped, jittered backoff before retry number `retry` (1-based). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.retryMaxDelayMs, policy.retryBaseDelayMs * 2 ** (retry - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

/** Whether to try again after attempt number `attempt` (1-based), given the total already waited. */
export function decideRetry(
  kind: RetryKind,
  outcome: AttemptOutcome,
  attempt: number,
  waitedMs: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
  now: number = Date.now(),
): RetryDecision {
  let retryAfterMs: number | undefined;
  if (outcome.kind === "response") {
    // A 429 processed nothing, so even a connect-only write may be sent again.
    const refused = outcome.status === 429;
    if (!RETRY_STATUSES.has(outcome.status) || (kind !== "retriable" && !refused)) return { retry: false };
    retryAfterMs = parseRetryAfter(outcome.headers["retry-after"], now);
  } else {
    const code = errorCode(outcome.error);
    const allowed = isConnectPhase(code) || (kind === "retriable" && code !== undefined && RETRY_ERROR_CODES.has(code));
    if (!allowed) return { retry: false };
  }
  if (attempt > policy.maxRetries) return { retry: false, retryAfterMs };
  const delayMs =
    retryAfterMs !== undefined
      ? retryAfterMs + Math.round(random() * Math.min(policy.retryBaseDelayMs, 1000))
      : backoffDelay(attempt, policy, random);
  if (waitedMs + delayMs > policy.maxRetryWaitMs) {
    const reason =
      retryAfterMs !== undefined
        ? `the API asked to wait ${Math.ceil(retryAfterMs / 1000)} s, beyond the retry wait budget of ${policy.maxRetryWaitMs} ms`
        : `retry wait budget of ${policy.maxRetryWaitMs} ms used up`;
    return { retry: false, reason, retryAfterMs };
  }
  return { retry: true, delayMs, retryAfterMs };
}

/** The `code` of a transport error, looking through `cause` chains. */
export function errorCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth >= 5) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code !== "UND_ERR_REQ_RETRY") return code;
  return errorCode((error as { cause?: unknown }).cause, depth + 1);
}

/** Hooks the retry loop needs; injectable so tests run without real waiting. */
export interface RetryDeps {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /** Told before each wait, e.g. to pause the shared rate gate on a 429. */
  onRetry?: (info: { attempt: number; delayMs: number; outcome: AttemptOutcome; retryAfterMs?: number }) => void;
}

/** The final outcome of {@link withRetries}: the last attempt's result, attempts made and why it stopped. */
export interface RetryResult<T> {
  value?: T;
  error?: unknown;
  attempts: number;
  retryAfterMs?: number;
  stopReason?: string;
}

/** Runs `attemptFn` until it succeeds or the policy says stop; a thrown error is an outcome of `kind: "error"`. */
export async function withRetries<T extends Omit<Extract<AttemptOutcome, { kind: "response" }>, "kind">>(
  kind: RetryKind,
  policy: RetryPolicy,
  deps: RetryDeps,
  attemptFn: () => Promise<T>,
  signal?: AbortSignal,
): Promise<RetryResult<T>> {
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    let value: T | undefined;
    let error: unknown;
    let outcome: AttemptOutcome;
    try {
      value = await attemptFn();
      outcome = { kind: "response", status: value.status, headers: value.headers };
    } catch (e) {
      error = e;
      outcome = { kind: "error", error: e };
    }
    const decision = signal?.aborted
      ? ({ retry: false } as RetryDecision)
      : decideRetry(kind, outcome, attempt, waited, policy, deps.random);
    if (!decision.retry) {
      return { value, error, attempts: attempt, retryAfterMs: decision.retryAfterMs, stopReason: decision.reason };
    }
    deps.onRetry?.({ attempt, delayMs: decision.delayMs, outcome, retryAfterMs: decision.retryAfterMs });
    await deps.sleep(decision.delayMs, signal);
    waited += decision.delayMs;
  }
}
