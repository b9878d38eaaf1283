/** --strict-spec: the read extensions answer 404 for the path itself; spec operations still work. */
import { expectError, harness, Harness } from "./helpers";

let strict: Harness;
let lenient: Harness;
beforeAll(async () => {
  [strict, lenient] = await Promise.all([harness({ strictSpec: true }), harness()]);
});
afterAll(() => Promise.all([strict.close(), lenient.close()]));

const EXTENSIONS = [
  ["/v2/zones/http/push/101", "GET /v2/zones/http/push/{zoneid}"],
  ["/v2/zones/vod/pull/401", "GET /v2/zones/vod/pull/{zoneid}"],
  ["/v2/streams/push/3001", "GET /v2/streams/push/{streamid}"],
  ["/v2/streams/timeshift/5001", "GET /v2/streams/timeshift/{streamid}"],
  ["/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d", "GET /v2/ad-manager/{pid}/campaigns/{cid}"],
  ["/v2/zones/vod/push/301/adinsertion", "GET /v2/zones/vod/push/{zoneid}/adinsertion"],
  ["/v2/zones/http/settings/security/domainlock", "GET /v2/zones/http/settings/security/domainlock"],
];

it.each(EXTENSIONS)("GET %s is served normally and is 404 'not part of the API' under --strict-spec", async (path, operation) => {
  expect((await lenient.api("GET", path)).status).toBe(200);
  expectError(await strict.api("GET", path), 404, operation, "not part of the API");
});

it("still serves the spec's operations on the same paths", async () => {
  expect((await strict.api("POST", "/v2/zones/http/push/101", { cnames: "" })).status).toBe(200);
  expect((await strict.api("POST", "/v2/streams/push/3001/status", { disabled: 0 })).status).toBe(200);
  expect((await strict.api("GET", "/v2/dns")).status).toBe(200);
  expect((await strict.api("POST", "/v2/zones/http/settings/security/domainlock", { mode: "save" })).status).toBe(200);
});
