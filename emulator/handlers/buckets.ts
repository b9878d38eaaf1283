/** Calendar buckets (UTC) for ad consumption (§4.8) charts. */
import { invalid } from "../errors";
import { Range } from "../time";

/** §4.8 groupBy values. */
export const GROUPS = ["year", "month", "week", "day", "hour"] as const;

export type Group = (typeof GROUPS)[number];

/**
 * Not a spec limit: it keeps one request from building millions of points (an hourly chart
 * over centuries). Ten thousand hours is over a year.
 */
export const MAX_BUCKETS = 10_000;

const pad = (n: number) => String(n).padStart(2, "0");

/** The first instant of the bucket holding `d`, or of the `step`-th bucket after it. */
function floor(group: Group, d: Date, step = 0): Date {
  const [y, m, day, h] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()];
  switch (group) {
    case "year":
      return new Date(Date.UTC(y + step, 0, 1));
    case "month":
      return new Date(Date.UTC(y, m + step, 1));
    case "week":
      return new Date(Date.UTC(y, m, day - ((d.getUTCDay() + 6) % 7) + 7 * step)); // ISO weeks start on Monday
    case "day":
      return new Date(Date.UTC(y, m, day + step));
    case "hour":
      return new Date(Date.UTC(y, m, day, h + step));
  }
}

/** The bucket label of `d`: `2025`, `2025-03`, `2025-W11`, `2025-03-14`, `2025-03-14 09:00`. */
function label(group: Group, d: Date): string {
  const ymd = d.toISOString().slice(0, 10);
  if (group === "year") return ymd.slice(0, 4);
  if (group === "month") return ymd.slice(0, 7);
  if (group === "day") return ymd;
  if (group === "hour") return `${ymd} ${pad(d.getUTCHours())}:00`;
  // ISO 8601 week number: the week holding the Thursday of this Monday-start week.
  const thursday = new Date(d.getTime() + 3 * 86_400_000);
  const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return `${thursday.getUTCFullYear()}-W${pad(Math.floor((thursday.getTime() - jan1) / (7 * 86_400_000)) + 1)}`;
}

/** Bucket labels covering `r`, oldest first. */
export function buckets(group: Group, r: Range): string[] {
  const out: string[] = [];
  for (let d = floor(group, r.from); d.getTime() < r.to.getTime(); d = floor(group, d, 1)) {
    if (out.length === MAX_BUCKETS)
      throw invalid(
        "r",
        `range spans more than ${MAX_BUCKETS} ${group} buckets (an emulator limit); shorten it or group by a longer period`,
      );
    out.push(label(group, d));
  }
  return out;
}
