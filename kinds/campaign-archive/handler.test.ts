/** check and diff of CampaignArchive: no API call involved. */
import { handler as handlerFor } from "./handler";
import { HandlerContext } from "../common/context";

/** The handler as a provider host makes it: one context for the file, as for one run. */
const campaignArchive = handlerFor(new HandlerContext());

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
