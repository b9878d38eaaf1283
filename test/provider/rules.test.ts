/** The shared input rules (kinds/common/rules.ts) and how a broken one reads, through the kinds' `check`. */
import { describeIssues } from "../../client/core/input-issues";
import { handler as pushZoneSettingsFor } from "../../kinds/push-zone-settings/handler";
import { handler as vodPullDomainLockFor } from "../../kinds/vod-pull-domain-lock/handler";
import { HandlerContext } from "../../kinds/common/context";
import { hostname, positiveId } from "../../kinds/common/rules";

const context = new HandlerContext();
const pushZoneSettings = pushZoneSettingsFor(context);
const vodPullDomainLock = vodPullDomainLockFor(context);

describe("hostname", () => {
  it.each([
    "cdn.example.com",
    "*.example.com",
    "shop.example.xn--p1ai", // .рф in its ASCII form
    "xn--80ak6aa92e.xn--p1ai",
    "SHOP.EXAMPLE.XN--P1AI",
    "media.example.xn--vermgensberater-ctb",
    "a-b.example.museum",
  ])("accepts %s", (host) => {
    expect(hostname.safeParse(host).success).toBe(true);
  });

  it.each([
    "localhost",
    "example.xn--",
    "example.xn--p1ai-",
    "example.c0m",
    "https://cdn.example.com",
    "cdn.example.com:443",
    "cdn.example.com/path",
    "-a.example.com",
    "a..example.com",
  ])("refuses %s, saying what a host name is", (host) => {
    expect(describeIssues(hostname, host)).toEqual([
      { path: [], reason: "must be a host name such as cdn.example.com (no scheme, path or port)" },
    ]);
  });

  it("a punycode TLD passes a kind's check (PushZoneSettings customDomains, VodPullDomainLock domains)", async () => {
    expect(
      (await pushZoneSettings.check({}, { zoneId: 101, customDomains: ["shop.example.xn--p1ai"] })).failures,
    ).toBeUndefined();
    expect(
      (await vodPullDomainLock.check({}, { zoneId: 401, domains: ["shop.example.xn--p1ai"] })).failures,
    ).toBeUndefined();
  });
});

describe("a fraction where a whole number belongs", () => {
  it("says it must be a whole number and what was given, not that a number is not a number", () => {
    expect(describeIssues(positiveId("zone"), 101.5)).toEqual([
      { path: [], reason: "must be a whole number, not 101.5" },
    ]);
  });

  it("reads so in a kind's check", async () => {
    expect((await pushZoneSettings.check({}, { zoneId: 101.5, customDomains: ["cdn.example.com"] })).failures).toEqual([
      { property: "zoneId", reason: "must be a whole number, not 101.5" },
    ]);
  });

  it("a value of the wrong JSON type still says its type", () => {
    expect(describeIssues(positiveId("zone"), "101")).toEqual([
      {
        path: [],
        reason: expect.stringMatching(/^must be the zone's numeric id, not a string: write the number without quotes/),
      },
    ]);
  });
});
