/**
 * What a handler module exports (its routes) and the helpers handlers share: id lookup with 404,
 * and the plan / add-on gates.
 */
import { notFound, planRequired } from "./errors";
import { ServerProfile } from "./profile";
import { Kind, Obj, Store } from "./store";

/** Everything a handler gets for one request. */
export interface Ctx {
  store: Store;
  /** Decoded path parameters, by the names used in the path template. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body; `{}` when the request had none. */
  body: Obj;
  /** The request time; every timestamp a write sets comes from it. */
  now: Date;
  /** The server profile this request is answered under (fixed for the request). */
  profile: ServerProfile;
}

/** One operation: method, path template (as in spec §4) and handler returning the JSON body. */
export interface Route {
  method: "GET" | "POST";
  path: string;
  handler: (ctx: Ctx) => unknown;
  /** A read path the spec lacks (DESIGN.md "Reads for refresh and import"); off under reads=spec-only (--strict-spec). */
  extension?: boolean;
}

/**
 * The object `id` of `kind`, or a 404 naming it. Integer-typed ids (§4: zone, stream, project and
 * backup ids) that are not integers are answered 404 too: no such object can exist.
 */
export function lookup(ctx: Ctx, kind: Kind, id: string, label: string, integer = true): Obj {
  if (integer && !/^\d{1,15}$/.test(id)) throw notFound(`${label} '${id}' not found: ids are integers`);
  const obj = ctx.store.get(kind, id);
  if (!obj) throw notFound(`${label} ${id} not found`);
  return obj;
}

/** §1: ad insertion is for accounts on the custom plan. */
export function requireCustomPlan(ctx: Ctx, operation: string): void {
  if (!ctx.store.state.account.customPlan) {
    throw planRequired(`${operation} requires the custom plan; this account is not on the custom plan`);
  }
}

/** §4.6, §4.9, §4.18: some analytics need the advanced analytics add-on. */
export function requireAddOn(ctx: Ctx, what: string): void {
  if (!ctx.store.state.account.advancedAnalytics) {
    throw planRequired(`${what} requires the advanced analytics add-on; this account does not have it`);
  }
}

/** A list page (§4.7, §4.9, §4.10): 20 items; a page past the end is empty. */
const PAGE_SIZE = 20;

/** Slices one page out of `items` with the paging fields of §4.7 / §4.9. */
export function paginate<T>(items: T[], page: number): { items: T[]; total: number; page: number; limit: number; pages: number } {
  const start = (page - 1) * PAGE_SIZE;
  return {
    items: items.slice(start, start + PAGE_SIZE),
    total: items.length,
    page,
    limit: PAGE_SIZE,
    pages: Math.ceil(items.length / PAGE_SIZE),
  };
}
