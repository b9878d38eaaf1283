/** Time formats the spec uses, and the parsing of its date-range strings. */

/** `YYYY-MM-DD HH:MM:SS` (UTC), the format of stream, pull-list, DNS and backup timestamps. */
export const sqlTime = (d: Date): string => d.toISOString().slice(0, 19).replace("T", " ");

/** ISO 8601 UTC without milliseconds (`2025-01-31T12:00:00Z`). */
export const isoTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** Unix seconds as a string (§2.19 purge timestamps). */
export const unixTime = (d: Date): string => String(Math.floor(d.getTime() / 1000));

const SQL_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD` when `dateOnly`) as UTC; undefined if not a real date. */
export function parseTime(s: string, dateOnly = false): Date | undefined {
  const m = (dateOnly ? DATE : SQL_TIME).exec(s);
  if (!m) return undefined;
  const [y, mo, d, h = "0", mi = "0", se = "0"] = m.slice(1);
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +se));
  // Round-trip rejects values such as 2025-02-30 or 25:00:00 that Date.UTC would roll over.
  const back = dateOnly ? date.toISOString().slice(0, 10) : sqlTime(date);
  return back === s ? date : undefined;
}

/** A parsed `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` range (§4.6, §4.7, §4.8). */
export type Range = { from: Date; to: Date };

/** Parses a range string; returns an error text naming the rule when it is not valid. */
export function parseRange(s: string): Range | string {
  const parts = s.split(" - ");
  const [from, to] = parts.map((p) => parseTime(p));
  if (parts.length !== 2 || !from || !to) return "must be 'YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS' with real dates";
  if (from.getTime() >= to.getTime()) return "the start must be before the end";
  return { from, to };
}
