/**
 * One declaration per operation: `defineOperation` returns the operation's description and its
 * typed call, whose arguments come from the path template (then body, query, options).
 */
import { z } from "zod";
import {
  adInsertion,
  adManager,
  backups,
  dns,
  operations,
  streams,
  ValidationError,
  zones,
  type Operation,
} from "../../client";
import { defineOperation, isOperation } from "../../client/core/operation";
import { intId, strId } from "../../client/resources/shapes";
import { JSON_HEADERS, mockClient, ok, rejection } from "./helpers";

const getThing = defineOperation({
  id: "test:thing",
  method: "GET",
  path: "/v2/things/{thingid}/parts/{partid}",
  retry: "retriable",
  params: z.strictObject({ thingid: intId, partid: strId }),
  query: z.strictObject({ depth: z.number().int().optional() }),
  response: z.looseObject({ result: z.string(), part: z.looseObject({ weight: z.number() }) }),
});
const touchThing = defineOperation({
  id: "test:touch",
  method: "POST",
  path: "/v2/things/{thingid}/touch",
  retry: "connect-only",
  params: z.strictObject({ thingid: intId }),
  body: z.strictObject({ note: z.string().optional() }),
  response: z.looseObject({ result: z.string() }),
});

describe("a declared operation", () => {
  it("is its own description", () => {
    const { id, method, path, retry } = getThing;
    expect({ id, method, path, retry }).toEqual({
      id: "test:thing",
      method: "GET",
      path: "/v2/things/{thingid}/parts/{partid}",
      retry: "retriable",
    });
    expect(isOperation(getThing)).toBe(true);
    expect(isOperation({ ...getThing })).toBe(false);
    expect(Object.isFrozen(getThing)).toBe(true);
  });

  it("is called with the path parameters in template order, then the query: typed in, typed out", async () => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path: "/v2/things/7/parts/a%2Fb?depth=2", method: "GET" })
      .reply(200, { result: "success", part: { weight: 3 } }, { headers: JSON_HEADERS });
    const r = await getThing(client, 7, "a/b", { depth: 2 });
    const weight: number | undefined = r.part.weight;
    expect(weight).toBe(3);
    expect(calls()).toHaveLength(1);
    if (Date.now() < 0) {
      // Compile-time checks only (never run): the argument list is derived from the declaration.
      // @ts-expect-error a path parameter is missing
      await getThing(client, 7);
      // @ts-expect-error the query is typed
      await getThing(client, 7, "p", { depth: "deep" });
      // @ts-expect-error no body on this operation: the third argument is the query
      await getThing(client, 7, "p", { note: "x" }, {});
    }
  });

  it("validates its arguments before any request, naming the template's parameter", async () => {
    const { client, calls } = mockClient();
    const err = (await rejection(getThing(client, -1, "p"))) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues.map((i) => i.field)).toEqual(["thingid"]);
    expect(calls()).toHaveLength(0);
  });

  it("sends {} for a left-out body whose fields are all optional", async () => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path: "/v2/things/7/touch", method: "POST" })
      .reply(200, { result: "success" }, { headers: JSON_HEADERS });
    await touchThing(client, 7);
    expect(JSON.parse(String(calls()[0]!.body))).toEqual({});
  });

  it("passes per-call options last", async () => {
    const { pool, client } = mockClient();
    pool.intercept({ path: "/v2/things/7/touch", method: "POST" }).reply(503, {}).times(3);
    const err = await rejection(touchThing(client, 7, { note: "n" }, { maxRetries: 0 }));
    expect(err.message).toMatch(/503/);
  });
});

describe("the families' declarations", () => {
  const families = { zones, streams, dns, backups, adInsertion, adManager };

  it("every operation of the registry is a declared call, listed in its family's ops table", () => {
    expect(operations.length).toBe(27);
    for (const op of operations) expect(isOperation(op)).toBe(true);
    const inTables = new Set(Object.values(families).flatMap((f) => Object.values(f.ops) as Operation[]));
    expect(operations.filter((op) => !inTables.has(op)).map((op) => op.id)).toEqual([]);
  });

  it("an ops table entry is the exported call itself where the names agree", () => {
    for (const family of Object.values(families)) {
      for (const [name, op] of Object.entries(family.ops)) {
        const exported = (family as Record<string, unknown>)[name];
        if (exported !== op) expect([`${name}`, typeof exported]).toEqual(["listPullZones", "function"]);
      }
    }
  });

  it("the positional wrappers kept for their signatures call the declared operations", async () => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path: "/v2/zones/http/pull?page=3", method: "GET" })
      .reply(200, { result: "success", zones: [] }, { headers: JSON_HEADERS });
    pool
      .intercept({ path: "/v2/streams/timeshift/5/status", method: "POST" })
      .reply(200, ok.stream, { headers: JSON_HEADERS });
    pool
      .intercept({ path: "/v2/ad-manager/1/requests", method: "POST" })
      .reply(200, ok.requests, { headers: JSON_HEADERS });
    await zones.listPullZones(client, 3);
    await streams.setStreamStatus(client, "timeshift", 5, { disabled: 1 });
    await adManager.listAdPodRequests(client, 1);
    expect(calls()[0]!.fullUrl).toMatch(/\/v2\/zones\/http\/pull\?page=3$/);
    expect(calls().map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /v2/zones/http/pull",
      "POST /v2/streams/timeshift/5/status",
      "POST /v2/ad-manager/1/requests",
    ]);
    expect(JSON.parse(String(calls()[2]!.body))).toEqual({});
  });
});
