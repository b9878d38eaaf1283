/** CampaignArchive (§4.3), declared once: keeps an ad-manager campaign archived. */
import { z } from "zod";
import { positiveId } from "../common/rules";
import { declareKind } from "../common/declare";

export const declaration = declareKind({
  name: "CampaignArchive",
  folder: "campaign-archive",
  spec: ["§4.3", "§2.15"],
  idFormat: "<projectId>/<campaignId>",
  idExample: "1/cmp_7Hq2xK9d",
  inputs: {
    projectId: { rule: positiveId("ad manager project"), replaces: true },
    campaignId: {
      rule: z
        .string({ error: 'must be the campaign\'s id string, e.g. "cmp_7Hq2xK9d"' })
        .min(1, 'must not be empty: give the campaign\'s id, e.g. "cmp_7Hq2xK9d"')
        .regex(/^[^/\s]*$/, "must be a campaign id without slashes or spaces"),
      replaces: true,
    },
  },
  // `status` is the word the archive call returned: a refresh compares the live status with it (§3: not shown).
  outputs: { name: {}, advertiserName: {}, status: {}, deliveryStatus: {} },
});
