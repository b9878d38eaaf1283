/** The default fixture: generated deterministically, complete per family, and the fixture format rules. */
import * as fs from "node:fs";
import * as path from "node:path";
import { defaultFixture } from "../../emulator/fixtures/generate";
import { defaultFixturePath, parseFixture } from "../../emulator/store";
import { expectError, harness } from "./helpers";

const file = path.join(__dirname, "../../emulator/fixtures/default.json");

it("default.json is exactly what the generator writes (regenerate after editing gen-*.ts)", () => {
  expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(JSON.parse(JSON.stringify(defaultFixture())));
  expect(defaultFixturePath()).toBe(file);
});

it("holds the families and counts the emulator promises", () => {
  const f = parseFixture(file);
  const count = (k: keyof typeof f) => Object.keys(f[k]).length;
  expect(count("httpPullZones")).toBeGreaterThanOrEqual(45);
  expect(count("httpPushZones")).toBeGreaterThanOrEqual(2);
  const vodWithAds = Object.values(f.vodPushZones).filter((z) => z.adinsertion);
  expect(vodWithAds.length).toBeGreaterThanOrEqual(2);
  for (const z of vodWithAds)
    expect(z.adinsertion.vodAdBreakPolicy).toMatchObject({
      preRoll: null,
      midRolls: [],
      postRoll: null,
      midRollInterval: null,
    });
  expect(count("vodPullZones")).toBeGreaterThanOrEqual(2);
  for (const k of ["pushStreams", "pullStreams", "timeshiftStreams", "dnsZones", "backups", "creatives"] as const)
    expect(count(k)).toBeGreaterThan(0);
  const purges = Object.values(f.purges);
  expect(purges.some((p) => p.completed_at === "") && purges.some((p) => p.completed_at !== "")).toBe(true);
  expect(count("adBreaks")).toBeGreaterThan(40);
  expect(count("adPodRequests")).toBeGreaterThan(40);
  expect(Object.values(f.campaigns).some((c) => c.status === "active")).toBe(true);
  expect(f.account).toMatchObject({ customPlan: true, advancedAnalytics: true });
});

it("rejects unknown kinds and keys that differ from the id", () => {
  expect(() => parseFixture({ pushstreams: {} })).toThrow(/unrecognized key|pushstreams/i);
  expect(() => parseFixture({ creatives: { a: { crid: "b" } } })).toThrow(
    /creatives\.a: key must equal the object's crid/,
  );
  expect(() => parseFixture({ account: { customPlan: "yes" } })).toThrow(/account\.customPlan/);
});

it("loads a minimal fixture object; a missing plan flag means no custom plan", async () => {
  const h = await harness({
    fixture: {
      vodPushZones: { "7": { id: 7, adinsertion: { vodAdBreakPolicy: { midRolls: [] } } } },
      account: { advancedAnalytics: true },
    },
  });
  try {
    expect((await h.api("GET", "/v2/dns")).body).toEqual({ result: "success", domains: [], nameservers: [] });
    expectError(
      await h.api("POST", "/v2/zones/vod/push/7/adinsertion/schedule", {
        _METHOD: "PUT",
        type: "preroll",
        maxDurationS: 5,
      }),
      403,
      "custom plan",
    );
    await h.admin("POST", "/__emulator/mutate", { kind: "account", patch: { customPlan: true } });
    expect(
      (
        await h.api("POST", "/v2/zones/vod/push/7/adinsertion/schedule", {
          _METHOD: "PUT",
          type: "preroll",
          maxDurationS: 5,
        })
      ).status,
    ).toBe(200);
  } finally {
    await h.close();
  }
});
