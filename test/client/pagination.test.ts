/**
 * Paginator: no page size assumed. Counted listings (§4.7, §4.9) follow `pages`, checked against
 * `total`; uncounted ones (§4.10) read until an empty page or a page that adds nothing new; a cap
 * fails loudly. Every shape of server is run both ways (`all()` concurrently, `for await` one
 * page at a time): concurrency never changes the result.
 */
import {
  adInsertion,
  adManager,
  CdnstreamError,
  PaginationLimitError,
  Paginator,
  zones,
  type PageResult,
} from "../../client";
import { JSON_HEADERS, mockClient, rejection } from "./helpers";

function fakeListing(total: number, pageSize: number, withPages: boolean) {
  const fetched: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchPage = async (page: number) => {
    fetched.push(page);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    inFlight--;
    const items = Array.from(
      { length: Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize)) },
      (_, i) => (page - 1) * pageSize + i,
    );
    return { items, pages: withPages ? Math.ceil(total / pageSize) : undefined };
  };
  return { fetchPage, fetched, maxInFlight: () => maxInFlight };
}

/** A server of `count` items `{ id }` (ids 1..count) in pages of `pageSize`, answering past the end as `pastEnd` says. */
interface ServerShape {
  count: number;
  pageSize: number;
  pastEnd: "empty" | "repeat-last";
  /** Report `pages` and `total` (§4.7, §4.9), possibly wrong; omitted: report nothing (§4.10). */
  counters?: { pages?: (real: number) => number | undefined; total?: (real: number) => number | undefined };
}

function fakeServer(shape: ServerShape) {
  const fetched: number[] = [];
  const realPages = Math.max(1, Math.ceil(shape.count / shape.pageSize));
  const fetchPage = async (page: number): Promise<PageResult<{ id: number }>> => {
    fetched.push(page);
    await new Promise((r) => setImmediate(r));
    const served = page > realPages && shape.pastEnd === "repeat-last" ? realPages : page;
    const first = (served - 1) * shape.pageSize + 1;
    const items = Array.from({ length: Math.max(0, Math.min(shape.pageSize, shape.count - first + 1)) }, (_, i) => ({
      id: first + i,
    }));
    if (!shape.counters) return { items };
    return {
      items,
      pages: (shape.counters.pages ?? ((n) => n))(realPages),
      total: (shape.counters.total ?? ((n) => n))(shape.count),
    };
  };
  return { fetchPage, fetched, realPages };
}

const ids = (items: { id: number }[]) => items.map((i) => i.id);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Runs a listing both ways and checks they agree; returns the concurrent result and each way's requests. */
async function bothWays(shape: ServerShape, options: { maxPages?: number; batch?: number } = {}) {
  const concurrent = fakeServer(shape);
  const listing = await new Paginator(concurrent.fetchPage, { idOf: (i) => i.id, ...options }).collect();
  const sequential = fakeServer(shape);
  const walked: { id: number }[] = [];
  for await (const item of new Paginator(sequential.fetchPage, { idOf: (i) => i.id, ...options })) walked.push(item);
  expect(ids(walked)).toEqual(ids(listing.items));
  return { listing, concurrentPages: concurrent.fetched, sequentialPages: sequential.fetched };
}

describe("Paginator", () => {
  it("iterates items across pages in order, stopping at the reported page count", async () => {
    const l = fakeListing(45, 20, true);
    const items: number[] = [];
    for await (const item of new Paginator(l.fetchPage)) items.push(item);
    expect(items).toEqual(Array.from({ length: 45 }, (_, i) => i));
    expect(l.fetched).toEqual([1, 2, 3]);
  });

  it("all() fetches the remaining pages concurrently once the count is known", async () => {
    const l = fakeListing(200, 20, true);
    const all = await new Paginator(l.fetchPage).all();
    expect(all).toHaveLength(200);
    expect(all[199]).toBe(199);
    expect(l.maxInFlight()).toBe(9);
  });

  it("without a page count, a short page is not the end: reads on to the empty page", async () => {
    const l = fakeListing(47, 20, false);
    expect(await new Paginator(l.fetchPage).all()).toHaveLength(47);
    const items: number[] = [];
    const m = fakeListing(47, 20, false);
    for await (const i of new Paginator(m.fetchPage)) items.push(i);
    expect(items).toHaveLength(47);
    expect(m.fetched).toEqual([1, 2, 3, 4]);
  });

  it("without a page count, stops at the empty page after a full one", async () => {
    const l = fakeListing(40, 20, false);
    const all = await new Paginator(l.fetchPage, { batch: 2 }).all();
    expect(all).toHaveLength(40);
    expect(l.fetched.sort()).toEqual([1, 2, 3]);
  });

  it("an empty listing yields nothing", async () => {
    expect(await new Paginator(fakeListing(0, 20, true).fetchPage).all()).toEqual([]);
    expect(await new Paginator(fakeListing(0, 20, false).fetchPage).all()).toEqual([]);
  });

  it("refuses to loop forever: a listing whose pages keep bringing new items fails at the cap, naming it and what to do", async () => {
    const fetched: number[] = [];
    const endless = async (page: number) => {
      fetched.push(page);
      return { items: [page * 10, page * 10 + 1] };
    };
    const err = await rejection(
      new Paginator(endless, { maxPages: 5, listing: "HTTP pull zones (GET /v2/zones/http/pull)" }).all(),
    );
    expect(err).toBeInstanceOf(CdnstreamError);
    expect(err).toBeInstanceOf(PaginationLimitError);
    expect(err.message).toBe(
      "HTTP pull zones (GET /v2/zones/http/pull): stopped at the cap of 5 pages (page 6 still brought items not seen before) rather than return part of the list. " +
        "The API may be ignoring the page number, or the listing is larger than the cap: read it one page at a time with the `page` argument, or narrow its filters.",
    );
    expect(Math.max(...fetched)).toBe(6); // never a page past the cap's check page
  });
});

describe("Paginator under every page size (47 items)", () => {
  const sizes = [1, 2, 20, 1000];
  const cases = sizes.flatMap((pageSize) =>
    (["empty", "repeat-last"] as const).flatMap((pastEnd) => [
      {
        name: `pages of ${pageSize}, ${pastEnd} past the end, no counters`,
        shape: { count: 47, pageSize, pastEnd },
      },
      {
        name: `pages of ${pageSize}, ${pastEnd} past the end, pages and total`,
        shape: { count: 47, pageSize, pastEnd, counters: {} },
      },
    ]),
  );

  it.each(cases)("$name: every item exactly once, in order, both ways", async ({ shape }) => {
    const { listing, sequentialPages, concurrentPages } = await bothWays(shape as ServerShape);
    expect(ids(listing.items)).toEqual(oneTo(47));
    const real = Math.ceil(47 / shape.pageSize);
    if ("counters" in shape) {
      // Counted: exactly the reported pages, nothing past them.
      expect(listing.total).toBe(47);
      expect(sequentialPages).toEqual(oneTo(real));
      expect([...concurrentPages].sort((a, b) => a - b)).toEqual(oneTo(real));
    } else {
      // Uncounted: one page past the end shows it (empty, or the last again); concurrently at most batch - 1 more.
      expect(listing.total).toBeUndefined();
      expect(sequentialPages).toEqual(oneTo(real + 1));
      expect(concurrentPages.length).toBeGreaterThanOrEqual(real + 1);
      expect(concurrentPages.length).toBeLessThanOrEqual(real + 4);
      expect(listing.requests).toBe(concurrentPages.length);
    }
  });

  it("a server repeating its last page: pages of 2, 3 zones come back as 3 (the field report), after 3 requests", async () => {
    const { listing, sequentialPages } = await bothWays({ count: 3, pageSize: 2, pastEnd: "repeat-last" });
    expect(ids(listing.items)).toEqual([1, 2, 3]);
    expect(sequentialPages).toEqual([1, 2, 3]);
  });

  it("a server ignoring `page` cannot be told from a one-page listing repeating past the end: its one page is the listing", async () => {
    const same = async () => ({ items: [1, 2, 3] });
    expect(await new Paginator(same, { maxPages: 5 }).all()).toEqual([1, 2, 3]);
  });
});

describe("Paginator when the counters disagree with what arrives", () => {
  it("`pages` understated, `total` right: reads past `pages` until `total` is reached, no further", async () => {
    const { listing, sequentialPages } = await bothWays({
      count: 5,
      pageSize: 2,
      pastEnd: "empty",
      counters: { pages: () => 2 },
    });
    expect(ids(listing.items)).toEqual(oneTo(5));
    expect(listing.total).toBe(5);
    expect(sequentialPages).toEqual([1, 2, 3]);
  });

  it("`pages` understated on a repeating server: reads past `pages`, stopping at the repeated page", async () => {
    const { listing } = await bothWays({
      count: 7,
      pageSize: 2,
      pastEnd: "repeat-last",
      counters: { pages: () => 1, total: () => 9 },
    });
    expect(ids(listing.items)).toEqual(oneTo(7));
    expect(listing.total).toBe(9); // the API's word, reported as given
  });

  it("`pages` overstated: the extra pages (empty or repeated) add nothing, no item twice", async () => {
    for (const pastEnd of ["empty", "repeat-last"] as const) {
      const { listing, sequentialPages } = await bothWays({
        count: 5,
        pageSize: 2,
        pastEnd,
        counters: { pages: () => 6 },
      });
      expect(ids(listing.items)).toEqual(oneTo(5));
      expect(sequentialPages).toEqual(oneTo(6));
    }
  });

  it("`total` overstated: past `pages`, the first page that is empty or brings nothing new ends the read", async () => {
    const { listing, sequentialPages } = await bothWays({
      count: 45,
      pageSize: 20,
      pastEnd: "empty",
      counters: { total: () => 50 },
    });
    expect(ids(listing.items)).toEqual(oneTo(45));
    expect(listing.total).toBe(50);
    expect(sequentialPages).toEqual([1, 2, 3, 4]);
  });

  it("`pages` without `total`: `pages` is followed as given (nothing to check it against)", async () => {
    const { listing, sequentialPages } = await bothWays({
      count: 6,
      pageSize: 2,
      pastEnd: "empty",
      counters: { pages: () => 2, total: () => undefined },
    });
    expect(ids(listing.items)).toEqual(oneTo(4));
    expect(sequentialPages).toEqual([1, 2]);
  });

  it("a reported page count above the cap fails at once, after page 1 only, naming the count and the cap", async () => {
    const server = fakeServer({ count: 47, pageSize: 1, pastEnd: "empty", counters: {} });
    const err = await rejection(
      new Paginator(server.fetchPage, { maxPages: 10, listing: "the ad-pod request log of project 1" }).all(),
    );
    expect(err).toBeInstanceOf(PaginationLimitError);
    expect(err.message).toBe(
      "the ad-pod request log of project 1: stopped at the cap of 10 pages (the API reports 47 pages) rather than return part of the list. " +
        "Read it one page at a time with the `page` argument, or narrow its filters.",
    );
    expect(server.fetched).toEqual([1]);
  });

  it("a listing of exactly the cap ends normally: the page after the cap is read to see the end", async () => {
    const { listing } = await bothWays({ count: 10, pageSize: 1, pastEnd: "repeat-last" }, { maxPages: 10 });
    expect(ids(listing.items)).toEqual(oneTo(10));
  });
});

describe("Paginator details", () => {
  it("items shifting between pages while read are kept once, in first-seen order", async () => {
    // Page k restarts one item early (an item was inserted before it meanwhile).
    const pages: Record<number, number[]> = { 1: [1, 2, 3], 2: [3, 4, 5], 3: [5, 6], 4: [] };
    const fetchPage = async (page: number) => ({ items: (pages[page] ?? []).map((id) => ({ id })) });
    expect(ids(await new Paginator(fetchPage, { idOf: (i) => i.id }).all())).toEqual(oneTo(6));
  });

  it('ids compare as strings: 201 and "201" are one item', async () => {
    const pages: Record<number, { id: number | string }[]> = { 1: [{ id: 201 }], 2: [{ id: "201" }] };
    expect(await new Paginator(async (p) => ({ items: pages[p] ?? [] }), { idOf: (i) => i.id }).all()).toEqual([
      { id: 201 },
    ]);
  });

  it("a failing page fails the listing with its own error; pages fetched beside it leave no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      const fetchPage = async (page: number) => {
        if (page >= 2) throw new Error(`page ${page} failed`);
        return { items: [{ id: 1 }], pages: 4, total: 4 };
      };
      await expect(new Paginator(fetchPage, { idOf: (i) => i.id }).all()).rejects.toThrow("page 2 failed");
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("paginated operations (MockAgent)", () => {
  it("§4.7 ad-pod requests: page 1, then pages 2..pages with the same filters", async () => {
    const { pool, client, calls } = mockClient();
    for (const page of [1, 2, 3]) {
      pool
        .intercept({ path: "/v2/ad-manager/1/requests", method: "POST", body: (b) => JSON.parse(b).page === page })
        .reply(
          200,
          { result: "success", items: [{ id: `req-${page}` }], page, pages: 3, limit: 1, total: 3 },
          { headers: JSON_HEADERS },
        );
    }
    const all = await adManager.adPodRequests(client, 1, { fill_statuses: ["full"] }).all();
    expect(all.map((i) => i.id)).toEqual(["req-1", "req-2", "req-3"]);
    expect(calls().map((c) => JSON.parse(String(c.body)))).toEqual(
      expect.arrayContaining([{ fill_statuses: ["full"], page: 2 }]),
    );
  });

  it("§4.9 ad breaks: collect() returns the API's total beside the items (counters as numeric strings too)", async () => {
    const { pool, client } = mockClient();
    for (const page of [1, 2]) {
      pool
        .intercept({ path: `/v2/zones/vod/pull/401/adinsertion/ad-breaks?page=${page}`, method: "GET" })
        .reply(
          200,
          { result: "success", items: [{ id: `ab-${page}` }], total: "2", page: String(page), limit: "1", pages: "2" },
          { headers: JSON_HEADERS },
        );
    }
    const listing = await adInsertion.adBreaks(client, 401).collect();
    expect(listing).toEqual({ items: [{ id: "ab-1" }, { id: "ab-2" }], total: 2, requests: 2 });
  });

  it("§4.10 pull zones: pages of 20 until the empty page", async () => {
    const { pool, client } = mockClient();
    const zone = (id: number) => ({ id, type: "pull" });
    const pages: Record<number, unknown[]> = {
      1: Array.from({ length: 20 }, (_, i) => zone(i)),
      2: Array.from({ length: 20 }, (_, i) => zone(20 + i)),
      3: [],
    };
    for (let p = 1; p <= 5; p++)
      pool
        .intercept({ path: `/v2/zones/http/pull?page=${p}`, method: "GET" })
        .reply(200, { result: "success", zones: pages[p] ?? [] }, { headers: JSON_HEADERS });
    const all = await zones.pullZones(client).all();
    expect(all.map((z) => z.id)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it("§4.10 pull zones from a server paging by 2 and repeating its last page: all 3 zones, once each", async () => {
    const { pool, client } = mockClient();
    const page = (...zoneIds: number[]) => ({ result: "success", zones: zoneIds.map((id) => ({ id, type: "pull" })) });
    pool
      .intercept({ path: "/v2/zones/http/pull?page=1", method: "GET" })
      .reply(200, page(1, 2), { headers: JSON_HEADERS });
    pool
      .intercept({ path: /^\/v2\/zones\/http\/pull\?page=\d+$/, method: "GET" })
      .reply(200, page(3), { headers: JSON_HEADERS })
      .persist();
    const all = await zones.pullZones(client, undefined, { batch: 2 }).all();
    expect(all.map((z) => z.id)).toEqual([1, 2, 3]);
  });

  it("§4.10 one page: lastPage read from the next page, under an empty or a repeating end", async () => {
    const { pool, client, calls } = mockClient();
    const body = (...zoneIds: number[]) => ({ result: "success", zones: zoneIds.map((id) => ({ id })) });
    // pages of 2, empty past the end: 1 [1,2], 2 [3], 3 []
    pool
      .intercept({ path: "/v2/zones/http/pull?page=1", method: "GET" })
      .reply(200, body(1, 2), { headers: JSON_HEADERS });
    pool
      .intercept({ path: "/v2/zones/http/pull?page=2", method: "GET" })
      .reply(200, body(3), { headers: JSON_HEADERS })
      .times(3);
    pool.intercept({ path: "/v2/zones/http/pull?page=3", method: "GET" }).reply(200, body(), { headers: JSON_HEADERS });
    // …and from a repeating server, page 3 is page 2 again
    pool
      .intercept({ path: "/v2/zones/http/pull?page=3", method: "GET" })
      .reply(200, body(3), { headers: JSON_HEADERS });
    const first = await zones.pullZonePage(client, 1);
    expect(first.zones.map((z) => z.id)).toEqual([1, 2]);
    expect(first.lastPage).toBe(false);
    expect(await zones.pullZonePage(client, 2)).toMatchObject({ lastPage: true, zones: [{ id: 3 }] });
    expect(await zones.pullZonePage(client, 2)).toMatchObject({ lastPage: true, zones: [{ id: 3 }] });
    expect(calls()).toHaveLength(6);
  });
});
