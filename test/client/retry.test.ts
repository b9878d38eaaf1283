/** The retry layer: which outcomes retry, how long it waits, and what it never repeats. */
import {
  ConnectionError,
  dns,
  RateLimitError,
  ServerError,
  streams,
  zones,
  adManager,
  ValidationError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ApiError,
} from "../../client";
import { backoffDelay, decideRetry, parseRetryAfter, type RetryPolicy } from "../../client/core/retry";
import { JSON_HEADERS, mockClient, ok, rejection } from "./helpers";

const policy: RetryPolicy = { maxRetries: 4, retryBaseDelayMs: 100, retryMaxDelayMs: 1000, maxRetryWaitMs: 10_000 };

function codeError(code: string): Error {
  return Object.assign(new Error(`simulated ${code}`), { code });
}

describe("decideRetry / backoff", () => {
  it("parses Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("doubles from the base, caps each step, and jitters within [step/2, step]", () => {
    const steps = [1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, policy, () => 0.999999));
    expect(steps).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(3, policy, () => 0)).toBe(200);
    for (let n = 1; n < 20; n++)
      expect(backoffDelay(n, policy, Math.random)).toBeLessThanOrEqual(policy.retryMaxDelayMs);
  });

  it("honours Retry-After beyond the step cap, but not beyond the total wait budget", () => {
    const r429 = (ra: string) => ({ kind: "response" as const, status: 429, headers: { "retry-after": ra } });
    expect(decideRetry("retriable", r429("5"), 1, 0, policy, () => 0)).toEqual({
      retry: true,
      delayMs: 5000,
      retryAfterMs: 5000,
    });
    const tooLong = decideRetry("retriable", r429("60"), 1, 0, policy, () => 0);
    expect(tooLong).toMatchObject({ retry: false, retryAfterMs: 60_000 });
    expect(tooLong.retry === false && tooLong.reason).toMatch(/asked to wait 60 s/);
  });

  it("stops after maxRetries", () => {
    const r503 = { kind: "response" as const, status: 503, headers: {} };
    expect(decideRetry("retriable", r503, 4, 0, policy).retry).toBe(true);
    expect(decideRetry("retriable", r503, 5, 0, policy).retry).toBe(false);
  });

  it("retries connect-only operations only when the connection never opened, or on a 429 refusal", () => {
    const err = (code: string) => ({ kind: "error" as const, error: codeError(code) });
    expect(decideRetry("connect-only", err("ECONNREFUSED"), 1, 0, policy).retry).toBe(true);
    expect(decideRetry("connect-only", err("UND_ERR_CONNECT_TIMEOUT"), 1, 0, policy).retry).toBe(true);
    for (const code of ["ECONNRESET", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "EPIPE"]) {
      expect(decideRetry("connect-only", err(code), 1, 0, policy).retry).toBe(false);
      expect(decideRetry("retriable", err(code), 1, 0, policy).retry).toBe(true);
    }
    for (const status of [500, 502, 503, 504]) {
      expect(decideRetry("connect-only", { kind: "response", status, headers: {} }, 1, 0, policy).retry).toBe(false);
    }
    // The API turned a 429 away unprocessed: sending it again cannot make a second object.
    const r429 = { kind: "response" as const, status: 429, headers: { "retry-after": "2" } };
    expect(decideRetry("connect-only", r429, 1, 0, policy, () => 0)).toEqual({
      retry: true,
      delayMs: 2000,
      retryAfterMs: 2000,
    });
  });
});

describe("client retries (MockAgent)", () => {
  it.each([429, 502, 503, 504])("rides out a %i on GET", async (status) => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path: "/v2/dns", method: "GET" })
      .reply(status, { result: "error", message: "busy" }, { headers: JSON_HEADERS })
      .times(2);
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(200, ok.dns, { headers: JSON_HEADERS });
    await expect(dns.listDnsZones(client)).resolves.toMatchObject({ nameservers: ["ns1.example.net"] });
    expect(calls()).toHaveLength(3);
  });

  it.each([429, 502, 503, 504])("retries a state-setting POST (§4.1) on %i", async (status) => {
    const { pool, client, calls } = mockClient();
    pool.intercept({ path: "/v2/zones/http/push/7", method: "POST" }).reply(status, "").times(1);
    pool.intercept({ path: "/v2/zones/http/push/7", method: "POST" }).reply(200, ok.zone, { headers: JSON_HEADERS });
    await zones.updatePushZone(client, 7, { cnames: "cdn.example.com" });
    expect(calls()).toHaveLength(2);
    expect(calls().map((c) => c.body)).toEqual([
      JSON.stringify({ cnames: "cdn.example.com" }),
      JSON.stringify({ cnames: "cdn.example.com" }),
    ]);
  });

  it("retries the read-only POST §4.7", async () => {
    const { pool, client, calls } = mockClient();
    pool.intercept({ path: "/v2/ad-manager/3/requests", method: "POST" }).reply(503, "").times(1);
    pool
      .intercept({ path: "/v2/ad-manager/3/requests", method: "POST" })
      .reply(200, ok.requests, { headers: JSON_HEADERS });
    await adManager.listAdPodRequests(client, 3, { page: 1 });
    expect(calls()).toHaveLength(2);
  });

  it("retries connection resets and timeouts on GET", async () => {
    const { pool, client, calls } = mockClient();
    pool.intercept({ path: "/v2/dns", method: "GET" }).replyWithError(codeError("ECONNRESET"));
    pool.intercept({ path: "/v2/dns", method: "GET" }).replyWithError(codeError("UND_ERR_HEADERS_TIMEOUT"));
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(200, ok.dns, { headers: JSON_HEADERS });
    await dns.listDnsZones(client);
    expect(calls()).toHaveLength(3);
  });

  it("honours Retry-After in seconds", async () => {
    const { pool, client, sleeps } = mockClient({ random: () => 0 });
    pool
      .intercept({ path: "/v2/dns", method: "GET" })
      .reply(429, { result: "error", message: "slow down" }, { headers: { ...JSON_HEADERS, "retry-after": "2" } });
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(200, ok.dns, { headers: JSON_HEADERS });
    await dns.listDnsZones(client);
    expect(sleeps).toEqual([2000]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const { pool, client, sleeps } = mockClient({ random: () => 0 });
    const at = new Date(Date.now() + 5000).toUTCString();
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(503, "", { headers: { "retry-after": at } });
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(200, ok.dns, { headers: JSON_HEADERS });
    await dns.listDnsZones(client);
    expect(sleeps).toHaveLength(1);
    // HTTP dates have one-second resolution.
    expect(sleeps[0]).toBeGreaterThan(3000);
    expect(sleeps[0]).toBeLessThanOrEqual(5000);
  });

  it("caps backoff steps and stops after maxRetries with the last error", async () => {
    const { pool, client, sleeps, calls } = mockClient({
      random: () => 0.999,
      maxRetries: 5,
      retryBaseDelayMs: 10,
      retryMaxDelayMs: 40,
    });
    pool
      .intercept({ path: "/v2/dns", method: "GET" })
      .reply(502, { result: "error", message: "bad gateway" }, { headers: JSON_HEADERS })
      .times(6);
    const err = await rejection(dns.listDnsZones(client));
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message).toMatch(/^Server error \(502\) on GET \/v2\/dns after 6 attempts: bad gateway\./);
    expect(calls()).toHaveLength(6);
    expect(sleeps).toEqual([10, 20, 40, 40, 40]);
  });

  it("stops when the total wait budget would be exceeded", async () => {
    const { pool, client, calls } = mockClient({ maxRetryWaitMs: 1500 });
    pool
      .intercept({ path: "/v2/dns", method: "GET" })
      .reply(429, { result: "error", message: "rate" }, { headers: { ...JSON_HEADERS, "retry-after": "1" } })
      .times(2);
    const err = await rejection(dns.listDnsZones(client));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(1000);
    expect(err.message).toMatch(/beyond the retry wait budget of 1500 ms/);
    expect(calls()).toHaveLength(2);
  });

  it("never retries §4.19 timeshift create after it may have reached the server", async () => {
    for (const fault of ["500", "502", "503", "504", "ECONNRESET", "UND_ERR_HEADERS_TIMEOUT"]) {
      const { pool, client, calls } = mockClient();
      const scope = pool.intercept({ path: "/v2/streams/timeshift/new", method: "POST" });
      if (/^\d+$/.test(fault))
        scope.reply(Number(fault), { result: "error", message: "unavailable" }, { headers: JSON_HEADERS });
      else scope.replyWithError(codeError(fault));
      pool
        .intercept({ path: "/v2/streams/timeshift/new", method: "POST" })
        .reply(200, ok.stream, { headers: JSON_HEADERS });
      const err = await rejection(streams.createTimeshiftStream(client, { name: "delayed", timeshift: 30 }));
      expect(err).toBeInstanceOf(ApiError);
      expect(err.message).toMatch(/Not retried: this request is not idempotent/);
      expect(calls()).toHaveLength(1);
    }
  });

  it("retries §4.19 when the connection was refused (nothing was sent)", async () => {
    const { pool, client, calls } = mockClient();
    pool.intercept({ path: "/v2/streams/timeshift/new", method: "POST" }).replyWithError(codeError("ECONNREFUSED"));
    pool
      .intercept({ path: "/v2/streams/timeshift/new", method: "POST" })
      .reply(200, ok.stream, { headers: JSON_HEADERS });
    await streams.createTimeshiftStream(client, { name: "delayed" });
    expect(calls()).toHaveLength(2);
  });

  it.each([
    [400, ValidationError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [422, ValidationError],
    [500, ServerError],
    [409, ApiError],
  ])("does not retry %i", async (status, type) => {
    const { pool, client, calls, sleeps } = mockClient();
    pool
      .intercept({ path: "/v2/dns", method: "GET" })
      .reply(status, { result: "error", message: "no" }, { headers: JSON_HEADERS })
      .times(2);
    const err = await rejection(dns.listDnsZones(client));
    expect(err).toBeInstanceOf(type);
    expect(calls()).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("gives a ConnectionError keeping its cause when the API stays unreachable", async () => {
    const { pool, client, calls } = mockClient({ maxRetries: 2 });
    pool.intercept({ path: "/v2/dns", method: "GET" }).replyWithError(codeError("ECONNREFUSED")).times(3);
    const err = (await rejection(dns.listDnsZones(client))) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.code).toBe("ECONNREFUSED");
    expect((err.cause as Error).message).toBe("simulated ECONNREFUSED");
    expect(err.message).toMatch(
      /^Could not reach the API \(ECONNREFUSED\) at http:\/\/api\.cdnstream\.test on GET \/v2\/dns after 3 attempts: .*Check cdnstream:baseUrl/,
    );
    expect(calls()).toHaveLength(3);
  });

  it("allows maxRetries to be overridden per call", async () => {
    const { pool, client, calls } = mockClient();
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(503, "").times(2);
    await expect(dns.listDnsZones(client, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(calls()).toHaveLength(1);
  });
});

describe("cancellation", () => {
  it("an AbortSignal stops a call waiting between retries", async () => {
    const { pool, client, calls } = mockClient({
      sleep: (ms, signal) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
    });
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(503, "").times(3);
    const controller = new AbortController();
    const pending = dns.listDnsZones(client, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const err = await rejection(pending);
    expect(err.message).toBe("Request aborted on GET /v2/dns while waiting to retry: the caller's AbortSignal fired.");
    expect(calls()).toHaveLength(1);
  });
});
