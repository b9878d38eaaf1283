/**
 * Request-path building, the one place an id becomes part of a URL: every path parameter is
 * percent-encoded as a single segment, so an id such as `"a/b?c"` can never add a segment, a
 * query or a fragment. `.` and `..` are refused: the URL parser would resolve them away.
 */

/** Thrown by {@link buildPath} when a parameter cannot be placed in a path; the client turns it into a ValidationError. */
export class PathParamError extends Error {
  constructor(
    /** The template parameter name, e.g. `zoneid`. */
    readonly param: string,
    /** Why the value was refused. */
    readonly rule: string,
  ) {
    super(`path parameter \`${param}\` ${rule}`);
    this.name = "PathParamError";
  }
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

/** Names of the `{placeholders}` in a path template, in order. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** Fills a template with encoded values; a missing or unused parameter throws (a programming error). */
export function buildPath(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  const names = Object.keys(params);
  if (names.length === 0 && !template.includes("{")) return template;
  const used = new Set<string>();
  const path = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new PathParamError(name, "is required");
    used.add(name);
    const text = String(value);
    if (text.length === 0) throw new PathParamError(name, "must not be empty");
    if (text === "." || text === "..") {
      throw new PathParamError(name, `must not be "${text}" (it would change the request path)`);
    }
    // encodeURIComponent leaves !'()* alone; they are legal in a segment and cannot split it.
    return encodeURIComponent(text);
  });
  for (const name of names) {
    if (!used.has(name)) throw new PathParamError(name, `is not a parameter of ${template}`);
  }
  return path;
}

/** Serializes query parameters; `undefined` values are left out, arrays repeat the key. */
export function buildQuery(query: Readonly<Record<string, unknown>> | undefined): string {
  // Made at the first value to send: most calls send none, and skip URLSearchParams.
  let search: URLSearchParams | undefined;
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    search ??= new URLSearchParams();
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search?.toString();
  return text ? `?${text}` : "";
}

/** The decoded parameters of a concrete path (no query) by a template, or `undefined` when it does not match. */
export function matchTemplate(template: string, path: string): Record<string, string> | undefined {
  const names = templateParams(template);
  const pattern = template
    .split(PLACEHOLDER)
    .map((part, i) => (i % 2 === 1 ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("");
  const match = new RegExp(`^${pattern}/?$`).exec(path);
  if (!match) return undefined;
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    out[name] = decodeURIComponent(match[i + 1]!);
  });
  return out;
}
