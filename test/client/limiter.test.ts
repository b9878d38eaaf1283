/** Pacing: the concurrency cap and the requests-per-second gate. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CdnstreamClient, dns } from "../../client";
import { RateGate, Semaphore } from "../../client/core/limiter";
import { JSON_HEADERS, mockClient, ok } from "./helpers";

describe("Semaphore", () => {
  it("holds at most `size` and hands slots out in order", async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    const a = await s.acquire();
    const b = await s.acquire();
    const waiting = [3, 4].map((n) => s.acquire().then((release) => (order.push(n), release)));
    expect(s.pending).toBe(2);
    a();
    a(); // releasing twice frees once
    const r3 = await waiting[0]!;
    expect(order).toEqual([3]);
    b();
    (await waiting[1]!)();
    r3();
    expect(s.pending).toBe(0);
  });

  it("tryAcquire takes a free slot at once, and none while all are held", async () => {
    const s = new Semaphore(1);
    const held = s.tryAcquire();
    expect(held).toBeInstanceOf(Function);
    expect(s.tryAcquire()).toBeUndefined();
    const queued = s.acquire();
    expect(s.pending).toBe(1);
    held!();
    (await queued)(); // the queued caller got the slot, then freed it
    expect(s.tryAcquire()).toBeInstanceOf(Function);
  });
});

describe("RateGate", () => {
  it("spaces starts 1000/rps ms apart, and honours a pause", async () => {
    let now = 0;
    const waits: number[] = [];
    const gate = new RateGate(
      4,
      () => now,
      async (ms) => {
        waits.push(ms);
      },
    );
    for (let i = 0; i < 4; i++) await gate.take();
    expect(waits).toEqual([250, 500, 750]);
    now = 10_000;
    gate.pause(2000);
    await gate.take();
    expect(waits.slice(3)).toEqual([2000]);
    // A caller that slept the pause out itself is only spaced (the clock here stands still).
    await gate.take(true);
    expect(waits.slice(4)).toEqual([2250]);
  });

  it("does nothing when off", async () => {
    const waits: number[] = [];
    const gate = new RateGate(
      0,
      () => 0,
      async (ms) => {
        waits.push(ms);
      },
    );
    for (let i = 0; i < 10; i++) expect(gate.take()).toBeUndefined(); // nothing to wait on
    expect(waits).toEqual([]);
  });
});

describe("client pacing (MockAgent)", () => {
  it("never has more than maxConcurrency requests in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const server = createServer((_, res) => {
      peak = Math.max(peak, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, JSON_HEADERS).end(JSON.stringify(ok.dns));
      }, 15);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const client = new CdnstreamClient({
      apiKey: "k-123456",
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      env: {},
      maxConcurrency: 3,
      connections: 10,
      shareReads: false,
    });
    try {
      await Promise.all(Array.from({ length: 12 }, () => dns.listDnsZones(client)));
      expect(peak).toBe(3);
    } finally {
      await client.close();
      server.close();
    }
  });

  it("limits requests per second when rps is set", async () => {
    const { pool, client } = mockClient({ rps: 50, shareReads: false });
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(200, ok.dns, { headers: JSON_HEADERS }).times(6);
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => dns.listDnsZones(client)));
    // Six starts at 50/s: the last one at least 100 ms after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });
});
