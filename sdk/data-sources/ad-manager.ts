/**
 * Ad manager data sources: projects, campaign targeting, ad-pod request log. Argument and result
 * types derived from the client in ad-manager-types.ts (generated); names follow naming.ts.
 */
import type {
  GetAdManagerProjectsResult,
  GetAdPodRequestsArgs,
  GetAdPodRequestsResult,
  GetCampaignTargetingResult,
} from "./ad-manager-types";
import { apiFields, argNames, id, pageNumber, text } from "./args";
import { outputForm, type DataSourceOptions } from "./client";
import { invoke, onePageOrAll, toResult } from "./invoke";
import { clientModule, onFirstCall } from "./lazy-client";
import { camelize } from "./naming";

/** Arguments of {@link getAdManagerProjects}: none. */
export interface GetAdManagerProjectsArgs {}

/** Arguments of `getCampaignTargeting` (`GET /v2/ad-manager/{pid}/campaigns/{cid}/targeting`). */
export interface GetCampaignTargetingArgs {
  /** The ad manager project (`{pid}` of `GET /v2/ad-manager/{pid}/campaigns/{cid}/targeting`). */
  projectId: number;
  /** The campaign (`{cid}` of `GET /v2/ad-manager/{pid}/campaigns/{cid}/targeting`). */
  campaignId: string;
}

const specs = onFirstCall(({ adManager }, z) => {
  const podRequestNames = { projectId: "pid", ...argNames(adManager.AdPodRequestsBody.shape) };
  const project = id("ad manager project");
  return {
    projects: {
      fn: "getAdManagerProjects",
      op: adManager.ops.listProjects,
      what: "ad manager projects",
      names: {},
    },
    targeting: {
      fn: "getCampaignTargeting",
      op: adManager.ops.getTargeting,
      what: "campaign targeting",
      names: { projectId: "pid", campaignId: "cid" },
      args: z.object({ projectId: project, campaignId: text('campaign\'s id, e.g. "cmp_7Hq2xK9d"') }),
    },
    podRequests: {
      fn: "getAdPodRequests",
      op: adManager.ops.listAdPodRequests,
      what: "the ad-pod request log",
      names: podRequestNames,
      args: z.object({
        ...apiFields(adManager.AdPodRequestsBody.shape, podRequestNames),
        projectId: project,
        page: pageNumber().optional(),
      }),
    },
  };
});

/**
 * List ad manager projects, with the plan's project cap and what remains of it.
 *
 * Calls `GET /v2/ad-manager`.
 */
export function getAdManagerProjects(
  args?: GetAdManagerProjectsArgs,
  options?: DataSourceOptions,
): Promise<GetAdManagerProjectsResult> {
  return invoke(specs().projects, args, options, async (client, _api, request) =>
    toResult(await clientModule().adManager.listProjects(client, request)),
  );
}

/**
 * Show a campaign's targeting; `fromCache` says whether the API served it from cache.
 *
 * Calls `GET /v2/ad-manager/{pid}/campaigns/{cid}/targeting`.
 */
export function getCampaignTargeting(
  args: GetCampaignTargetingArgs,
  options?: DataSourceOptions,
): Promise<GetCampaignTargetingResult> {
  return invoke(specs().targeting, args, options, async (client, api, request) => {
    const { targeting, ...rest } = await clientModule().adManager.getTargeting(client, api.pid, api.cid, request);
    // Flattened, as Pulumi's single-object reads are; `fromCache` and any other top-level field beside it.
    return { ...toResult<object>(rest), ...(camelize(targeting ?? {}) as object) };
  });
}

/**
 * List ad-pod requests of a project: every matching request, each once, with the API's
 * `total` (page 1, then pages 2..`pages` concurrently; 45 requests in pages of 20 take 3 calls;
 * when fewer than `total` have arrived by page `pages`, the pages after it are read until the
 * log ends), or one `page` with its paging fields. Date and range formats are checked before
 * sending.
 *
 * Calls `POST /v2/ad-manager/{pid}/requests`.
 */
export function getAdPodRequests(
  args: GetAdPodRequestsArgs,
  options?: DataSourceOptions,
): Promise<GetAdPodRequestsResult> {
  return invoke(specs().podRequests, args, options, (client, { pid, page, ...body }, request) =>
    onePageOrAll(
      page,
      (page) => clientModule().adManager.listAdPodRequests(client, pid, { ...body, page }, request),
      () => clientModule().adManager.adPodRequests(client, pid, body, request),
    ),
  );
}

/** {@link getAdManagerProjects} as an Output. */
export const getAdManagerProjectsOutput = outputForm(getAdManagerProjects);
/** {@link getCampaignTargeting} as an Output. */
export const getCampaignTargetingOutput = outputForm(getCampaignTargeting);
/** {@link getAdPodRequests} as an Output. */
export const getAdPodRequestsOutput = outputForm(getAdPodRequests);
