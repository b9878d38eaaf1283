/**
 * Argument rules of the data sources, in the names programs write. `invoke` checks them before
 * it resolves the client, so a bad argument is reported (naming the argument and the rule)
 * whatever the configuration, and nothing is sent. Rules the API client already holds (the
 * tracking report's granularity, consumption's groupBy, range and date formats) are taken from
 * its schemas, renamed; its whole-request rules (the tracking report's range cap, the ad-pod
 * request log's from/to order) still run in the client, also before sending.
 *
 * Internal to the SDK: every export is `@internal`, so the published declarations
 * (`stripInternal`) keep no zod type, which a user's `tsc` would have to check.
 */
import type { z } from "zod";
import { zodModule } from "./lazy-client";
import { camelKey } from "./naming";

// Each rule is built when a data source first describes its calls (./lazy-client.ts): not when
// the SDK loads, which would load zod into every program.

/** An integer id of the path (`{zoneid}`, `{streamid}`, `{pid}`, `{backupid}`, the API's operations): above 0. @internal */
export function id(what: string) {
  const rule = `must be a whole number above 0 (the ${what}'s id)`;
  return zodModule().z.number({ error: rule }).int(rule).positive(rule);
}

/** A string id of the path (`{cid}`, `{crid}`, `{purgeId}`, the API's operations). @internal */
export function text(what: string) {
  return zodModule()
    .z.string({ error: `must be the ${what} as a string` })
    .min(1, `must not be empty: give the ${what}`);
}

/** A page number (`POST /v2/ad-manager/{pid}/requests`, `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`, `GET /v2/zones/http/pull`). @internal */
export function pageNumber() {
  return zodModule()
    .z.number({ error: "must be a page number, 1 or more" })
    .int("must be a whole number (pages start at 1)")
    .min(1, "must be 1 or more (pages start at 1)");
}

/**
 * The arguments of a client request schema: each field under the name programs write (naming.ts,
 * as results: `session_id` -> `sessionId`, `subdivision_1_geoname_ids` -> `subdivision1GeonameIds`),
 * argument -> API field, in the schema's order. @internal
 */
export function argNames(shape: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(Object.keys(shape).map((api) => [camelKey(api), api]));
}

/** The client's field schemas under the arguments' names (`names`: argument -> API field). @internal */
export function apiFields(
  shape: Readonly<Record<string, z.ZodType>>,
  names: Readonly<Record<string, string>>,
): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(names).flatMap(([arg, api]) => (shape[api] ? [[arg, shape[api]]] : [])));
}
