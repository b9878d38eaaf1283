/**
 * Input rules shared by resource kinds, checked in `check` before any request: each message
 * names the rule and what to write instead.
 */
import * as net from "node:net";
import { z } from "zod";
import { sameSet } from "./inputs";

/**
 * A host name, optionally with a leading wildcard label (`*.example.com`). The top-level label
 * is letters (`com`) or an internationalised TLD in its ASCII (punycode) form (`xn--p1ai` for
 * .рф, RFC 3490): a user writes the ASCII form, as DNS and the API hold it.
 */
const HOST =
  /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9](?:[a-z0-9-]{0,57}[a-z0-9])?)$/i;

export const hostname = z.string().regex(HOST, "must be a host name such as cdn.example.com (no scheme, path or port)");

/** An IPv4/IPv6 address or CIDR range. */
export const ipOrCidr = z.string().refine(
  (value) => {
    const [ip, bits, extra] = value.split("/");
    if (extra !== undefined || !net.isIP(ip)) return false;
    if (bits === undefined) return true;
    const max = net.isIPv4(ip) ? 32 : 128;
    return /^\d+$/.test(bits) && Number(bits) <= max;
  },
  { error: "must be an IP address or CIDR range such as 203.0.113.7 or 198.51.100.0/24" },
);

/** A list of host names; a single string (say, from stack config) is refused, not split. */
export const hostnames = z.array(hostname, { error: 'must be a list of host names, such as ["cdn.example.com"]' });

/** A list of IP addresses or CIDR ranges. */
export const ipsOrCidrs = z.array(ipOrCidr, {
  error: 'must be a list of IP addresses or CIDR ranges, such as ["203.0.113.7", "198.51.100.0/24"]',
});

/** A `Y`/`N` flag kept as written (domain-lock `policy` and `noreferer`, see docs/design.md). */
export const yn = z.enum(["Y", "N"], { error: 'must be "Y" or "N"' });

export const positiveId = (what: string) =>
  z
    .number({ error: `must be the ${what}'s numeric id` })
    .int("must be a whole number")
    .positive(`must be a positive ${what} id`);

/** `true`/`false` to the API's `Y`/`N`. */
export const toYN = (value: boolean): "Y" | "N" => (value ? "Y" : "N");

/** Splits a comma-separated API list, dropping blanks. */
export const splitList = (value: string | null | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

const lowerCase = (hosts: unknown) => ((hosts as string[] | undefined) ?? []).map((h) => String(h).toLowerCase());

/** Set equality, ignoring order, duplicates and case: how the API compares domains. */
export const sameHosts = (a: unknown, b: unknown): boolean => sameSet(lowerCase(a), lowerCase(b));
