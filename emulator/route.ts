/** What a handler module exports (its routes) and the helpers handlers share: lookup, gates, paging. */
import { EmulatorError, notFound } from "./errors";
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
  /** Marks a write of §4 for writeNotes: the `message` sent when the operation sends none. */
  write?: string;
  /** A read path the spec lacks (docs/design.md, "Single-object reads"); off under reads=spec-only (--strict-spec). */
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

/** A read extension of the one object its path names: `{result: "success", [key]: object}`. */
export const readRoute = (path: string, key: string, kind: Kind, label: string, present = (o: Obj) => o): Route => ({
  method: "GET",
  path,
  extension: true,
  handler: (ctx) => ({ result: "success", [key]: present(lookup(ctx, kind, Object.values(ctx.params)[0], label)) }),
});

/** §1: ad insertion is for accounts on the custom plan. */
export function requireCustomPlan(ctx: Ctx, operation: string): void {
  if (!ctx.store.state.account.customPlan) {
    throw new EmulatorError(403, `${operation} requires the custom plan; this account is not on the custom plan`);
  }
}

/** §4.6, §4.9, §4.18: some analytics need the advanced analytics add-on. */
export function requireAddOn(ctx: Ctx, what: string): void {
  if (!ctx.store.state.account.advancedAnalytics) {
    throw new EmulatorError(403, `${what} requires the advanced analytics add-on; this account does not have it`);
  }
}

/**
 * One page of a list (§4.7, §4.9, §4.10) with the paging fields of §4.7 / §4.9. The spec does not
 * show the page size or what lies past the last page: the profile chooses (`pageSize`, `pastLastPage`).
 */
export function paginate<T>(items: T[], page: number, profile: ServerProfile) {
  const size = profile.pageSize;
  const pages = Math.ceil(items.length / size);
  const served = profile.pastLastPage === "repeat-last" && page > pages && pages > 0 ? pages : page;
  const start = (served - 1) * size;
  return { items: items.slice(start, start + size), total: items.length, page: served, limit: size, pages };
}
