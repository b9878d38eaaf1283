/**
 * Ad insertion data sources (custom plan): tracking report, consumption, ad-break log, creative.
 * Argument and result types derived from the client in ad-insertion-types.ts (generated); names
 * follow naming.ts (camelCase).
 */
import type { adInsertion } from "../../client";
import type {
  GetAdBreaksArgs,
  GetAdBreaksResult,
  GetAdConsumptionArgs,
  GetAdConsumptionResult,
  GetAdCreativeResult,
  GetAdTrackingReportArgs,
  GetAdTrackingReportResult,
} from "./ad-insertion-types";
import { apiFields, argNames, id, pageNumber, text } from "./args";
import { outputForm, type DataSourceOptions } from "./client";
import { invoke, onePageOrAll, toResult } from "./invoke";
import { clientModule, onFirstCall } from "./lazy-client";

/** Arguments of `getAdCreative` (`GET /v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}`, custom plan and advanced analytics add-on). */
export interface GetAdCreativeArgs {
  /** The VoD push zone (`{zoneid}` of `GET /v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}`). */
  zoneId: number;
  /** The creative id from the VAST/VMAP creative element (`{crid}` of `GET /v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}`). */
  crid: string;
}

const specs = onFirstCall(({ adInsertion }, z) => {
  const trackingNames = { streamId: "streamid", ...argNames(adInsertion.TrackingReportQuery.shape) };
  /** `GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`: filters other than crid and session_id need the advanced analytics add-on. */
  const addOnFilters = Object.keys(trackingNames).filter(
    (f) => !["streamId", "r", "crid", "sessionId", "granularity"].includes(f),
  );
  const consumptionNames = { streamId: "streamid", ...argNames(adInsertion.ConsumptionBody.shape) };
  const breakNames = { zoneId: "zoneid", page: "page", ...argNames(adInsertion.AdBreaksQuery.shape) };
  return {
    tracking: {
      fn: "getAdTrackingReport",
      op: adInsertion.ops.getTrackingReport,
      what: "the ad insertion tracking report",
      names: trackingNames,
      args: z.object({
        streamId: id("push stream"),
        ...apiFields(adInsertion.TrackingReportQuery.shape, trackingNames),
      }),
      needs: { customPlan: true, addOn: addOnFilters },
    },
    consumption: {
      fn: "getAdConsumption",
      op: adInsertion.ops.getConsumption,
      what: "ad consumption",
      names: consumptionNames,
      args: z.object({
        streamId: id("pull stream"),
        ...apiFields(adInsertion.ConsumptionBody.shape, consumptionNames),
      }),
      needs: { customPlan: true },
    },
    breaks: {
      fn: "getAdBreaks",
      op: adInsertion.ops.listAdBreaks,
      what: "the ad-break log",
      names: breakNames,
      args: z.object({
        ...apiFields(adInsertion.AdBreaksQuery.shape, breakNames),
        zoneId: id("VoD pull zone"),
        page: pageNumber().optional(),
      }),
      needs: { customPlan: true, addOn: true },
    },
    creative: {
      fn: "getAdCreative",
      op: adInsertion.ops.getCreative,
      what: "ad insertion creatives",
      names: { zoneId: "zoneid", crid: "crid" },
      args: z.object({ zoneId: id("VoD push zone"), crid: text("creative id (from the VAST/VMAP creative element)") }),
      needs: { customPlan: true, addOn: true },
    },
  };
});

/**
 * Get the ad insertion tracking report of a push stream. The granularity set and the range
 * cap (granularity x 1440 minutes) are checked before sending; the error names the largest valid
 * range. A 403 names the custom plan, or the add-on and the filters that need it.
 *
 * Calls `GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`.
 */
export function getAdTrackingReport(
  args: GetAdTrackingReportArgs,
  options?: DataSourceOptions,
): Promise<GetAdTrackingReportResult> {
  return invoke(specs().tracking, args, options, async (client, { streamid, ...query }, request) =>
    toResult(await clientModule().adInsertion.getTrackingReport(client, streamid, query, request)),
  );
}

/**
 * Get the ad consumption of a pull stream; `groupBy` and `r` are checked before sending.
 *
 * Calls `POST /v2/streams/pull/{streamid}/adinsertion/consumption`.
 */
export function getAdConsumption(
  args: GetAdConsumptionArgs,
  options?: DataSourceOptions,
): Promise<GetAdConsumptionResult> {
  return invoke(specs().consumption, args, options, async (client, { streamid, ...body }, request) =>
    toResult(
      await clientModule().adInsertion.getConsumption(client, streamid, body as adInsertion.ConsumptionBody, request),
    ),
  );
}

/**
 * List ad breaks of a VoD pull zone: every matching item, each once, with the API's `total`
 * (page 1, then pages 2..`pages` concurrently; 45 items in pages of 20 take 3 requests; when
 * fewer than `total` have arrived by page `pages`, the pages after it are read until the log
 * ends), or one `page` with its paging fields.
 *
 * Calls `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`.
 */
export function getAdBreaks(args: GetAdBreaksArgs, options?: DataSourceOptions): Promise<GetAdBreaksResult> {
  return invoke(specs().breaks, args, options, (client, { zoneid, page, ...query }, request) =>
    onePageOrAll(
      page,
      (page) => clientModule().adInsertion.listAdBreaks(client, zoneid, { ...query, page }, request),
      () => clientModule().adInsertion.adBreaks(client, zoneid, query, request),
    ),
  );
}

/**
 * Show an ad insertion creative of a VoD push zone.
 *
 * Calls `GET /v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}`.
 */
export function getAdCreative(args: GetAdCreativeArgs, options?: DataSourceOptions): Promise<GetAdCreativeResult> {
  return invoke(specs().creative, args, options, async (client, api, request) =>
    toResult(await clientModule().adInsertion.getCreative(client, api.zoneid, api.crid, request)),
  );
}

/** {@link getAdTrackingReport} as an Output. */
export const getAdTrackingReportOutput = outputForm(getAdTrackingReport);
/** {@link getAdConsumption} as an Output. */
export const getAdConsumptionOutput = outputForm(getAdConsumption);
/** {@link getAdBreaks} as an Output. */
export const getAdBreaksOutput = outputForm(getAdBreaks);
/** {@link getAdCreative} as an Output. */
export const getAdCreativeOutput = outputForm(getAdCreative);
