/** Fault injection through POST /__emulator/faults: status + Retry-After, latency, dropped connections. */
import { request } from "undici";
import { suiteHarness } from "./helpers";

const h = suiteHarness("/__emulator/requests");

it("answers the next N API requests with the status, a JSON error body and Retry-After", async () => {
  expect((await h.admin("POST", "/__emulator/faults", { status: 503, retryAfter: 2, count: 2 })).status).toBe(200);
  // Admin requests neither consume nor get faults.
  expect((await h.admin("GET", "/__emulator/faults")).body.faults).toEqual([{ status: 503, retryAfter: 2, count: 2 }]);
  for (let i = 0; i < 2; i++) {
    const res = await h.api("GET", "/v2/dns");
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("2");
    expect(res.body).toEqual({ result: "error", message: expect.stringContaining("503") });
  }
  expect((await h.api("GET", "/v2/dns")).status).toBe(200);
  const log = (await h.admin("GET", "/__emulator/requests")).body;
  expect(log.requests.map((r: { status: number }) => r.status)).toEqual([503, 503, 200]);
  expect(log.requests[0]).toMatchObject({ fault: "status", operation: "GET /v2/dns" });
  expect(log.counts["GET /v2/dns"]).toBe(3);
});

it("queues faults in order, e.g. a 429 then a 502", async () => {
  await h.admin("POST", "/__emulator/faults", { status: 429, retryAfter: 1 });
  await h.admin("POST", "/__emulator/faults", { status: 502 });
  expect((await h.api("GET", "/v2/cb")).status).toBe(429);
  const second = await h.api("GET", "/v2/cb");
  expect(second.status).toBe(502);
  expect(second.headers["retry-after"]).toBeUndefined();
  expect((await h.api("GET", "/v2/cb")).status).toBe(200);
});

it("aims a fault at one operation: other requests pass untouched until that operation comes", async () => {
  await h.admin("POST", "/__emulator/faults", { status: 504, count: 1, operation: "GET /v2/cb/{backupid}" });
  await h.admin("POST", "/__emulator/faults", { status: 502, count: 1 });
  expect((await h.api("GET", "/v2/dns")).status).toBe(502); // the untargeted fault, posted later, applies first here
  expect((await h.api("GET", "/v2/cb")).status).toBe(200);
  expect((await h.api("GET", "/v2/cb/61")).status).toBe(504);
  expect((await h.api("GET", "/v2/cb/61")).status).toBe(200);
  expect((await h.admin("GET", "/__emulator/faults")).body.faults).toEqual([]);
});

it("refuses an operation that is not written as METHOD /path", async () => {
  const res = await h.admin("POST", "/__emulator/faults", { status: 500, operation: "cb" });
  expect(res.status).toBe(422);
  expect(JSON.stringify(res.body)).toMatch(/operation.*METHOD \/v2\/path-template/);
});

it("delays the response by latencyMs and then answers normally", async () => {
  await h.admin("POST", "/__emulator/faults", { latencyMs: 300, count: 1 });
  const started = Date.now();
  const res = await h.api("GET", "/v2/dns");
  expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  expect(res.status).toBe(200);
  const quick = Date.now();
  await h.api("GET", "/v2/dns");
  expect(Date.now() - quick).toBeLessThan(250);
});

it("serves a slow request even when the client stopped waiting, as a real server would", async () => {
  await h.admin("POST", "/__emulator/faults", {
    latencyMs: 600,
    count: 1,
    operation: "POST /v2/streams/push/{streamid}/status",
  });
  const sent = request(`${h.emu.url}/v2/streams/push/3001/status`, {
    method: "POST",
    headers: { "x-api-key": h.emu.apiKey, "content-type": "application/json" },
    body: '{"disabled":1}',
    signal: AbortSignal.timeout(100),
  });
  await expect(sent).rejects.toThrow();
  for (
    let i = 0;
    i < 50 && (await h.admin("GET", "/__emulator/state")).body.pushStreams["3001"].disabled !== "1";
    i++
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect((await h.admin("GET", "/__emulator/state")).body.pushStreams["3001"].disabled).toBe("1");
  const log = (await h.admin("GET", "/__emulator/requests")).body;
  expect(log.requests[0]).toMatchObject({
    operation: "POST /v2/streams/push/{streamid}/status",
    status: 200,
    fault: "latency",
  });
});

it("carries a request out and then drops the connection instead of answering", async () => {
  expect((await h.admin("POST", "/__emulator/faults", { dropResponse: true, count: 1 })).status).toBe(200);
  await expect(h.api("POST", "/v2/streams/push/3002/status", { disabled: 1 })).rejects.toThrow();
  expect((await h.state()).pushStreams["3002"].disabled).toBe("1");
  const log = (await h.admin("GET", "/__emulator/requests")).body;
  expect(log.requests[0]).toMatchObject({
    status: 0,
    fault: "drop-response",
    operation: "POST /v2/streams/push/{streamid}/status",
  });
});

it("drops the connection without a response", async () => {
  await h.admin("POST", "/__emulator/faults", { dropConnection: true, count: 1 });
  await expect(h.api("GET", "/v2/dns")).rejects.toThrow();
  expect((await h.api("GET", "/v2/dns")).status).toBe(200);
  const log = (await h.admin("GET", "/__emulator/requests")).body;
  expect(log.requests[0]).toMatchObject({ status: 0, fault: "drop" });
});

it("applies a fault to a write without changing state", async () => {
  await h.admin("POST", "/__emulator/faults", { status: 500 });
  expect((await h.api("POST", "/v2/streams/push/3001/status", { disabled: 1 })).status).toBe(500);
  expect((await h.state()).pushStreams["3001"].disabled).toBe("0");
});

it.each([
  [{ count: 1 }, "at least one of"],
  [{ status: 200 }, "status: must be at least 400"],
  [{ status: 503, count: 0 }, "count: must be at least 1"],
  [{ latencyMs: -5 }, "latencyMs"],
  [{ status: 503, bogus: true }, "bogus: unknown field"],
])("rejects fault %j with 422", async (body, fragment) => {
  const res = await h.admin("POST", "/__emulator/faults", body);
  expect(res.status).toBe(422);
  expect(res.body.message).toContain(fragment);
});

it("DELETE /__emulator/faults and reset clear pending faults", async () => {
  await h.admin("POST", "/__emulator/faults", { status: 503, count: 5 });
  await h.admin("DELETE", "/__emulator/faults");
  expect((await h.api("GET", "/v2/dns")).status).toBe(200);
  await h.admin("POST", "/__emulator/faults", { status: 503, count: 5 });
  await h.admin("POST", "/__emulator/reset");
  expect((await h.api("GET", "/v2/dns")).status).toBe(200);
});
