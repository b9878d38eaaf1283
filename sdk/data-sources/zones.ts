/** Zone data sources: HTTP pull zones, purge / prefetch progress. Types in zone-types.ts; names follow naming.ts. */
import { id, pageNumber, text } from "./args";
import { outputForm, type DataSourceOptions } from "./client";
import { invoke, toResult } from "./invoke";
import { clientModule, onFirstCall } from "./lazy-client";
import { camelize } from "./naming";
import type { HttpPullZone, PurgeLog, PurgeOperation } from "./zone-types";

/** Arguments of {@link getHttpPullZones}. */
export interface GetHttpPullZonesArgs {
  /**
   * One page (from 1) instead of every zone (`page` of `GET /v2/zones/http/pull`). How many zones a page holds is the
   * API's choice (`GET /v2/zones/http/pull` does not show it).
   */
  page?: number;
}

/**
 * Result of {@link getHttpPullZones}. It carries credentials (`ftpDetails.password`,
 * `cdnService.authToken`, `secureToken.list`, `s3Details.token`), so the Output form is secret.
 */
export interface GetHttpPullZonesResult {
  /** The account's HTTP pull zones (`zones` of `GET /v2/zones/http/pull`, the API's zone object): all of them, or the page asked for. */
  zones: HttpPullZone[];
  /** The page returned; set only when `page` was given. */
  page?: number;
  /**
   * Whether no later page holds other zones. `GET /v2/zones/http/pull` reports neither a page count nor a page size,
   * so the next page is read alongside this one (two requests, one round trip): this page is the
   * last when the next one is empty or brings no zone this one lacks (a server that repeats its
   * last page past the end). A page past the end says `true` too. Set only when `page` was given.
   */
  lastPage?: boolean;
}

/** Arguments of {@link getPurgeOperation}. */
export interface GetPurgeOperationArgs {
  /** The HTTP push zone (`{zoneid}` of `GET /v2/zones/http/push/{zoneid}/purge/{purgeId}`). */
  zoneId: number;
  /** The operation's id, from the purge or prefetch call or the purge history (`{purgeId}` of `GET /v2/zones/http/push/{zoneid}/purge/{purgeId}`). */
  purgeId: string;
}

/** Result of {@link getPurgeOperation}: the purge operation's fields camelCased, plus progress derived from them. */
export interface GetPurgeOperationResult extends PurgeOperation {
  /** Per-server progress (`logs` of the purge operation), as the API sends it; `[]` when absent. */
  logs: PurgeLog[];
  /** `true` while `completedAt` is empty or null, or absent (the API's object states: the operation is pending). */
  pending: boolean;
  /** Honest counts of the `logs` entries, as returned, with nothing subtracted. */
  logCounts: {
    /** Entries in `logs`. */
    total: number;
    /** Entries with `completed: true`. */
    completed: number;
    /** Entries with `completed: false` (pending servers, the API's object states). */
    pending: number;
  };
  /**
   * The counts the dashboard's purge history view shows, by its formulas (`GET /v2/zones/http/push/{zoneid}/purge/{purgeId}`), to match the
   * dashboard: 'Total Server' = `logs` length minus 1, 'Cache pending' = entries with
   * `completed: false` minus 1. The one subtracted is presumably an entry that is not an edge
   * server (the emulator models it as a never-completing dispatcher entry); the spec does not
   * say. Not clamped: with an empty log, or no pending entry, the formula gives -1.
   */
  historyView: {
    /** The dashboard's 'Total Server': entries of `logs` minus 1. */
    totalServer: number;
    /** The dashboard's 'Cache pending': entries with `completed: false` minus 1. */
    cachePending: number;
  };
}

const specs = onFirstCall(({ zones }, z) => ({
  pull: {
    fn: "getHttpPullZones",
    op: zones.ops.listPullZones,
    what: "HTTP pull zones",
    names: { page: "page" },
    args: z.object({ page: pageNumber().optional() }),
  },
  purge: {
    fn: "getPurgeOperation",
    op: zones.ops.getPurge,
    what: "purge operations",
    names: { zoneId: "zoneid", purgeId: "purgeId" },
    args: z.object({
      zoneId: id("HTTP push zone"),
      purgeId: text('purge or prefetch operation\'s id, e.g. "pg-8b41d0e5"'),
    }),
  },
}));

/**
 * Pages fetched at once after page 1. `GET /v2/zones/http/pull` reports no page count and no page size, so the end
 * shows only as a page that is empty or repeats zones already seen, and each page fetched past it
 * is a wasted request: two at a time wastes at most one and halves the round trips of reading
 * page by page (47 zones in pages of 20: page 1, then 2 and 3, then 4 (empty) and 5: 5 requests,
 * 3 round trips).
 */
const PULL_ZONE_BATCH = 2;

/**
 * List HTTP pull zones: every zone, each once, however the API pages them (pages are read
 * until one is empty or brings no new zone; a listing that never ends fails at 10,000 pages
 * rather than return part of it), or one `page` of them with `lastPage`.
 *
 * Calls `GET /v2/zones/http/pull`.
 */
export function getHttpPullZones(
  args: GetHttpPullZonesArgs = {},
  options?: DataSourceOptions,
): Promise<GetHttpPullZonesResult> {
  return invoke(specs().pull, args, options, async (client, api, request) => {
    if (api.page !== undefined) {
      const { lastPage, ...one } = await clientModule().zones.pullZonePage(client, api.page, request);
      return { ...toResult<{ zones: HttpPullZone[] }>(one), page: api.page, lastPage };
    }
    return {
      zones: camelize(
        await clientModule().zones.pullZones(client, request, { batch: PULL_ZONE_BATCH }).all(),
      ) as HttpPullZone[],
    };
  });
}

/**
 * Get purge / prefetch details: whether it is pending, and each server's progress.
 *
 * Calls `GET /v2/zones/http/push/{zoneid}/purge/{purgeId}`.
 */
export function getPurgeOperation(
  args: GetPurgeOperationArgs,
  options?: DataSourceOptions,
): Promise<GetPurgeOperationResult> {
  return invoke(specs().purge, args, options, async (client, api, request) => {
    const operation = toResult<PurgeOperation>(
      await clientModule().zones.getPurge(client, api.zoneid, api.purgeId, request),
    );
    const logs = operation.logs ?? [];
    const pendingLogs = logs.filter((l) => l.completed === false).length;
    return {
      ...operation,
      logs,
      pending: !operation.completedAt?.trim(),
      logCounts: {
        total: logs.length,
        completed: logs.filter((l) => l.completed === true).length,
        pending: pendingLogs,
      },
      historyView: { totalServer: logs.length - 1, cachePending: pendingLogs - 1 },
    };
  });
}

/** {@link getHttpPullZones} as an Output, secret as a whole: zones carry credentials. */
export const getHttpPullZonesOutput = outputForm(getHttpPullZones, { secret: true });
/** {@link getPurgeOperation} as an Output. */
export const getPurgeOperationOutput = outputForm(getPurgeOperation);
