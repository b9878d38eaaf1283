/** Paginator: page-count listings fetched concurrently, count-less ones until a short or empty page. */
import { adManager, CdnstreamError, Paginator, zones } from "../../provider/client";
import { JSON_HEADERS, mockClient } from "./helpers";

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
    const items = Array.from({ length: Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize)) }, (_, i) => (page - 1) * pageSize + i);
    return { items, pages: withPages ? Math.ceil(total / pageSize) : undefined };
  };
  return { fetchPage, fetched, maxInFlight: () => maxInFlight };
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

  it("without a page count, stops at a short page", async () => {
    const l = fakeListing(47, 20, false);
    expect(await new Paginator(l.fetchPage, { pageSize: 20 }).all()).toHaveLength(47);
    const items: number[] = [];
    const m = fakeListing(47, 20, false);
    for await (const i of new Paginator(m.fetchPage, { pageSize: 20 })) items.push(i);
    expect(items).toHaveLength(47);
    expect(m.fetched).toEqual([1, 2, 3]);
  });

  it("without a page count, stops at the empty page after a full one", async () => {
    const l = fakeListing(40, 20, false);
    const all = await new Paginator(l.fetchPage, { pageSize: 20, batch: 2 }).all();
    expect(all).toHaveLength(40);
    expect(l.fetched.sort()).toEqual([1, 2, 3]);
  });

  it("an empty listing yields nothing", async () => {
    expect(await new Paginator(fakeListing(0, 20, true).fetchPage).all()).toEqual([]);
    expect(await new Paginator(fakeListing(0, 20, false).fetchPage, { pageSize: 20 }).all()).toEqual([]);
  });

  it("refuses to loop forever when the API ignores the page parameter", async () => {
    const same = async () => ({ items: [1, 2, 3] });
    await expect(new Paginator(same, { maxPages: 5 }).all()).rejects.toBeInstanceOf(CdnstreamError);
  });
});

describe("paginated operations (MockAgent)", () => {
  it("§4.7 ad-pod requests: page 1, then pages 2..pages with the same filters", async () => {
    const { pool, client, calls } = mockClient();
    for (const page of [1, 2, 3]) {
      pool
        .intercept({ path: "/v2/ad-manager/1/requests", method: "POST", body: (b) => JSON.parse(b).page === page })
        .reply(200, { result: "success", items: [{ id: `req-${page}` }], page, pages: 3, limit: 1, total: 3 }, { headers: JSON_HEADERS });
    }
    const all = await adManager.adPodRequests(client, 1, { fill_statuses: ["full"] }).all();
    expect(all.map((i) => i.id)).toEqual(["req-1", "req-2", "req-3"]);
    expect(calls().map((c) => JSON.parse(String(c.body)))).toEqual(expect.arrayContaining([{ fill_statuses: ["full"], page: 2 }]));
  });

  it("§4.10 pull zones: pages of 20 until the empty page", async () => {
    const { pool, client } = mockClient();
    const zone = (id: number) => ({ id, type: "pull" });
    const pages: Record<number, unknown[]> = { 1: Array.from({ length: 20 }, (_, i) => zone(i)), 2: Array.from({ length: 20 }, (_, i) => zone(20 + i)), 3: [] };
    for (let p = 1; p <= 5; p++) pool.intercept({ path: `/v2/zones/http/pull?page=${p}`, method: "GET" }).reply(200, { result: "success", zones: pages[p] ?? [] }, { headers: JSON_HEADERS });
    const all = await zones.pullZones(client).all();
    expect(all.map((z) => z.id)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
