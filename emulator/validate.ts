/** Request validation with zod: 422 messages naming each field and its rule, and shared field schemas. */
import * as net from "node:net";
import { z } from "zod";
import { EmulatorError } from "./errors";
import { parseRange, Range } from "./time";

/** Parses `data` with `schema`, or throws a 422 naming each failing field and its rule. */
export function parse<T>(schema: z.ZodType<T>, data: unknown, where: "body" | "query" = "body"): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const messages = result.error.issues.slice(0, 5).map((issue) => describe(issue, data, where));
  throw new EmulatorError(422, messages.join("; "));
}

function describe(issue: z.core.$ZodIssue, data: unknown, where: string): string {
  const field = issue.path.map(String).join(".") || where;
  const value = issue.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k], data);
  const got = value === undefined ? "" : ` (got ${JSON.stringify(value).slice(0, 80)})`;
  switch (issue.code) {
    case "unrecognized_keys":
      return `${issue.keys.join(", ")}: unknown ${where === "query" ? "query parameter" : "field"}`;
    case "invalid_type":
      if (value === undefined) return `${field}: required`;
      return `${field}: must be ${article(issue.expected)}${got}`;
    case "too_small":
      return `${field}: must be at least ${issue.minimum}${issue.origin === "array" ? " item(s)" : issue.origin === "string" ? " character(s)" : ""}${got}`;
    case "too_big":
      return `${field}: must be at most ${issue.maximum}${issue.origin === "array" ? " item(s)" : ""}${got}`;
    case "invalid_value":
      if (value === undefined)
        return `${field}: required; one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
      return `${field}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}${got}`;
    default:
      return `${field}: ${issue.message}${got}`;
  }
}

const article = (expected: string): string =>
  ({ int: "an integer", array: "an array", object: "a JSON object", number: "a number" })[expected] ?? `a ${expected}`;

/** `Y` or `N`, the spec's flag strings. */
export const yn = z.enum(["Y", "N"]);

/** A JSON integer within bounds. */
export const int = (min: number, max?: number) => (max === undefined ? z.int().min(min) : z.int().min(min).max(max));

/** A query-string integer (query values arrive as strings). */
export const queryInt = (min = 0) =>
  z
    .string()
    .regex(/^-?\d{1,15}$/, { error: "must be an integer" })
    .transform(Number)
    .pipe(z.int().min(min));

const HOST = /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Splits a comma-separated list, dropping blanks. */
export const splitList = (s: string): string[] =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/** A list as stored: trimmed entries joined by a bare comma. */
export const normalizeList = (s: string): string => splitList(s).join(",");

/** A comma-separated list of host names (`*.` wildcards allowed); empty clears. */
export const domainList = z.string().refine((s) => splitList(s).every((h) => HOST.test(h)), {
  error: "must be comma-separated host names such as example.com,*.example.org",
});

const isIpOrCidr = (s: string): boolean => {
  const [ip, bits, extra] = s.split("/");
  if (extra !== undefined || !net.isIP(ip)) return false;
  const max = net.isIPv4(ip) ? 32 : 128;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && +bits <= max);
};

/** A comma-separated list of IPv4/IPv6 addresses or CIDR ranges; empty clears. */
export const ipList = z.string().refine((s) => splitList(s).every(isIpOrCidr), {
  error: "must be comma-separated IP addresses or CIDR ranges",
});

/** `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS`, parsed to a Range. */
export const range = z.string().transform((s, ctx): Range => {
  const r = parseRange(s);
  if (typeof r === "string") {
    ctx.addIssue({ code: "custom", message: r });
    return z.NEVER;
  }
  return r;
});

/** Query parameters as a plain object (first value of each name). */
export const queryObject = (q: URLSearchParams): Record<string, string> =>
  // fromEntries defines own properties, so a parameter named __proto__ is just an unknown name.
  Object.fromEntries([...q.keys()].map((k) => [k, q.get(k) as string]));
