/** Secret handling: the API key lives in a {@link Secret} that never prints; errors and logs keep redacted copies. */
import { inspect } from "node:util";

/** What a secret is replaced with wherever it would otherwise appear. */
export const REDACTED = "[REDACTED]";

/** A string that never prints: not through `String()`, `JSON.stringify`, `util.inspect` or template literals. */
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

/** Pulumi URNs: names, never secrets, kept whole even when a secret equals the project's name. */
const URN = /urn:pulumi:[^\s"'`<>]+/g;

const isWordChar = (c: string | undefined) => c !== undefined && /\w/.test(c);

/**
 * Whether the occurrence of a secret at `start`..`end` of `text` is a whole token: not joined to
 * a longer name by a word character, or by `-` or `.` before one (`my-secret`, `secret.example`).
 */
function wholeToken(text: string, start: number, end: number): boolean {
  const before = text[start - 1];
  const after = text[end];
  if (isWordChar(before) || isWordChar(after)) return false;
  if ((before === "-" || before === ".") && isWordChar(text[start - 2])) return false;
  if ((after === "-" || after === ".") && isWordChar(text[end + 1])) return false;
  return true;
}

/** Where each whole-token occurrence of a secret (outside URNs) is in `text`, earliest first, none overlapping. */
function secretSpans(text: string, secrets: readonly string[]): [number, number][] {
  const urns = [...text.matchAll(URN)].map((m) => [m.index, m.index + m[0].length]);
  const inUrn = (a: number, b: number) => urns.some(([u, v]) => a < v && b > u);
  const found: [number, number][] = [];
  // Longest first, so a secret containing another is replaced whole.
  for (const s of [...secrets].filter((x) => x.length >= 4).sort((a, b) => b.length - a.length)) {
    for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + 1)) {
      const end = i + s.length;
      if (!wholeToken(text, i, end) || inUrn(i, end)) continue;
      if (found.some(([a, b]) => i < b && end > a)) continue;
      found.push([i, end]);
    }
  }
  return found.sort((a, b) => a[0] - b[0]);
}

/**
 * Replaces each secret in `text` where it stands as a whole token (a passphrase equal to the
 * project name leaves `urn:pulumi:dev::<project>::...` and `<project>-zone` readable, while
 * `passphrase <project>` is redacted). Secrets shorter than 4 characters are too ambiguous to hunt for.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  // Last span first, so the offsets of the spans before it still hold.
  return secretSpans(text, secrets).reduceRight((out, [a, b]) => out.slice(0, a) + REDACTED + out.slice(b), text);
}

/** Whether `text` shows any secret as {@link redactText} would replace it. */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  return secretSpans(text, secrets).length > 0;
}

/** A deep copy of `value` with `redact` applied to every string, keys included; objects are copied, never mutated. */
function mapStrings<T>(value: T, redact: (text: string) => string, depth = 0): T {
  if (typeof value === "string") return redact(value) as T;
  if (value === null || typeof value !== "object" || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, redact, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redact(k)] = mapStrings(v, redact, depth + 1);
  return out as T;
}

/** A deep copy of `value` with every secret string replaced; objects are copied, never mutated. */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  return mapStrings(value, (text) => redactText(text, secrets));
}

/**
 * The password of a URL of any scheme, `scheme://user:password@`: $1 is what stays. The password
 * stops at what cannot be in one unencoded (`/?#@`, whitespace) and at quotes and angle brackets,
 * which end a URL quoted in a message.
 */
const URL_PASSWORD = /\b([a-z][a-z\d+.-]*:\/\/[^\s:/?#@"'`<>]*):([^\s/?#@"'`<>]+)@/gi;

/** The passwords of the URLs in `text`, as written and percent-decoded. */
export function urlPasswords(text: string): string[] {
  return [...text.matchAll(URL_PASSWORD)].flatMap(([, , password]) => {
    try {
      return [password!, decodeURIComponent(password!)];
    } catch {
      return [password!];
    }
  });
}

/**
 * What text leaving a process goes through: every URL's password, and every value of
 * {@link secrets} as {@link redactText} finds it. Values learnt during the run are {@link add}ed.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  constructor(secrets: Iterable<string> = []) {
    this.add(secrets);
  }
  add(secrets: Iterable<string>): void {
    for (const s of secrets) this.#secrets.add(s);
  }
  text(text: string): string {
    return redactText(text.replace(URL_PASSWORD, `$1:${REDACTED}@`), [...this.#secrets]);
  }
  /** A deep copy of `value` with every string redacted: before it is cut or escaped for display. */
  value<T>(value: T): T {
    return mapStrings(value, (text) => this.text(text));
  }
}

/** Removes `user:password@` from a URL so a base URL can be quoted in messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = u.password = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}

/** A `cause` safe to keep: the original if no secret shows in it, else a redacted copy (name, code, message, stack). */
export function redactCause(cause: unknown, secrets: readonly string[]): unknown {
  if (!(cause instanceof Error)) return redactValue(cause, secrets);
  const shown = inspect(cause, { depth: 8 }) + JSON.stringify(cause);
  if (!containsSecret(shown, secrets)) return cause;
  const copy = new Error(redactText(cause.message, secrets));
  copy.name = cause.name;
  copy.stack = redactText(cause.stack ?? "", secrets);
  const code = (cause as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(copy, { code });
  return copy;
}
