/** check and diff of CampaignArchive: no API call involved. */
import { handler as campaignArchive } from "./handler";

describe("CampaignArchive", () => {
  it("checks the ids and replaces when either changes", async () => {
    expect(
      (await campaignArchive.check({}, { projectId: 0, campaignId: "" })).failures?.map((f) => f.property),
    ).toEqual(["projectId", "campaignId"]);
    const olds = { projectId: 1, campaignId: "cmp_a" };
    expect(await campaignArchive.diff("1/cmp_a", olds, olds)).toMatchObject({ changes: false });
    expect(await campaignArchive.diff("1/cmp_a", olds, { projectId: 1, campaignId: "cmp_b" })).toMatchObject({
      replaces: ["campaignId"],
    });
  });
});
