/** --strict-spec: the read extensions answer 404 for the path itself; spec operations still work. */
import { expectError, harness, Harness, READ_EXTENSIONS } from "./helpers";

let strict: Harness;
let lenient: Harness;
beforeAll(async () => {
  [strict, lenient] = await Promise.all([harness({ strictSpec: true }), harness()]);
});
afterAll(() => Promise.all([strict.close(), lenient.close()]));

it.each(READ_EXTENSIONS)(
  "GET %s is served normally and is 404 'not part of the API' under --strict-spec",
  async (path, operation) => {
    expect((await lenient.api("GET", path)).status).toBe(200);
    expectError(await strict.api("GET", path), 404, operation, "not part of the API");
  },
);

it("still serves the spec's operations on the same paths", async () => {
  expect((await strict.api("POST", "/v2/zones/http/push/101", { cnames: "" })).status).toBe(200);
  expect((await strict.api("POST", "/v2/streams/push/3001/status", { disabled: 0 })).status).toBe(200);
  expect((await strict.api("GET", "/v2/dns")).status).toBe(200);
  expect((await strict.api("POST", "/v2/zones/http/settings/security/domainlock", { mode: "save" })).status).toBe(200);
});
