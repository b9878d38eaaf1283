/** §5 authentication: the key header, 401 and 403 with the §5 envelope. */
import { harness, Harness, send } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness({ forbiddenKey: "restricted-key" });
});
afterAll(() => h.close());

const url = (path: string) => h.emu.url + path;

it.each(["X-API-KEY", "x-api-key", "X-Api-Key", "x-API-key"])("accepts the key in header %s", async (name) => {
  const res = await send(url("/v2/dns"), "GET", undefined, { [name]: h.emu.apiKey });
  expect(res.status).toBe(200);
});

it("answers 401 with the §5 envelope when the key is missing", async () => {
  const res = await send(url("/v2/dns"), "GET");
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ status: "error", errors: [{ code: 401, message: expect.stringContaining("required") }] });
});

it("answers 401 for a wrong key, including an empty one and one that differs in length", async () => {
  for (const key of ["wrong", "", h.emu.apiKey + "x", h.emu.apiKey.toUpperCase()]) {
    const res = await send(url("/v2/cb"), "GET", undefined, { "x-api-key": key });
    expect(res.status).toBe(401);
    expect(res.body.status).toBe("error");
    expect(res.body.errors[0].code).toBe(401);
  }
  const wrong = await send(url("/v2/cb"), "GET", undefined, { "x-api-key": "wrong" });
  expect(wrong.body.errors[0].message).toContain("invalid");
});

it("answers 403 with the §5 envelope for the forbidden key on every operation", async () => {
  for (const [method, path] of [
    ["GET", "/v2/dns"],
    ["POST", "/v2/streams/push/3001/status"],
    ["GET", "/v2/ad-manager"],
  ]) {
    const res = await send(url(path), method, method === "POST" ? { disabled: 1 } : undefined, {
      "x-api-key": "restricted-key",
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      status: "error",
      errors: [{ code: 403, message: expect.stringContaining("permission") }],
    });
  }
});

it("authenticates before it routes, so unknown paths do not leak to anonymous callers", async () => {
  expect((await send(url("/v2/nothing-here"), "GET")).status).toBe(401);
  expect((await h.api("GET", "/v2/nothing-here")).status).toBe(404);
});

it("generates a random key when none is given", async () => {
  const { startEmulator } = await import("../../emulator");
  const a = await startEmulator();
  const b = await startEmulator();
  try {
    expect(a.apiKey).not.toEqual(b.apiKey);
    expect(a.apiKey.length).toBeGreaterThanOrEqual(32);
    expect((await send(a.url + "/v2/dns", "GET", undefined, { "x-api-key": a.apiKey })).status).toBe(200);
    expect((await send(a.url + "/v2/dns", "GET", undefined, { "x-api-key": b.apiKey })).status).toBe(401);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
