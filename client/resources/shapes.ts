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
  message: z.string().optional(),
  warnings: z.array(z.string()).nullable().optional(),
  errors: z.array(z.unknown()).nullable().optional(),
};

/** A listing page's counters (§4.7, §4.9); integers in the spec, numeric strings tolerated. */
export const pageCounters = {
  total: numeric.optional(),
  page: numeric.optional(),
  limit: numeric.optional(),
  pages: numeric.optional(),
};

// ---- §2.4 access-control sub-objects (zones and streams) -----------------------------------

/** §2.4 domainlock. `policy`/`noreferer` meanings conflict in the spec; values are kept as sent. */
export const DomainLock = loose({
  enabled: yn,
  policy: yn,
  noreferer: yn,
  active: yn,
  /** Comma-separated domains. */
  list: z.string(),
  /** Comma-separated IPs allowed regardless of the lock. */
  ips: z.string(),
  /** Push zones only. */
  type: z.string(),
});
/** §2.4 geoblock. */
export const GeoBlock = loose({ enabled: yn, policy: yn, active: yn, list: z.array(z.string()), ips: z.string() });
/** §2.4 ipaccess. */
export const IpAccess = loose({ enabled: yn, policy: yn, active: yn, list: z.string(), ips: z.string() });
/** §2.4 useragent; `list` joins patterns with `;;;`. */
export const UserAgent = loose({
  enabled: yn,
  policy: yn,
  casesensitive: yn,
  active: yn,
  list: z.string(),
  listArr: z.array(z.string()),
  ips: z.string(),
});
/** §2.4 securetoken: policy `F` fixed or `D` dynamic; session `0` = unlimited. */
export const SecureToken = loose({
  enabled: yn,
  active: yn,
  policy: openEnum(["F", "D"]),
  keyip: yn,
  list: z.string(),
  timeout: numeric,
  session: z.string(),
  ips: z.string(),
  dirs: z.string().nullable(),
});
/** §2.4 eac (external access control); `list` is the auth script URL. */
export const Eac = loose({ enabled: yn, policy: yn, active: yn, list: z.string(), ips: z.string() });
/** §2.4 bwlimit; `policy` is an integer or numeric string. */
export const BwLimit = loose({
  enabled: yn,
  policy: numeric,
  rate: z.number(),
  rateafter: z.number(),
  payg: yn,
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

/** `{ [key]: schema }` for each key, keeping the literal keys in the type. */
export function fieldsOf<const K extends string, S extends z.ZodType>(keys: readonly K[], schema: S): Record<K, S> {
  return Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, S>;
}
