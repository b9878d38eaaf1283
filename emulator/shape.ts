/**
 * Rewrites a successful answer on its way out where the spec leaves its form open (profile fields
 * `deleted`, `emptyWarnings`, `writeNotes`); handlers build one form and the store is untouched.
 */
import { ServerProfile } from "./profile";
import { Route } from "./route";
import { isPlainObject, Obj } from "./store";
import { parseTime } from "./time";

/** The `warnings` entry a writeNotes server adds to every successful write. */
export const NOTE_WARNING = "Changes may take up to 5 minutes to reach every edge server";

/**
 * The `errors` entries a writeNotes server adds (§2.1 "array or null", element type not shown):
 * one string and one `{code, message}` object, the §5 error element.
 */
export const NOTE_ERRORS: readonly unknown[] = Object.freeze([
  "edge server ams2 has not confirmed the change yet; it retries automatically",
  Object.freeze({ code: 1001, message: "configuration sync to edge server ams2 is delayed; it retries automatically" }),
]);

/** Response keys holding §2.2 zones, §2.5 streams or §2.17 DNS zones: the objects with `deleted`. */
const DELETED_HOLDERS = ["zone", "zones", "stream", "domains"];

/** Rewrites one successful response body under `profile`; the input is left as it was. */
export function shapeResponse(body: unknown, route: Route, profile: ServerProfile): unknown {
  if (!isPlainObject(body) || body.result !== "success") return body;
  let out: Obj = body;
  if (profile.deleted === "unix") out = withUnixDeleted(out);
  if (profile.writeNotes && route.write) out = withNotes(out, route.write);
  // §2.1 "string[] or null": an empty list is written null (after the notes, which fill it).
  if (profile.emptyWarnings === "null" && Array.isArray(out.warnings) && out.warnings.length === 0)
    out = { ...out, warnings: null };
  return out;
}

/** §2.1: `message` (kept when the operation sends one), and non-empty `warnings` and `errors`. */
function withNotes(body: Obj, message: string): Obj {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  return {
    ...body,
    message: typeof body.message === "string" && body.message ? body.message : message,
    warnings: [...list(body.warnings), NOTE_WARNING],
    errors: [...list(body.errors), ...NOTE_ERRORS],
  };
}

/** §2.2, §2.5, §2.17 `deleted` "null or timestamp": each non-null one as Unix seconds (a number). */
function withUnixDeleted(body: Obj): Obj {
  const out = { ...body };
  for (const key of DELETED_HOLDERS) {
    const held = body[key];
    if (held !== undefined) out[key] = Array.isArray(held) ? held.map(unixDeleted) : unixDeleted(held);
  }
  return out;
}

function unixDeleted(value: unknown): unknown {
  if (!isPlainObject(value) || value.deleted === null || value.deleted === undefined) return value;
  const seconds = toUnixSeconds(value.deleted);
  return seconds === undefined ? value : { ...value, deleted: seconds };
}

/**
 * Unix seconds of a stored timestamp: `YYYY-MM-DD HH:MM:SS` (UTC), ISO 8601, a numeric string,
 * or already a number. Anything else is undefined and is sent as stored.
 */
export function toUnixSeconds(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return undefined;
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const sql = parseTime(value);
  if (sql) return Math.floor(sql.getTime() / 1000);
  const iso = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(iso) ? undefined : Math.floor(iso / 1000);
}
