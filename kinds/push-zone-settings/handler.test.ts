/** check and diff of PushZoneSettings: no API call involved. */
import { handler as handlerFor } from "./handler";
import { HandlerContext } from "../common/context";

/** The handler as a provider host makes it: one context for the file, as for one run. */
const pushZoneSettings = handlerFor(new HandlerContext());

describe("PushZoneSettings", () => {
  it("rejects malformed domains, profiles and webhooks, and an empty declaration", async () => {
    const result = await pushZoneSettings.check(
      {},
      {
        zoneId: 101,
        customDomains: ["https://cdn.example.com"],
        transcodingProfiles: ["x1"],
        transcodeWebhook: "ftp://hooks.example.com",
      },
    );
    expect(result.failures?.map((f) => f.property)).toEqual([
      "customDomains[0]",
      "transcodingProfiles[0]",
      "transcodeWebhook",
    ]);
    expect(
      (await pushZoneSettings.check({}, { zoneId: 101, customDomains: "cdn.example.com", transcodingProfiles: 3 }))
        .failures,
    ).toEqual([
      {
        property: "customDomains",
        reason: expect.stringMatching(
          /^must be a list of host names, such as \["cdn\.example\.com"\], not a string: write a list/,
        ),
      },
      {
        property: "transcodingProfiles",
        reason: expect.stringMatching(/^must be a list of profile ids, such as \[3\], not a number/),
      },
    ]);
    expect((await pushZoneSettings.check({}, { zoneId: 101 })).failures).toEqual([
      { property: "", reason: expect.stringContaining("declare at least one of customDomains") },
    ]);
  });

  it("compares domains as a case-insensitive set and profiles as a set", async () => {
    const olds = { zoneId: 101, customDomains: ["a.example.com", "B.example.com"], transcodingProfiles: ["1", "2"] };
    const news = { zoneId: 101, customDomains: ["b.example.com", "a.example.com"], transcodingProfiles: [2, 1] };
    expect(await pushZoneSettings.diff("101", olds, news)).toMatchObject({ changes: false });
    expect(await pushZoneSettings.diff("101", olds, { ...news, zoneId: 102 })).toMatchObject({ replaces: ["zoneId"] });
  });
});
