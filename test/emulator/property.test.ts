/**
 * Property-based robustness: every route of the emulator's routing table, over real HTTP, with
 * random path ids, query strings, JSON and non-JSON bodies, content types, methods and keys.
 * Whatever arrives, the emulator answers below 500, every non-2xx carries a JSON message, no
 * exception escapes, and the API and the admin door still answer afterwards.
 *
 * Reproduce a failure with the seed it prints: PROPERTY_SEED=<seed> npx jest test/emulator/property.test.ts
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";
import fc from "fast-check";
import { request } from "undici";
import { routes } from "../../emulator/handlers";
import { Route } from "../../emulator/route";
import { KINDS } from "../../emulator";
import { harness, Harness } from "./helpers";

/** Fixed by default so runs repeat; override to explore. */
const SEED = Number(process.env.PROPERTY_SEED ?? 20250611);
/** Runs per route; the table has a few dozen routes, so this keeps the suite to seconds. */
const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 120);

// Jest gives each suite its own `process` object; listeners must go on the real one to hear
// what the emulator (running in this process) would otherwise crash with.
const realProcess = vm.runInThisContext("process") as NodeJS.Process;
const escaped: string[] = [];
/** Requests in flight: an escaped exception fails them at once (its request may never be answered). */
const inFlight = new Set<(e: Error) => void>();
const onEscape = (e: unknown) => {
  escaped.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
  for (const fail of inFlight) fail(new Error(`exception escaped the emulator: ${escaped.at(-1)}`));
};

let h: Harness;
/** The fixture's ids by kind, so requests get past lookups. */
const idsOf = new Map<string, string[]>();
/** Which kinds a path parameter can name; an unlisted parameter may name any. */
const PARAM_KINDS: Record<string, readonly string[]> = {
  zoneid: KINDS.filter((k) => k.endsWith("Zones") && k !== "dnsZones"),
  streamid: KINDS.filter((k) => k.endsWith("Streams")),
  pid: ["adManagerProjects"],
  cid: ["campaigns"],
  crid: ["creatives"],
  purgeId: ["purges"],
  backupid: ["backups"],
};

/** Ids likely to exist for `param` of `route`: of the kinds whose name words (push, vod, zones...) the path shares most. */
function likelyIds(route: Route, param: string): string[][] {
  const words = new Set(route.path.toLowerCase().split("/"));
  const kinds = (PARAM_KINDS[param] ?? KINDS).filter((k) => idsOf.get(k)?.length);
  const score = (k: string) => k.split(/(?=[A-Z])/).filter((w) => words.has(w.toLowerCase())).length;
  const best = Math.max(...kinds.map(score));
  return kinds.filter((k) => score(k) === best).map((k) => idsOf.get(k)!);
}

beforeAll(async () => {
  realProcess.on("uncaughtException", onEscape);
  realProcess.on("unhandledRejection", onEscape);
  h = await harness({ forbiddenKey: "forbidden-key-42" });
  const state = await h.state();
  for (const kind of KINDS) idsOf.set(kind, Object.keys(state[kind] ?? {}));
});

afterAll(async () => {
  realProcess.off("uncaughtException", onEscape);
  realProcess.off("unhandledRejection", onEscape);
  await h?.close();
});

// ---- vocabulary taken from the emulator itself -------------------------------------------------

/** Field and query names and string literals of the handler sources (real names, real enum values). */
const HANDLER_SOURCES = fs
  .readdirSync(path.join(__dirname, "../../emulator/handlers"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => fs.readFileSync(path.join(__dirname, "../../emulator/handlers", f), "utf8"))
  .join("\n");
const FIELD_NAMES = [
  ...new Set([...HANDLER_SOURCES.matchAll(/(?:^|[\s{,])"?([A-Za-z_][\w[\]]*)"?\s*:(?!:)/g)].map((m) => m[1])),
];
const LITERALS = [...new Set([...HANDLER_SOURCES.matchAll(/"([^"\\\n]{1,40})"/g)].map((m) => m[1]))];

// ---- arbitraries ---------------------------------------------------------------------------------

const dateTime = fc
  .record({
    y: fc.integer({ min: 0, max: 9999 }),
    mo: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
    h: fc.integer({ min: 0, max: 25 }),
  })
  .map(
    ({ y, mo, d, h }) =>
      `${String(y).padStart(4, "0")}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")} ${String(h).padStart(2, "0")}:00:00`,
  );
/** Range strings (`from - to`), valid and not: reversed, centuries long, impossible dates. */
const rangeString = fc.oneof(
  fc.tuple(dateTime, dateTime).map(([a, b]) => `${a} - ${b}`),
  fc.tuple(dateTime, dateTime).map(([a, b]) => `${a.slice(0, 10)} - ${b}`),
  fc.constant("2025-01-01 00:00:00 - 2025-01-02 00:00:00"),
);
const longString = fc
  .integer({ min: 1_000, max: 30_000 })
  .chain((n) => fc.constantFrom("a", "é", "🎥", ",", "%", " ").map((c) => c.repeat(n)));
const hugeDigits = fc.integer({ min: 16, max: 400 }).map((n) => "9".repeat(n));
const scalarString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...LITERALS) },
  { weight: 2, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme" }) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: hugeDigits },
  { weight: 1, arbitrary: rangeString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "\u0000",
      "__proto__",
      "constructor",
      "NaN",
      "Infinity",
      "-0",
      "1e400",
      "0x10",
      "1.5",
      "-1",
    ),
  },
);
const hugeNumber = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -(2 ** 53) - 2,
  5e-324,
  -0,
  0.5,
  2 ** 31,
  -(2 ** 31) - 1,
);
const jsonLeaf: fc.Arbitrary<unknown> = fc.oneof(
  scalarString,
  fc.integer(),
  hugeNumber,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  { weight: 1, arbitrary: longString },
);
const jsonAny: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: jsonLeaf },
    { weight: 1, arbitrary: fc.array(tie("v"), { maxLength: 5 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string()), tie("v"), { maxKeys: 4 }),
    },
  ),
})).v;
const bodyKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme" }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("__proto__", "constructor", "prototype", "", "domainlock[", "a[b][c]", "_METHOD"),
  },
);
/** A JSON object of real and random field names with values of any type. */
const jsonObject = fc.dictionary(bodyKey, jsonAny, { maxKeys: 8 }).map((o) => JSON.stringify(o));

/** Nesting around the 64-level limit, and deep enough to overflow any recursive walker. */
const deepJson = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 2, max: 100 }), fc.integer({ min: 1_000, max: 200_000 })),
    key: fc.constantFrom(...FIELD_NAMES),
    open: fc.constantFrom("[", '{"a":'),
  })
  .map(
    ({ depth, key, open }) =>
      `{${JSON.stringify(key)}:${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}}`,
  );

/** Bodies that are not a JSON object, or not JSON at all. */
const rawBody = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom(
    "[1,2]",
    "null",
    "42",
    '"text"',
    "true",
    "{",
    '{"a":',
    '{"a":1}}',
    "\uFEFF{}",
    "{'a':1}",
    '{"a":1e400}',
    '{"a":-}',
    "disabled=1&x=2",
    "\u0000",
  ),
  jsonObject.map((s) => s.slice(0, Math.max(1, s.length - 1))),
);

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/vnd.api+json",
      "application/jsonx",
      "text/plain",
      "text/json",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "",
      "application/json;;;",
      "*/*",
      "application/json, text/plain",
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/**
 * A valid request per operation, so generated requests also get past validation into the
 * handlers' logic: each run keeps, drops or replaces every field and adds random ones. Every
 * POST route of the table must have one (checked below); GETs without one get random queries only.
 */
const EXAMPLES: Record<string, { body?: Record<string, unknown>; query?: Record<string, string> }> = {
  "POST /v2/zones/http/push/{zoneid}": {
    body: { cnames: "cdn.example.com,*.media.example.org", profiles: [1, "2"], webhook: "https://hooks.example.com/t" },
  },
  "POST /v2/zones/vod/pull/{zoneid}/domainlock": {
    body: {
      enabled: "Y",
      policy: "N",
      list: "example.com",
      ips: "10.0.0.0/8,::1",
      noreferer: "N",
      active: "Y",
      mode: "S",
    },
  },
  "POST /v2/zones/http/settings/security/domainlock": {
    body: { enabled: "Y", policy: "Y", list: "a.example.com", ips: "192.0.2.1", noreferer: "Y", mode: "append" },
  },
  "POST /v2/streams/timeshift/{streamid}/status": { body: { disabled: 1 } },
  "POST /v2/streams/push/{streamid}/status": { body: { disabled: 0 } },
  "POST /v2/streams/timeshift/new": {
    body: {
      _METHOD: "PUT",
      name: "delayed",
      timeshift: 30,
      parent: 3001,
      codec: "h265",
      protocols: ["HLS", "DASH"],
      "domainlock[enabled]": "Y",
      "domainlock[list]": "example.com",
      "geoblock[list]": ["DE", "FR"],
      "ipaccess[ips]": "10.0.0.1",
      "ndvr[enabled]": "Y",
      "ndvr[retention]": 7,
      "record[server]": 2,
      "securetoken[session]": "0",
      "securetoken[timeout]": 60,
      "useragent[list]": "curl,wget",
    },
  },
  "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule": {
    body: { _METHOD: "PUT", type: "midroll", offset: 30, maxDurationS: 60, breakId: "b1", maxAds: 3, fillCeilingS: 10 },
  },
  "POST /v2/streams/pull/{streamid}/adinsertion/consumption": {
    body: { groupBy: "day", r: "2025-01-01 00:00:00 - 2025-01-08 00:00:00" },
  },
  "POST /v2/ad-manager/{pid}/campaigns/{cid}/archive": { body: {} },
  "POST /v2/ad-manager/{pid}/requests": {
    body: { from: "2025-01-01", to: "2025-12-31", page: 1, oses: ["ios"], categories: [1], content_ids: ["__none__"] },
  },
  "GET /v2/zones/http/pull": { query: { page: "2" } },
  "GET /v2/streams/push/{streamid}/adinsertion/tracking/reports": {
    query: {
      granularity: "60",
      r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00",
      crid: "cr-10452",
      client_ip: "192.0.2.1",
      country_geoname_id: "2921044",
    },
  },
  "GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks": {
    query: { page: "1", break_type: "mid-roll", fill_status: "full", r: "2020-01-01 00:00:00 - 2030-01-01 00:00:00" },
  },
};

/** `example` as is, with one field dropped, replaced or added, or with every field at risk. */
function mutated<T>(
  example: Record<string, T>,
  value: fc.Arbitrary<T>,
  key: fc.Arbitrary<string>,
): fc.Arbitrary<Record<string, T>> {
  const keys = Object.keys(example);
  const one = keys.length ? fc.constantFrom(...keys) : key;
  const perField = keys.map((k) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant([[k, example[k]]]) },
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 2, arbitrary: value.map((x) => [[k, x]]) },
    ),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ ...example }) },
    { weight: 1, arbitrary: one.map((k) => Object.fromEntries(Object.entries(example).filter(([x]) => x !== k))) },
    { weight: 3, arbitrary: fc.tuple(one, value).map(([k, v]) => ({ ...example, [k]: v })) },
    {
      weight: 1,
      arbitrary: fc.tuple(key, value).map(([k, v]) => Object.fromEntries([...Object.entries(example), [k, v]])),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.tuple(...perField), fc.array(fc.tuple(key, value), { maxLength: 2 }))
        .map(([kept, extra]) => Object.fromEntries([...(kept as [string, T][][]).flat(), ...extra])),
    },
  );
}

/** A body with its Content-Type (`body` undefined: none sent). */
const bodyArb = (operation: string) =>
  fc.oneof(
    {
      weight: EXAMPLES[operation]?.body ? 5 : 0,
      arbitrary: fc.record({
        body: mutated(EXAMPLES[operation]?.body ?? {}, jsonAny, bodyKey).map((o) => JSON.stringify(o)),
        ct: contentType,
      }),
    },
    { weight: 4, arbitrary: fc.record({ body: jsonObject, ct: contentType }) },
    { weight: 2, arbitrary: fc.record({ body: rawBody, ct: contentType }) },
    { weight: 1, arbitrary: fc.record({ body: deepJson, ct: fc.constant("application/json") }) },
    { weight: 1, arbitrary: fc.record({ body: fc.constant(undefined), ct: contentType }) },
  );

/** One path segment for a parameter, already in wire form (percent-encoded where needed). */
const segment = (route: Route, param: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...likelyIds(route, param)).chain((ids) => fc.constantFrom(...ids)) },
    { weight: 1, arbitrary: fc.constantFrom(...[...idsOf.values()].flat()) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.integer({ min: -1e15, max: -1 }).map(String) },
    { weight: 1, arbitrary: hugeDigits },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1 }).map(encodeURIComponent) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        ".",
        "..",
        "%2e%2e",
        "%2F",
        "a%2Fb",
        "%00",
        "%zz",
        "%E0%A4%A",
        "%",
        "%25",
        "%C0%AF",
        "%FF",
        "__proto__",
        "constructor",
        "1.0",
        "0x1",
        "+1",
        "%201",
      ),
    },
  );

/** A query string (with `?`, or empty): repeated keys, odd encodings, huge values. */
const queryArb = (operation: string) =>
  fc.oneof(
    {
      weight: EXAMPLES[operation]?.query ? 1 : 0,
      arbitrary: mutated(EXAMPLES[operation]?.query ?? {}, scalarString, fc.constantFrom(...FIELD_NAMES)).map(
        (q) => `?${new URLSearchParams(q)}`,
      ),
    },
    { weight: 1, arbitrary: randomQuery },
  );
const randomQuery = fc
  .array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(fc.constantFrom(...FIELD_NAMES), scalarString)
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.string(), fc.string({ unit: "grapheme" }))
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("page", "r", "granularity", "__proto__")
          .chain((k) => hugeDigits.map((v) => `${k}=${v}`)),
      },
      { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 6_000 }).map((n) => `r=${"x".repeat(n)}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "page",
          "page=",
          "=1",
          "=",
          "&",
          "%",
          "%zz=1",
          "page=%E0%A4%A",
          "page=1+1",
          "a=b=c",
          "page[]=1",
          "page=1;page=2",
          "%00=%00",
          "+=+",
        ),
      },
    ),
    { maxLength: 6 },
  )
  .chain((parts) => fc.boolean().map((repeat) => (repeat && parts.length ? [...parts, ...parts] : parts)))
  .map((parts) => (parts.length ? `?${parts.join("&")}` : ""));

const METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "HEAD",
  "TRACE",
  "M-SEARCH",
  "PURGE",
  "BREW",
  "get",
  "post",
];
const auth = fc.oneof(
  { weight: 8, arbitrary: fc.constant("valid") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(undefined, "", "forbidden-key-42", "TEST-KEY-0123456789", "test-key-0123456789 "),
  },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
    }),
  },
);

/** One request against `route`. */
const requestArb = (route: Route) => {
  const operation = `${route.method} ${route.path}`;
  const params = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return fc
    .record({
      segments: fc.tuple(...params.map((p) => segment(route, p))),
      suffix: fc.oneof(
        { weight: 9, arbitrary: fc.constant("") },
        { weight: 1, arbitrary: fc.constantFrom("/", "//", "/x", "/..", "%2F") },
      ),
      query: queryArb(operation),
      payload: bodyArb(operation),
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant(route.method) },
        { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
      ),
      key: auth,
    })
    .map(({ segments, suffix, query, payload, method, key }) => {
      let i = 0;
      const concrete = route.path.replace(/\{[^}]+\}/g, () => segments[i++]);
      return { method, target: concrete + suffix + query, body: payload.body, contentType: payload.ct, key };
    });
};

type Req = ReturnType<typeof requestArb> extends fc.Arbitrary<infer T> ? T : never;

/** Sends one generated request; returns the status and the raw text. */
async function fire(r: Req): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (r.key !== undefined) headers["x-api-key"] = r.key === "valid" ? h.emu.apiKey : r.key;
  if (r.contentType !== undefined) headers["content-type"] = r.contentType;
  let fail!: (e: Error) => void;
  const escapes = new Promise<never>((_, reject) => (fail = reject));
  inFlight.add(fail);
  try {
    // The timeouts only keep a request nobody answers from hanging the suite.
    const send = request(h.emu.url + r.target, {
      method: r.method as "GET",
      headers,
      body: r.body,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    }).then(async (res) => ({ status: res.statusCode, text: await res.body.text() }));
    return await Promise.race([send, escapes]);
  } finally {
    inFlight.delete(fail);
  }
}

/** The message of an error body (`{result, message}`, or the §5 envelope for 401/403). */
function messageOf(text: string): unknown {
  const body = JSON.parse(text);
  return body?.message ?? body?.errors?.[0]?.message;
}

/** The API and the admin door still answer. */
async function stillServing(): Promise<void> {
  const dns = await request(`${h.emu.url}/v2/dns`, { headers: { "x-api-key": h.emu.apiKey } });
  expect({ status: dns.statusCode, result: ((await dns.body.json()) as { result: string }).result }).toEqual({
    status: 200,
    result: "success",
  });
  const state = await request(`${h.emu.url}/__emulator/state`);
  expect(state.statusCode).toBe(200);
  expect(Object.keys((await state.body.json()) as object)).toEqual(expect.arrayContaining(["account", ...KINDS]));
  const log = await request(`${h.emu.url}/__emulator/requests`);
  expect(log.statusCode).toBe(200);
  await log.body.json();
}

describe("every route of the routing table under random input", () => {
  const statuses = new Map<string, Set<number>>();

  afterEach(async () => {
    await stillServing();
    // Writes accumulate (timeshift streams, slots, locks): each route starts from the fixture.
    expect((await request(`${h.emu.url}/__emulator/reset`, { method: "POST" })).statusCode).toBe(200);
    expect((await request(`${h.emu.url}/__emulator/requests`, { method: "DELETE" })).statusCode).toBe(200);
  });

  it.each(routes.map((r) => [r.method, r.path, r] as const))(
    "%s %s: below 500, JSON errors with a message",
    async (_m, _p, route) => {
      const seen = new Set<number>();
      statuses.set(`${route.method} ${route.path}`, seen);
      await fc.assert(
        fc.asyncProperty(requestArb(route), async (r) => {
          const before = escaped.length;
          const { status, text } = await fire(r);
          seen.add(status);
          if (status >= 500 || status < 200) throw new Error(`HTTP ${status}: ${text.slice(0, 300)}`);
          if (status >= 300 && r.method !== "HEAD") {
            let message: unknown;
            try {
              message = messageOf(text);
            } catch {
              throw new Error(`HTTP ${status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
            }
            if (typeof message !== "string" || !message)
              throw new Error(`HTTP ${status} without a message: ${text.slice(0, 200)}`);
          }
          if (escaped.length > before) throw new Error(`exception escaped the emulator: ${escaped[before]}`);
        }),
        { seed: SEED, numRuns: NUM_RUNS, endOnFailure: false, verbose: 1 },
      );
    },
  );

  it("reached every handler's success path, and each POST route has an example to start from", () => {
    const operations = routes.map((r) => `${r.method} ${r.path}`);
    expect(Object.keys(EXAMPLES).filter((op) => !operations.includes(op))).toEqual([]);
    expect(
      routes.filter((r) => r.method === "POST" && !EXAMPLES[`${r.method} ${r.path}`]?.body).map((r) => r.path),
    ).toEqual([]);
    const all = new Set([...statuses.values()].flatMap((s) => [...s]));
    expect([...all]).toEqual(expect.arrayContaining([200, 400, 401, 403, 404, 405, 415, 422]));
    expect([...statuses].filter(([, s]) => !s.has(200)).map(([op]) => op)).toEqual([]);
  });

  it("no exception escaped the emulator during the run", () => {
    expect(escaped).toEqual([]);
  });
});
