/** The admin door: state, mutate, requests (never the key), reset. Faults are in faults.test.ts. */
import { isLoopback } from "../../emulator/admin";
import { KINDS } from "../../emulator";
import { harness, Harness, send } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness({ forbiddenKey: "forbidden-key-42" });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.admin("POST", "/__emulator/reset");
  await h.admin("DELETE", "/__emulator/requests");
});

it("GET /__emulator/state returns every kind keyed by id, plus the account", async () => {
  const state = await h.state();
  expect(Object.keys(state).sort()).toEqual([...KINDS, "account"].sort());
  expect(state.httpPushZones["101"].id).toBe(101);
  expect(state.creatives["cr-10452"].crid).toBe("cr-10452");
  expect(state.account).toMatchObject({ customPlan: true, advancedAnalytics: true });
});

it("POST /__emulator/mutate deep-merges, creates and deletes, and the API sees it", async () => {
  const res = await h.admin("POST", "/__emulator/mutate", {
    kind: "pushStreams",
    id: 3001,
    patch: { disabled: "1", ndvr: { retention: "9" } },
  });
  expect(res.body.result).toBe("success");
  const stream = (await h.api("GET", "/v2/streams/push/3001")).body.stream;
  expect(stream).toMatchObject({ disabled: "1", ndvr: { enabled: "Y", retention: "9" } });
  // Arrays replace rather than merge.
  await h.admin("POST", "/__emulator/mutate", {
    kind: "vodPushZones",
    id: "301",
    patch: { adinsertion: { vodAdBreakPolicy: { midRolls: [{ offsetS: 5, maxDurationS: 10 }] } } },
  });
  expect((await h.api("GET", "/v2/zones/vod/push/301/adinsertion")).body.vodAdBreakPolicy).toMatchObject({
    spliceMode: "segment",
    midRolls: [{ offsetS: 5, maxDurationS: 10 }],
  });
  await h.admin("POST", "/__emulator/mutate", { kind: "pushStreams", id: 3001, patch: null });
  expect((await h.api("GET", "/v2/streams/push/3001")).status).toBe(404);
  // A created object gets its id (so a saved state stays loadable).
  await h.admin("POST", "/__emulator/mutate", { kind: "dnsZones", id: 9000, patch: { domain: "new.example" } });
  expect((await h.api("GET", "/v2/dns")).body.domains.find((d: { id: number }) => d.id === 9000)).toEqual({
    id: 9000,
    domain: "new.example",
  });
});

it.each([
  [{ kind: "zones", id: 1, patch: {} }, "kind"],
  [{ kind: "pushStreams", patch: {} }, "id: required"],
  [{ kind: "pushStreams", id: 1, patch: [1] }, "patch"],
  [{ kind: "account", patch: null }, "cannot be deleted"],
  [{ kind: "dnsZones", id: 8801, patch: { id: 1 } }, "patch.id: must equal id"],
])("rejects mutate %j with 422", async (body, fragment) => {
  const res = await h.admin("POST", "/__emulator/mutate", body);
  expect(res.status).toBe(422);
  expect(res.body.message).toContain(fragment);
});

it("GET /__emulator/requests logs method, path, operation and status, counts by template, and never the key", async () => {
  await h.api("GET", "/v2/zones/http/push/101");
  await h.api("GET", "/v2/zones/http/push/102");
  await h.api("POST", "/v2/streams/push/3001/status", { disabled: 1 });
  await h.api("GET", "/v2/dns", undefined, { "x-api-key": "forbidden-key-42" });
  await h.api("GET", `/v2/dns?echo=${h.emu.apiKey}`);
  await h.api("POST", "/v2/streams/timeshift/new", {
    _METHOD: "PUT",
    name: h.emu.apiKey,
    timeshift: 5,
    parent: 3001,
    "securetoken[list]": "tok-secret",
  });
  await h.api("GET", "/v2/nowhere");
  const res = await h.admin("GET", "/__emulator/requests");
  const { requests, counts } = res.body;
  expect(requests[0]).toMatchObject({
    method: "GET",
    path: "/v2/zones/http/push/101",
    operation: "GET /v2/zones/http/push/{zoneid}",
    status: 200,
  });
  expect(requests[2]).toMatchObject({
    operation: "POST /v2/streams/push/{streamid}/status",
    status: 200,
    body: { disabled: 1 },
  });
  expect(requests[3].status).toBe(403);
  expect(requests[6]).toMatchObject({ operation: null, status: 404 });
  expect(counts).toMatchObject({
    "GET /v2/zones/http/push/{zoneid}": 2,
    "POST /v2/streams/push/{streamid}/status": 1,
    "GET /v2/dns": 2,
  });
  const text = JSON.stringify(res.body);
  expect(text).not.toContain(h.emu.apiKey);
  expect(text).not.toContain("forbidden-key-42");
  expect(text).not.toContain("tok-secret");
  expect(text.toLowerCase()).not.toContain("x-api-key");
  // The admin door itself is not logged.
  expect(requests.some((r: { path: string }) => r.path.startsWith("/__emulator"))).toBe(false);
});

it("DELETE /__emulator/requests clears the log and the counts", async () => {
  await h.api("GET", "/v2/dns");
  await h.admin("DELETE", "/__emulator/requests");
  expect((await h.admin("GET", "/__emulator/requests")).body).toEqual({ requests: [], counts: {} });
});

it("POST /__emulator/reset restores the fixture", async () => {
  await h.api("POST", "/v2/streams/push/3001/status", { disabled: 1 });
  await h.api("POST", "/v2/streams/timeshift/new", { _METHOD: "PUT", name: "x", timeshift: 5, parent: 3001 });
  const before = await h.admin("POST", "/__emulator/reset");
  expect(before.body.result).toBe("success");
  const state = await h.state();
  expect(state.pushStreams["3001"].disabled).toBe("0");
  expect(Object.keys(state.timeshiftStreams)).toEqual(["5001"]);
});

it("answers unknown admin paths with 404 and malformed admin bodies with 400", async () => {
  expect((await h.admin("GET", "/__emulator/nope")).status).toBe(404);
  const json = { "content-type": "application/json" };
  expect((await send(h.emu.url + "/__emulator/mutate", "POST", "{not json", json)).status).toBe(400);
  expect((await send(h.emu.url + "/__emulator/faults", "POST", "[1]", json)).status).toBe(400);
  expect((await h.admin("POST", "/__emulator/mutate", "kind=account")).status).toBe(415);
});

it("serves the admin door to loopback clients only", () => {
  for (const a of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"]) expect(isLoopback(a)).toBe(true);
  for (const a of ["10.0.0.2", "192.168.1.5", "::ffff:10.0.0.1", "2001:db8::1", undefined])
    expect(isLoopback(a)).toBe(false);
});
