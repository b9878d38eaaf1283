/**
 * CampaignArchive (§4.3): what it does for users, and the status word it records, are the class's
 * doc (resource.ts). Archiving an archived campaign succeeds unchanged, so applying is idempotent.
 */
import * as adManager from "../../client/resources/ad-manager";
import { settingsHandler } from "../common/handlers/settings";
import type { ArgsOf } from "../common/declare";
import { declaration } from "./declaration";

type Args = ArgsOf<typeof declaration>;

function outputsOf(campaign: adManager.Campaign) {
  return {
    name: campaign.name ?? null,
    advertiserName: campaign.advertiser_name ?? null,
    status: campaign.status ?? null,
    deliveryStatus: campaign.delivery_status?.status ?? null,
  };
}

/**
 * Adoption has no recorded word to compare with: it takes a status that names archiving in any
 * case (`archived`, `ARCHIVED`, `Archived`) as archived, and refuses any other, naming it.
 */
const ARCHIVED_WORD = /archiv/i;

export const handler = settingsHandler<Args>((context) => ({
  declaration,

  readPath: adManager.ops.getCampaign,

  async read({ projectId, campaignId }, recorded) {
    const { campaign } = await adManager.getCampaign(context.client(), projectId as number, campaignId as string);
    const live = { inputs: {}, outputs: outputsOf(campaign) };
    if (recorded === undefined) {
      if (typeof campaign.status === "string" && ARCHIVED_WORD.test(campaign.status)) return live;
      throw new Error(
        `CampaignArchive adoptId "${projectId}/${campaignId}": cannot adopt: it is not in the state this kind manages: its ` +
          `status is ${JSON.stringify(campaign.status ?? null)}, not archived. Remove adoptId to archive it instead.`,
      );
    }
    const archivedAs = recorded.status;
    // An archive call that returned no status leaves nothing to compare with: the archive is kept.
    if (typeof archivedAs !== "string") return { ...live, outputs: { ...live.outputs, status: null } };
    return campaign.status === archivedAs ? live : "gone";
  },

  async apply(args) {
    const answer = await adManager.archiveCampaign(context.client(), args.projectId, args.campaignId);
    context.reportNotes("CampaignArchive", `${args.projectId}/${args.campaignId}`, answer);
    return outputsOf(answer.campaign);
  },

  released: (id) =>
    `CampaignArchive ${id}: released from the stack; the campaign stays archived (the API has no unarchive).`,
}));
