/** Shared building blocks: lenient response primitives (§2), strict request ones, the §2.1 envelope, §2.4 objects. */
import { z } from "zod";

// ---- responses: lenient -------------------------------------------------------------------

/** An object whose documented fields are all optional and whose unknown fields are kept. */
export function loose<T extends z.ZodRawShape>(shape: T) {
  return z.looseObject(shape).partial();
}

/**
 * A word the spec names some values of. Any string passes (§2: other values "not shown"), so a
 * value the spec does not name is the API's to add; the type keeps the named ones for editors.
 */
export function openEnum<const V extends readonly string[]>(values: V) {
  return z.string().describe(`${values.join(", ")} or another word`) as unknown as z.ZodType<
    V[number] | (string & {}),
    string
  >;
}

/** A `Y`/`N` flag (§ conventions); another word passes as sent. */
export const yn = openEnum(["Y", "N"]);
/** A `0`/`1` flag; another word passes as sent, and the numbers 0 and 1 become the strings. */
export const flag01 = z.union([openEnum(["0", "1"]), z.number().transform(String)]) as unknown as z.ZodType<
  "0" | "1" | (string & {}),
  string | number
>;

/** A number that the API sometimes sends as a numeric string (§2.3); parsed to a number. */
export const numeric = z.union([
  z.number(),
  z
    .string()
    .refine((text) => text.trim() !== "" && Number.isFinite(Number(text)), "expected a number or numeric string")
    .transform(Number),
]);

/** "null or timestamp" (§2.2, §2.5, §2.17, §2.18): a date string or Unix seconds, as sent. */
export const timestamp = z.union([z.string(), z.number()]).nullable();

/** Unix seconds the spec writes as strings (§2.19); a number passes too, as its string. */
export const unixSecondsText = z.union([z.string(), z.number().transform(String)]);

/** An id the API may send as an integer or a string (stream ids, §2.5). */
export const anyId = z.union([z.number(), z.string()]);

/** The §2.1 envelope fields; `message`, `warnings` and `errors` appear only on some operations. */
export const envelope = {
  /** Another word than `success` or `error` passes (`error` is told apart before parsing). */
  result: openEnum(["success", "error"]),
  /** Human-readable outcome, when the API sends one (the response envelope). */
  message: z.string().optional(),
  /** Non-fatal messages, when the API sends them (the response envelope). */
  warnings: z.array(z.string()).nullable().optional(),
  /** Errors returned with the response, when the API sends them (the response envelope). */
  errors: z.array(z.unknown()).nullable().optional(),
};

/** A listing page's counters (§4.7, §4.9); integers in the spec, numeric strings tolerated. */
export const pageCounters = {
  /** Items matching the filters, as the API counts them (on page 1 when every page was read). */
  total: numeric.optional(),
  /** The page returned (only when a `page` was asked for). */
  page: numeric.optional(),
  /** Items per page (only when a `page` was asked for). */
  limit: numeric.optional(),
  /** Page count (only when a `page` was asked for). */
  pages: numeric.optional(),
};

// ---- §2.4 access-control sub-objects (zones and streams) -----------------------------------

/** §2.4 domainlock. `policy`/`noreferer` meanings conflict in the spec; values are kept as sent. */
export const DomainLock = loose({
  /** `Y` when the control is enabled, `N` when not. */
  enabled: yn,
  /** `Y` or `N`; whether `Y` allows or denies the listed domains, the access-control objects says both. */
  policy: yn,
  /** `Y` or `N`; whether `Y` allows or blocks requests without a referer, the access-control objects says both. */
  noreferer: yn,
  /** `Y` when the control is active, `N` when not. */
  active: yn,
  /** Comma-separated domains. */
  list: z.string(),
  /** Comma-separated IPs the control lets through regardless of its list. */
  ips: z.string(),
  /** Domain lock type (push zones). */
  type: z.string(),
});
/** §2.4 geoblock. */
export const GeoBlock = loose({
  /** `Y` when the control is enabled, `N` when not. */
  enabled: yn,
  /** `Y` when the listed countries are allowed, `N` when not. */
  policy: yn,
  /** `Y` when the control is active, `N` when not. */
  active: yn,
  /** Country codes. */
  list: z.array(z.string()),
  /** Comma-separated IPs the control lets through regardless of its list. */
  ips: z.string(),
});
/** §2.4 ipaccess. */
export const IpAccess = loose({
  /** `Y` when the control is enabled, `N` when not. */
  enabled: yn,
  /** `Y` when the listed IPs are allowed, `N` when not. */
  policy: yn,
  /** `Y` when the control is active, `N` when not. */
  active: yn,
  /** Comma-separated IPs/CIDR. */
  list: z.string(),
  /** Comma-separated IPs the control lets through regardless of its list. */
  ips: z.string(),
});
/** §2.4 useragent; `list` joins patterns with `;;;`. */
export const UserAgent = loose({
  /** `Y` when the control is enabled, `N` when not. */
  enabled: yn,
  /** `Y` when the listed user agents are allowed, `N` when not. */
  policy: yn,
  /** `Y` when patterns match case-sensitively, `N` when not. */
  casesensitive: yn,
  /** `Y` when the control is active, `N` when not. */
  active: yn,
  /** Patterns joined by `;;;`. */
  list: z.string(),
  /** The same patterns as an array. */
  listArr: z.array(z.string()),
  /** Comma-separated IPs the control lets through regardless of its list. */
  ips: z.string(),
});
/** §2.4 securetoken: policy `F` fixed or `D` dynamic; session `0` = unlimited. */
export const SecureToken = loose({
  /** `Y` when the control is enabled, `N` when not. */
  enabled: yn,
  /** `Y` when the control is active, `N` when not. */
  active: yn,
  /** `F` fixed or `D` dynamic token. */
  policy: openEnum(["F", "D"]),
  /** `Y` when the token is bound to the viewer's IP, `N` when not. */
  keyip: yn,
  /** The token key (a credential). */
  list: z.string(),
  /** Token lifetime in seconds. */
  timeout: numeric,
  /** Session limit, `0` = unlimited. */
  session: z.string(),
  /** Comma-separated IPs the control lets through regardless of its list. */
  ips: z.string(),
  /** Protected directories, or null. */
  dirs: z.string().nullable(),
});
/** §2.4 eac (external access control); `list` is the auth script URL. */
export const Eac = loose({
  /** `Y` when the control is enabled, `N` when not. */
  enabled: yn,
  /** `Y` when the external check allows by default, `N` when not. */
  policy: yn,
  /** `Y` when the control is active, `N` when not. */
  active: yn,
  /** URL of the auth script. */
  list: z.string(),
  /** Comma-separated IPs the control lets through regardless of its list. */
  ips: z.string(),
});
/** §2.4 bwlimit; `policy` is an integer or numeric string. */
export const BwLimit = loose({
  /** `Y` when the control is enabled, `N` when not. */
  enabled: yn,
  /** Limit policy (an integer). */
  policy: numeric,
  /** Rate limit. */
  rate: z.number(),
  /** Rate limit after the initial burst. */
  rateafter: z.number(),
  /** `Y` when pay-as-you-go applies, `N` when not. */
  payg: yn,
  /** `Y` when the control is active, `N` when not. */
  active: yn,
});

// ---- requests: strict ------------------------------------------------------------------------

/** A `Y`/`N` request flag. */
export const ynIn = z.enum(["Y", "N"], { error: 'must be "Y" or "N"' });

/** An integer path id (`{zoneid}`, `{pid}`, `{backupid}`); numeric strings accepted. */
const INT_ID = "must be a whole number (an integer id)";
export const intId = z.union([z.number().int(INT_ID).min(0, INT_ID), z.string().regex(/^\d+$/, INT_ID)], {
  error: INT_ID,
});
/** A string path id (`{cid}`, `{crid}`, `{purgeId}`, `{streamid}`); encoded as one segment. */
export const strId = z
  .union([z.string().min(1), z.number().int().min(0)], { error: "must be a non-empty id" })
  .transform(String);

const RANGE = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) - (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})$/;

/** Parses an `r` range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` (times read as UTC). */
export function parseRange(r: string): { start: Date; end: Date } | undefined {
  const m = RANGE.exec(r);
  if (!m) return undefined;
  const start = parseDateTime(m[1]!);
  const end = parseDateTime(m[2]!);
  return start && end ? { start, end } : undefined;
}

/** Parses `YYYY-MM-DD HH:MM:SS` as UTC; `undefined` for an impossible date such as 2024-02-30. */
export function parseDateTime(text: string): Date | undefined {
  const d = new Date(`${text.replace(" ", "T")}Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 19) !== text.replace(" ", "T") ? undefined : d;
}

/** Formats a Date as `YYYY-MM-DD HH:MM:SS` (UTC). */
export function formatDateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace("T", " ");
}

/** An `r` range: well formed, real dates, start not after end. */
export const rangeIn = z.string().superRefine((r, ctx) => {
  const range = parseRange(r);
  if (!range) {
    ctx.addIssue({ code: "custom", message: 'must be "YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS" with real dates' });
  } else if (range.start > range.end) {
    ctx.addIssue({ code: "custom", message: "must start before it ends" });
  }
});

/** A `YYYY-MM-DD` date. */
export const dateIn = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && parseDateTime(`${s} 00:00:00`) !== undefined, {
    message: 'must be a real date "YYYY-MM-DD"',
  });

/**
 * An integer of at least `min`; `why` (unit, spec section) goes into every message, and
 * `whenMissing` replaces the message when the field is absent but required.
 */
export function intMin(min: number, why: string, whenMissing?: string) {
  return z
    .number({
      error: (issue) => (issue.input === undefined && whenMissing ? whenMissing : `must be an integer ${why}`),
    })
    .int(`must be an integer ${why}`)
    .min(min, `must be at least ${min} ${why}`);
}
