/**
 * The retry layer. Why not undici's RetryAgent / retry interceptor: its RetryHandler keys retries
 * on the method alone (we retry POST for every §4 write but one), has no cap on the total wait,
 * throws away the final error response body, and keeps no jitter.
 *
 * Policy (docs/design.md, "Rate limits, retry safety"):
 * - `retriable` operations (GET, the read-only POSTs §4.7/§4.8, and every state-setting POST
 *   except §4.19) retry on 429, 502, 503, 504, connection resets and timeouts.
 * - `connect-only` operations (§4.19 timeshift create; unknown non-GET calls of the CLI) retry
 *   only when the connection never opened (refused, connect timeout, DNS try-again,
 *   unreachable), so no byte of the request was written, or on a 429, a refusal that
 *   processed nothing. They also wait longer for an answer (`unretriedTimeoutMs`).
 * - Backoff: `min(retryMaxDelayMs, retryBaseDelayMs * 2^(n-1))`, then equal jitter (half fixed,
 *   half random). A `Retry-After` (seconds or HTTP date) replaces the backoff step, plus a jitter
 *   of at most `retryBaseDelayMs`, even when longer than `retryMaxDelayMs`.
 * - Stops after `maxRetries` retries, or when the next wait would push the total wait of the
 *   call past `maxRetryWaitMs`.
 */
import { isConnectPhase, type RetryKind } from "./errors";

/** Numbers that shape retrying (config.ts). */
export interface RetryPolicy {
  maxRetries: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  maxRetryWaitMs: number;
}

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
    // A 429 is a refusal: the API turned the request away unprocessed, so even a write that is
    // otherwise never retried can be sent again once the wait is over.
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
export function errorCode(error: unknown): string | undefined {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_REQ_RETRY") return code;
  }
  return undefined;
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
