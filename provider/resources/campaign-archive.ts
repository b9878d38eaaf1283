/**
 * CampaignArchive (§4.3): keeps an ad-manager campaign archived.
 * Identity: project id and campaign id (`<projectId>/<campaignId>`); either replaces.
 * Archiving an archived campaign succeeds unchanged (DESIGN.md), so applying is idempotent.
 * Read: GET /v2/ad-manager/{pid}/campaigns/{cid} (an extension). A campaign found no longer
 * archived means the archive is gone: refresh drops it and the next `up` archives again.
 * Delete: there is no unarchive; the campaign stays archived, and the warning says so.
 */
import { z } from "zod";
import { adManager } from "../client";
import { apiClient } from "../context";
import { positiveId } from "../rules";
import { settingsHandler } from "../settings-handler";

const Args = z.strictObject({
  projectId: positiveId("ad manager project"),
  campaignId: z
    .string({ error: 'must be the campaign\'s id string, e.g. "cmp_7Hq2xK9d"' })
    .min(1, 'must not be empty: give the campaign\'s id, e.g. "cmp_7Hq2xK9d"')
    .regex(/^[^/\s]*$/, "must be a campaign id without slashes or spaces"),
  adoptId: z.string().optional(),
});
type Args = z.infer<typeof Args>;

function outputsOf(campaign: adManager.Campaign) {
  return {
    name: campaign.name ?? null,
    advertiserName: campaign.advertiser_name ?? null,
    status: campaign.status ?? null,
    deliveryStatus: campaign.delivery_status?.status ?? null,
  };
}

export const handler = settingsHandler<Args>({
  kind: "CampaignArchive",
  args: Args,
  inputKeys: ["projectId", "campaignId"],
  rules: { replaceOn: ["projectId", "campaignId"] },

  idOf: (args) => `${args.projectId}/${args.campaignId}`,

  parseId(id) {
    const match = /^(\d+)\/([^/]+)$/.exec(id);
    if (!match) throw new Error(`CampaignArchive id "${id}" is not <projectId>/<campaignId>, e.g. "1/cmp_7Hq2xK9d".`);
    return { projectId: Number(match[1]), campaignId: match[2] };
  },

  async read({ projectId, campaignId }) {
    const { campaign } = await adManager.getCampaign(apiClient(), projectId as number, campaignId as string);
    return campaign.status === "archived" ? { inputs: {}, outputs: outputsOf(campaign) } : "gone";
  },

  async apply(args) {
    const { campaign } = await adManager.archiveCampaign(apiClient(), args.projectId, args.campaignId);
    return outputsOf(campaign);
  },

  released: (id) => `CampaignArchive ${id}: released from the stack; the campaign stays archived (the API has no unarchive).`,
});
