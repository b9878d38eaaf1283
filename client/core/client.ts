/** The client: the undici pool, pacing, retries, validation, parsing, error mapping of the families' operations. */
import { setTimeout as delay } from "node:timers/promises";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { resolveConfig, type ClientSettings, type ConfigOptions } from "./config";
import {
  CdnstreamError,
  createApiError,
  type Advise,
  type OperationRef,
  type RetryKind,
  type ValidationIssue,
} from "./errors";
import { RateGate, Semaphore } from "./limiter";
import type { CallInput, CallOutput, Operation, RequestOptions } from "./operation";
import { buildPath, buildQuery, PathParamError } from "./path";

/** undici's `request`, called on a dispatcher (see {@link undiciParts}). */
type Dispatch = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/**
 * undici's Agent and its `request`, each from its own module: undici's index loads 110 modules
 * (about 68 ms, paid by each provider host), these two 25 (about 25 ms). The index is also what
 * adds `request` to every dispatcher's prototype, so the client calls it on the dispatcher. undici
 * is pinned (package.json); test/client/undici-agent.test.ts checks both are the index's. Loaded
 * with the first client, not with this module: a provider host that makes no request (every
 * preview's checks and diffs) never loads them.
 */
let loadedUndici: { Agent: typeof import("undici").Agent; dispatch: Dispatch } | undefined;
const undiciParts = () =>
  (loadedUndici ??= {
    /* eslint-disable @typescript-eslint/no-require-imports -- modules of undici's, by their paths (see above) */
    Agent: require("undici/lib/dispatcher/agent"),
    dispatch: require("undici/lib/api/api-request"),
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
import { redactUrl, type Secret } from "./redact";
import { parseResponse } from "./response-parser";
import { withRetries, type AttemptOutcome, type RetryDeps, type RetryResult } from "./retry";

/** Options of a {@link CdnstreamClient}: settings (see config.ts) plus injectable parts. */
export interface ClientOptions extends ConfigOptions {
  /** An undici dispatcher to use instead of the client's own Agent (tests pass a MockAgent); not closed by `close()`. */
  dispatcher?: Dispatcher;
  /** Debug lines (retries); never contain the key. */
  logger?: (line: string) => void;
  /** Replaces the wait between retries (tests). */
  sleep?: RetryDeps["sleep"];
  /** Replaces the jitter source, a function returning [0, 1) (tests). */
  random?: () => number;
  /** Overlapping reads of one path share one request (default `true`); `false` sends every read (benches, tests). */
  shareReads?: boolean;
  /**
   * A read answered (2xx) since this client's last write is answered again from that answer
   * (default `false`): a provider host's refresh reads each object once, as one snapshot.
   */
  reuseReads?: boolean;
}

/** A response of a generic call ({@link CdnstreamClient.raw}). */
export interface RawResponse {
  status: number;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

/** An answer as received: the body is parsed by each caller. */
interface Attempt {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A 2xx answer, with the attempts it took. */
type Sent = Attempt & { attempts: number };

/** The user agent of every request (the bench's read floor sends it too). */
export const USER_AGENT = `pulumi-cdnstream (node ${process.version})`;

/** The API client. One per provider configuration; share it, then `close()` it. */
export class CdnstreamClient {
  /** Resolved settings, without the key. */
  readonly settings: Readonly<Omit<ClientSettings, "apiKey">>;
  readonly #apiKey: Secret;
  readonly #origin: string;
  readonly #prefix: string;
  readonly #dispatcher: Dispatcher;
  readonly #dispatch: Dispatch;
  readonly #ownsDispatcher: boolean;
  readonly #semaphore: Semaphore;
  readonly #gate: RateGate;
  readonly #deps: RetryDeps;
  readonly #logger?: (line: string) => void;
  readonly #advise?: Advise;
  /** GET requests in flight, by path and per-call settings (see #joinRead). */
  readonly #readsInFlight = new Map<string, Promise<Sent>>();
  readonly #shareReads: boolean;
  /** Answers kept by {@link ClientOptions.reuseReads}, by the same key as reads in flight; emptied by a write. */
  readonly #readAnswers = new Map<string, Sent>();
  readonly #reuseReads: boolean;
  /** Counts the starts and ends of writes (non-GET requests), so reads on either side of one never share. */
  #writeEdges = 0;

  constructor(options: ClientOptions = {}) {
    const { apiKey, ...settings } = resolveConfig(options);
    this.settings = Object.freeze(settings);
    this.#apiKey = apiKey;
    const url = new URL(settings.baseUrl);
    this.#origin = url.origin;
    this.#prefix = url.pathname.replace(/\/+$/, "");
    this.#ownsDispatcher = options.dispatcher === undefined;
    const { Agent, dispatch } = undiciParts();
    this.#dispatch = dispatch;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        connections: settings.connections,
        pipelining: 1,
        keepAliveTimeout: settings.keepAliveTimeoutMs,
        connectTimeout: settings.connectTimeoutMs,
        headersTimeout: settings.headersTimeoutMs,
        bodyTimeout: settings.bodyTimeoutMs,
      });
    this.#semaphore = new Semaphore(settings.maxConcurrency);
    this.#gate = new RateGate(settings.rps);
    this.#logger = options.logger;
    this.#advise = options.advise;
    this.#shareReads = options.shareReads ?? true;
    this.#reuseReads = options.reuseReads ?? false;
    this.#deps = {
      sleep: options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal })),
      random: options.random ?? Math.random,
    };
  }

  /** Base URL (before `/v2`), without credentials. */
  get baseUrl(): string {
    return redactUrl(this.settings.baseUrl);
  }

  /** Runs an operation: validates the input (no request on failure), sends, retries, parses. */
  async call<O extends Operation>(op: O, input: CallInput<O>, options: RequestOptions = {}): Promise<CallOutput<O>> {
    const operation = { method: op.method, path: op.path };
    const issues: ValidationIssue[] = [];
    const params = validate(op.params, input.params ?? {}, issues) as Record<string, string | number> | undefined;
    const query = validate(op.query, input.query ?? {}, issues) as Record<string, unknown> | undefined;
    const body = op.body ? validate(op.body, input.body, issues) : undefined;
    let path = op.path;
    try {
      if (issues.length === 0) path = buildPath(op.path, params ?? {});
    } catch (e) {
      if (!(e instanceof PathParamError)) throw e;
      issues.push({ field: e.param, rule: e.rule });
    }
    if (issues.length > 0)
      throw createApiError({ kind: "invalid-request", operation, issues, attempts: 0, ...this.#errorContext() });

    const requestPath = path + buildQuery(query);
    const send = () =>
      this.#execute(operation, requestPath, op.body ? JSON.stringify(body) : undefined, op.retry, options);
    // A read joins the same read in flight (one request per object); one with its own signal
    // may be cancelled alone, so it goes on its own.
    const shared = this.#shareReads && op.method === "GET" && options.signal === undefined;
    const key = `${this.#writeEdges} ${requestPath} ${options.timeoutMs ?? ""} ${options.maxRetries ?? ""}`;
    const sent = await (shared ? this.#joinRead(key, send) : send());
    const answer = this.#parseSuccess(operation, requestPath, sent);
    const parsed = parseResponse(op.response, answer);
    if (!parsed.success) {
      throw createApiError({
        kind: "shape",
        operation,
        requestPath,
        status: sent.status,
        body: answer,
        rawBody: sent.text,
        issues: zodIssues(parsed.error),
        attempts: sent.attempts,
        ...this.#errorContext(),
      });
    }
    return parsed.data as CallOutput<O>;
  }

  /**
   * A generic call (the `cdnstream api` command): `path` is the literal path after the base URL,
   * with any query; `template` names the matching operation in errors. The body is not validated.
   */
  async raw(
    method: string,
    path: string,
    init: { body?: unknown; retry: RetryKind; template?: string },
    options: RequestOptions = {},
  ): Promise<RawResponse> {
    const operation = { method: method.toUpperCase(), path: init.template ?? path.replace(/\?.*$/, "") };
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const sent = await this.#execute(operation, path, body, init.retry, options);
    return { status: sent.status, body: this.#parseSuccess(operation, path, sent, true) };
  }

  /** Closes the pool (when the client created it); in-flight requests finish first. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /**
   * Reads of one path that overlap share one request (a failure too); each caller parses the body
   * itself. `#writeEdges` is in the key: which paths a write changes is not known (§4.11).
   */
  #joinRead(key: string, send: () => Promise<Sent>): Promise<Sent> {
    const answered = this.#readAnswers.get(key);
    if (answered) return Promise.resolve(answered);
    const inFlight = this.#readsInFlight.get(key);
    if (inFlight) return inFlight;
    const sent = send();
    this.#readsInFlight.set(key, sent);
    const done = () => void this.#readsInFlight.delete(key);
    const keep = (answer: Sent) => {
      // Kept only while no write has started since it was sent (the key holds the count).
      if (this.#reuseReads && answer.status >= 200 && answer.status < 300 && key.startsWith(`${this.#writeEdges} `)) {
        this.#readAnswers.set(key, answer);
      }
      done();
    };
    sent.then(keep, done);
    return sent;
  }

  /** What every error of this client is built with: the key to scrub, where it came from, the caller's advice. */
  #errorContext() {
    return { secrets: [this.#apiKey.reveal()], apiKeySource: this.settings.apiKeySource, advise: this.#advise };
  }

  /** Sends a request (with its retries); a write's start and end are counted for #joinRead. */
  async #execute(
    operation: OperationRef,
    requestPath: string,
    body: string | undefined,
    retry: RetryKind,
    options: RequestOptions,
  ): Promise<Sent> {
    const headers: Record<string, string> = {
      "x-api-key": this.#apiKey.reveal(),
      accept: "application/json",
      "user-agent": USER_AGENT,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    // A write that is never retried waits longer for its answer: abandoning it would not undo it.
    const unretried = retry === "connect-only" ? this.settings.unretriedTimeoutMs : 0;
    const headersTimeout = options.timeoutMs ?? Math.max(this.settings.headersTimeoutMs, unretried);
    const bodyTimeout = options.timeoutMs ?? Math.max(this.settings.bodyTimeoutMs, unretried);
    const policy =
      options.maxRetries === undefined ? this.settings : { ...this.settings, maxRetries: options.maxRetries };
    const path = this.#prefix + requestPath;

    let sleptOutPause = false;
    const attempt = async (): Promise<Attempt> => {
      const release = this.#semaphore.tryAcquire() ?? (await this.#semaphore.acquire());
      try {
        const paced = this.#gate.take(sleptOutPause);
        if (paced) await paced;
        sleptOutPause = false;
        const res = await this.#dispatch.call(this.#dispatcher, {
          origin: this.#origin,
          path,
          method: operation.method as Dispatcher.HttpMethod,
          headers,
          body,
          signal: options.signal,
          headersTimeout,
          bodyTimeout,
        });
        return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
      } finally {
        release();
      }
    };
    const deps: RetryDeps = {
      ...this.#deps,
      onRetry: ({ attempt: n, delayMs, outcome, retryAfterMs }) => {
        // A 429 slows the whole client, not just this call: the others would hit it too.
        if (outcome.kind === "response" && outcome.status === 429 && retryAfterMs !== undefined) {
          this.#gate.pause(retryAfterMs);
          sleptOutPause = true; // this call sleeps the Retry-After itself before its next attempt
        }
        this.#logger?.(
          `${operation.method} ${requestPath}: attempt ${n} got ${describeOutcome(outcome)}; retrying in ${delayMs} ms`,
        );
      },
    };
    const write = operation.method !== "GET";
    if (write) {
      this.#writeEdges++;
      this.#readAnswers.clear();
    }
    let result: RetryResult<Attempt>;
    try {
      result = await withRetries(retry, policy, deps, attempt, options.signal);
    } catch (e) {
      // Only an abort during a wait between attempts lands here.
      throw new CdnstreamError(
        `Request aborted on ${operation.method} ${operation.path} while waiting to retry: the caller's AbortSignal fired.`,
        { cause: e },
      );
    } finally {
      if (write) this.#writeEdges++;
    }
    // Built only for an error: a call that succeeds reads neither the key nor the context.
    const failed = () => ({ operation, requestPath, attempts: result.attempts, retry, ...this.#errorContext() });
    if (result.value === undefined) {
      if (options.signal?.aborted)
        throw new CdnstreamError(
          `Request aborted on ${operation.method} ${operation.path}: the caller's AbortSignal fired. Nothing to fix unless that was unintended.`,
          { cause: options.signal.reason },
        );
      throw createApiError({ ...failed(), kind: "connection", cause: result.error, origin: this.baseUrl });
    }
    const { status, text } = result.value;
    if (status < 200 || status >= 300) {
      throw createApiError({
        ...failed(),
        kind: "response",
        status,
        body: tryJson(text),
        rawBody: text,
        retryAfterMs: result.retryAfterMs,
        stopReason: result.stopReason,
      });
    }
    return { ...result.value, attempts: result.attempts };
  }

  /** JSON of a 2xx body; `result: "error"` becomes a ValidationError. Non-JSON is a shape error unless `allowText`. */
  #parseSuccess(operation: OperationRef, requestPath: string, { status, text, attempts }: Sent, allowText = false) {
    const json = tryJson(text);
    const answered = () => ({ operation, requestPath, status, rawBody: text, attempts, ...this.#errorContext() });
    if (json === undefined && !allowText) {
      throw createApiError({ ...answered(), kind: "shape", issues: [{ field: "", rule: "body is not JSON" }] });
    }
    if (json && typeof json === "object" && (json as { result?: unknown }).result === "error") {
      throw createApiError({ ...answered(), kind: "response", body: json });
    }
    return json === undefined ? text : json;
  }
}

function tryJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A request part's output (params, query or body), or undefined with its issues. */
function validate(schema: z.ZodType | undefined, value: unknown, issues: ValidationIssue[]): unknown {
  if (!schema) return value;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.push(...zodIssues(parsed.error));
  return undefined;
}

/** Zod issues as field + rule; an unknown key becomes one issue per key. */
export function zodIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    const field = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        field: field ? `${field}.${key}` : key,
        rule: "is not a field of this request; remove it",
      }));
    }
    const missing = issue.code === "invalid_type" && / received undefined$/.test(issue.message);
    return [{ field, rule: missing ? "is required" : issue.message }];
  });
}

function describeOutcome(outcome: AttemptOutcome): string {
  if (outcome.kind === "response") return `status ${outcome.status}`;
  const e = outcome.error as { code?: string; message?: string };
  return e?.code ?? e?.message ?? "connection error";
}
