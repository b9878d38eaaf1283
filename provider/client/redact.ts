/**
 * Secret handling: the API key lives in a {@link Secret} that never prints, and anything an
 * error or log line keeps is a redacted copy (octokit `request-error.js`: redact in a copy,
 * never mutate the request).
 */
import { inspect } from "node:util";

/** What a secret is replaced with wherever it would otherwise appear. */
export const REDACTED = "[REDACTED]";

/**
 * A string that does not leak through `String()`, `JSON.stringify`, `util.inspect` or template
 * literals. Only {@link Secret.reveal} gives the value, and only the transport calls it.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  /** The plain value; for the request header only. */
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return `Secret(${REDACTED})`;
  }
}

/** Header names whose values are always redacted, whatever the value. */
const SECRET_HEADERS = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie"]);

/** Replaces every occurrence of each secret in `text`. Secrets shorter than 4 characters are too ambiguous to hunt for and are only redacted by header name. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out;
}

/** A deep copy of `value` with every secret string replaced; objects are copied, never mutated. */
export function redactValue<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (typeof value === "string") return redactText(value, secrets) as T;
  if (value === null || typeof value !== "object" || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[redactText(k, secrets)] = redactValue(v, secrets, depth + 1);
  }
  return out as T;
}

/** A copy of request headers with secret-bearing headers replaced by {@link REDACTED}. */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : redactText(v, secrets);
  }
  return out;
}

/** Removes `user:password@` from a URL so a base URL can be quoted in messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = "";
      u.password = "";
    }
    return u.toString().replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}

/**
 * An error safe to keep as a `cause`: the original when no secret shows anywhere in it, else
 * a copy carrying its name, code and redacted message and stack.
 */
export function redactCause(cause: unknown, secrets: readonly string[]): unknown {
  if (!(cause instanceof Error)) return redactValue(cause, secrets);
  const shown = inspect(cause, { depth: 8 }) + JSON.stringify(cause);
  if (!secrets.some((s) => s.length >= 4 && shown.includes(s))) return cause;
  const copy = new Error(redactText(cause.message, secrets));
  copy.name = cause.name;
  copy.stack = redactText(cause.stack ?? "", secrets);
  const code = (cause as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(copy, { code });
  return copy;
}
