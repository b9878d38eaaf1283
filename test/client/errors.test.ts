/** Error mapping: one class per meaning, messages that say what happened and what to do, and no key anywhere. */
import { inspect } from "node:util";
import {
  ApiError,
  AuthenticationError,
  CdnstreamClient,
  ConfigError,
  ConnectionError,
  createApiError,
  dns,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  streams,
  ValidationError,
  zones,
  backups,
} from "../../client";
import { expectNoKey, JSON_HEADERS, KEY, mockClient, rejection } from "./helpers";

const authEnvelope = (message: string) => ({ status: "error", errors: [{ code: 401, message }] });

describe("error mapping", () => {
  it("401 (§5 envelope): AuthenticationError with the API's message and how to set the key", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: "/v2/dns", method: "GET" })
      .reply(401, authEnvelope("The API key is invalid"), { headers: JSON_HEADERS });
    const err = (await rejection(dns.listDnsZones(client))) as AuthenticationError;
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({
      status: 401,
      operation: { method: "GET", path: "/v2/dns" },
      apiMessage: "The API key is invalid",
      attempts: 1,
    });
    expect(err.message).toBe(
      "API key rejected (401) on GET /v2/dns: The API key is invalid. Set `pulumi config set --secret cdnstream:apiKey <key>` or CDNSTREAM_API_KEY (keys are made under Settings > API Keys). " +
        "If you have just set a regenerated key: `pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` send the old one, which the stack's state recorded at the last `pulumi up` while it was stack config. " +
        "Run them with `--run-program` (`pulumi refresh --run-program`, `pulumi preview --refresh --run-program`, `pulumi destroy --run-program`); once a refresh or an up has run the program, the state holds the new key.",
    );
  });

  it("states facts only: what to do is the caller's advice, after them", async () => {
    const { pool, client } = mockClient({ advise: undefined });
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(401, authEnvelope("bad key"), { headers: JSON_HEADERS });
    const bare = (await rejection(dns.listDnsZones(client))) as AuthenticationError;
    expect(bare.message).toBe("API key rejected (401) on GET /v2/dns: bad key.");
    expect(bare.apiKeySource).toBe("option");
    const advised = createApiError({
      kind: "response",
      status: 404,
      body: "<html>",
      rawBody: "<html>",
      operation: { method: "GET", path: "/v2/dns" },
      attempts: 1,
      secrets: [],
      advise: (error) => `Advice for ${error.name}.`,
    });
    expect(advised.message).toBe("Not found (404) on GET /v2/dns: <html>. Advice for NotFoundError.");
  });

  it("403 from the §5 envelope or a missing plan/add-on: PermissionDeniedError", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: "/v2/dns", method: "GET" })
      .reply(
        403,
        { status: "error", errors: [{ code: 403, message: "Account lacks permission" }] },
        { headers: JSON_HEADERS },
      );
    pool
      .intercept({ path: "/v2/cb", method: "GET" })
      .reply(403, { result: "error", message: "Ad insertion requires the custom plan" }, { headers: JSON_HEADERS });
    const a = await rejection(dns.listDnsZones(client));
    const b = await rejection(backups.listBackups(client));
    for (const e of [a, b]) expect(e).toBeInstanceOf(PermissionDeniedError);
    // The advice follows what the API said: a restriction is not sent after a plan, and vice versa.
    expect(a.message).toBe(
      "Permission denied (403) on GET /v2/dns: Account lacks permission. The key is valid, but the account is restricted from this operation: check the account's restrictions in the dashboard, or use the key of an account that may do this.",
    );
    expect(b.message).toBe(
      "Permission denied (403) on GET /v2/cb: Ad insertion requires the custom plan. The key is valid, but the account lacks the custom plan: add it to the account in the dashboard, then run again.",
    );
    expect((b as ApiError).apiMessage).toBe("Ad insertion requires the custom plan");
  });

  it("404: NotFoundError naming the template and the concrete path", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: "/v2/cb/99", method: "GET" })
      .reply(404, { result: "error", message: "Backup 99 not found" }, { headers: JSON_HEADERS });
    const err = await rejection(backups.getBackup(client, 99));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe(
      "Not found (404) (/v2/cb/99) on GET /v2/cb/{backupid}: Backup 99 not found. Nothing in this account has this id (backup 99): if the stack recorded the object, it was deleted outside the stack; check the id in the dashboard.",
    );
  });

  it("422 and result:error on a 200 are ValidationErrors reported by the API (sent: true)", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: "/v2/zones/http/push/1", method: "POST" })
      .reply(422, { result: "error", message: "cnames: invalid host" }, { headers: JSON_HEADERS });
    pool
      .intercept({ path: "/v2/zones/http/push/2", method: "POST" })
      .reply(200, { result: "error", message: "webhook unreachable" }, { headers: JSON_HEADERS });
    const a = (await rejection(zones.updatePushZone(client, 1, { cnames: "x" }))) as ValidationError;
    const b = (await rejection(
      zones.updatePushZone(client, 2, { webhook: "https://hooks.example.com/x" }),
    )) as ValidationError;
    expect(a).toBeInstanceOf(ValidationError);
    expect(a).toMatchObject({ status: 422, sent: true, apiMessage: "cnames: invalid host" });
    expect(a.message).toMatch(
      /^Rejected by the API \(422\) on POST \/v2\/zones\/http\/push\/\{zoneid\}: cnames: invalid host\. Correct/,
    );
    expect(b).toMatchObject({ status: 200, sent: true, apiMessage: "webhook unreachable" });
    expect(b.message).toMatch(/^Rejected by the API \(200, result "error"\)/);
  });

  it("a non-JSON error body becomes the API message", async () => {
    const { pool, client } = mockClient({ maxRetries: 0 });
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(502, "<html>Bad Gateway</html>");
    const err = (await rejection(dns.listDnsZones(client))) as ServerError;
    expect(err).toBeInstanceOf(ServerError);
    expect(err.apiMessage).toBe("<html>Bad Gateway</html>");
  });

  it("a 2xx that is not JSON, or not the documented shape, is a ResponseShapeError keeping the raw body", async () => {
    const { pool, client } = mockClient();
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(200, "OK");
    pool
      .intercept({ path: "/v2/cb", method: "GET" })
      .reply(200, { result: "success", backups: [{ id: "seven" }] }, { headers: JSON_HEADERS });
    const a = (await rejection(dns.listDnsZones(client))) as ResponseShapeError;
    expect(a).toBeInstanceOf(ResponseShapeError);
    expect(a.rawBody).toBe("OK");
    const b = (await rejection(backups.listBackups(client))) as ResponseShapeError;
    expect(b.rawBody).toBe(JSON.stringify({ result: "success", backups: [{ id: "seven" }] }));
    expect(b.issues[0]).toMatchObject({ field: "backups.0.id" });
    expect(b.message).toMatch(
      /^Unexpected response \(200\) on GET \/v2\/cb: backups\.0\.id: .*raw body is on err\.rawBody/,
    );
  });

  it("the factory builds every kind", () => {
    const base = { operation: { method: "GET", path: "/v2/dns" }, attempts: 1, secrets: [KEY] };
    expect(createApiError({ ...base, kind: "response", status: 429, body: {}, rawBody: "{}" })).toBeInstanceOf(
      RateLimitError,
    );
    expect(createApiError({ ...base, kind: "response", status: 504, body: {}, rawBody: "{}" })).toBeInstanceOf(
      ServerError,
    );
    expect(createApiError({ ...base, kind: "connection", cause: new Error("x"), origin: "http://h" })).toBeInstanceOf(
      ConnectionError,
    );
    expect(createApiError({ ...base, kind: "shape", status: 200, rawBody: "", issues: [] })).toBeInstanceOf(
      ResponseShapeError,
    );
    const v = createApiError({
      ...base,
      kind: "invalid-request",
      issues: [{ field: "r", rule: "must be a range" }],
    }) as ValidationError;
    expect(v).toMatchObject({ sent: false, field: "r", rule: "must be a range", attempts: 0, status: undefined });
  });
});

describe("the API key never leaks", () => {
  type Case = [string, (pool: ReturnType<typeof mockClient>["pool"]) => void];
  const dnsPath = { path: "/v2/dns", method: "GET" as const };
  const cases: Case[] = [
    ["401", (p) => p.intercept(dnsPath).reply(401, authEnvelope(`Invalid key ${KEY}`), { headers: JSON_HEADERS })],
    [
      "403",
      (p) =>
        p
          .intercept(dnsPath)
          .reply(
            403,
            { status: "error", errors: [{ code: 403, message: `no permission for ${KEY}` }] },
            { headers: JSON_HEADERS },
          ),
    ],
    [
      "404",
      (p) =>
        p
          .intercept(dnsPath)
          .reply(404, { result: "error", message: `unknown path, key=${KEY}` }, { headers: JSON_HEADERS }),
    ],
    [
      "422",
      (p) =>
        p
          .intercept(dnsPath)
          .reply(422, { result: "error", message: "bad", echo: { "x-api-key": KEY } }, { headers: JSON_HEADERS }),
    ],
    [
      "429",
      (p) =>
        p
          .intercept(dnsPath)
          .reply(429, { result: "error", message: KEY }, { headers: { ...JSON_HEADERS, "retry-after": "0" } })
          .times(3),
    ],
    ["500 text", (p) => p.intercept(dnsPath).reply(500, `internal error for ${KEY}`)],
    [
      "503",
      (p) => p.intercept(dnsPath).reply(503, { result: "error", message: KEY }, { headers: JSON_HEADERS }).times(3),
    ],
    [
      "result:error",
      (p) => p.intercept(dnsPath).reply(200, { result: "error", message: `bad key ${KEY}` }, { headers: JSON_HEADERS }),
    ],
    [
      "shape",
      (p) => p.intercept(dnsPath).reply(200, { result: "success", domains: [{ id: KEY }] }, { headers: JSON_HEADERS }),
    ],
    ["not json", (p) => p.intercept(dnsPath).reply(200, `hello ${KEY}`)],
    [
      "connection",
      (p) =>
        p
          .intercept(dnsPath)
          .replyWithError(Object.assign(new Error(`reset while sending ${KEY}`), { code: "ECONNRESET" }))
          .times(3),
    ],
    [
      "timeout",
      (p) =>
        p
          .intercept(dnsPath)
          .replyWithError(Object.assign(new Error("Headers Timeout Error"), { code: "UND_ERR_HEADERS_TIMEOUT" }))
          .times(3),
    ],
  ];

  it.each(cases)("%s", async (_, arrange) => {
    const { pool, client } = mockClient({ maxRetries: 2 });
    arrange(pool);
    const err = await rejection(dns.listDnsZones(client));
    expect(err).toBeInstanceOf(ApiError);
    expectNoKey(err);
  });

  it("client-side validation errors", async () => {
    const { client } = mockClient();
    const err = await rejection(streams.setStreamStatus(client, "push", "..", { disabled: 1 }));
    expect(err).toBeInstanceOf(ValidationError);
    expectNoKey(err);
  });

  it("the client, its settings and config errors", () => {
    const { client } = mockClient();
    expectNoKey(client);
    expectNoKey(client.settings);
    expect(inspect(client, { showHidden: true, depth: 10 })).not.toContain(KEY);
    try {
      new CdnstreamClient({ apiKey: KEY, env: {} });
      throw new Error("expected a ConfigError");
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expectNoKey(e);
    }
  });

  it("the request itself is not mutated: the key is still sent", async () => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ ...dnsPath, headers: { "x-api-key": KEY } })
      .reply(401, authEnvelope("nope"), { headers: JSON_HEADERS });
    await rejection(dns.listDnsZones(client));
    expect(calls()[0]!.headers).toMatchObject({ "x-api-key": KEY });
  });
});
