import * as pulumi from "@pulumi/pulumi";
import { registration } from "../resource";
import type { Declares } from "../common/declare";
import type { declaration } from "./declaration";
import { KINDS } from "../registry";

/** Arguments of a {@link CampaignArchive}. */
export interface CampaignArchiveArgs {
  /** The ad manager project's id (`{pid}` of `POST /v2/ad-manager/{pid}/campaigns/{cid}/archive`). Changing it replaces the resource. */
  projectId: pulumi.Input<number>;
  /** The campaign's id (`{cid}` of `POST /v2/ad-manager/{pid}/campaigns/{cid}/archive`). Changing it replaces the resource. */
  campaignId: pulumi.Input<string>;
  /**
   * Adopt the existing object with this id (format `1/cmp_7Hq2xK9d`) instead of writing the declared
   * settings: `create` reads it and fails, naming each difference, unless the declared values
   * equal the live ones, so adopting changes nothing. Use it where you would use the `import`
   * option, which dynamic resources of @pulumi/pulumi 3.246 cannot serve. Ignored after creation.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * Keeps an ad-manager campaign archived: it stops delivering and leaves the project's
 * active-campaign count.
 *
 * Archived through `POST /v2/ad-manager/{pid}/campaigns/{cid}/archive`. An import takes a campaign
 * that is already archived (its status names archiving, in any case). The spec does not give the
 * status word after archiving, so none is assumed: `status` records what the archive call
 * returned, and refresh compares the live status with it. A campaign whose status is no longer that
 * word drops out of state, and the next `up` archives it again. Where the API has no read for a
 * campaign, refresh keeps the last applied state and says once that drift cannot be detected. The
 * API has no unarchive: destroying the resource leaves the campaign archived, and says so.
 *
 * @typescriptOnly In TypeScript, an archived campaign is taken over with `adoptId` where other
 * languages run `pulumi import`.
 */
export class CampaignArchive extends pulumi.CustomResource {
  /** The ad manager project's id. */
  declare readonly projectId: pulumi.Output<number>;
  /** The campaign's id. */
  declare readonly campaignId: pulumi.Output<string>;
  /** The campaign's name (the campaign). */
  declare readonly name: pulumi.Output<string | null>;
  /** The advertiser's name (the campaign). */
  declare readonly advertiserName: pulumi.Output<string | null>;
  /** The campaign's status as the archive call returned it (`status` of the campaign; the word is the API's). */
  declare readonly status: pulumi.Output<string | null>;
  /** The delivery status (`delivery_status.status` of the campaign, e.g. `ended`). */
  declare readonly deliveryStatus: pulumi.Output<string | null>;

  constructor(name: string, args: CampaignArchiveArgs, opts?: pulumi.CustomResourceOptions) {
    const registered = registration(KINDS.CampaignArchive, name, args, opts);
    try {
      super(registered.type, name, registered.props, registered.options);
    } finally {
      registered.restoreStacks();
    }
  }
}

const _bound: Declares<typeof declaration, CampaignArchiveArgs, CampaignArchive> = true;
