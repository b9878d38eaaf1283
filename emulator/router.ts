/** Matches a method and path against the routing table built from the handler modules. */
import { badRequest } from "./errors";
import { Route } from "./route";

/** The outcome of matching one request. */
export type Match =
  | { kind: "found"; route: Route; operation: string; params: Record<string, string> }
  /** The path exists but not for this method (405 with Allow). */
  | { kind: "method"; allowed: string[]; operation: string }
  /** A read extension switched off by the profile's spec-only reads (404 for the path itself). */
  | { kind: "not-in-api"; operation: string }
  | { kind: "none" };

interface Compiled {
  route: Route;
  operation: string;
  segments: string[];
}

/** A routing table: templates such as `/v2/zones/http/push/{zoneid}` split into segments. */
export class Router {
  private readonly table: Compiled[];

  constructor(routes: Route[]) {
    this.table = routes.map((route) => ({
      route,
      operation: `${route.method} ${route.path}`,
      segments: route.path.split("/").slice(1),
    }));
  }

  /**
   * Matches one request. With `specOnly`, the read extensions do not exist: a path only an
   * extension serves is "not part of the API" for every method, an extension's own method on a
   * path the spec also has is too, and extensions are left out of a 405's Allow list.
   */
  match(method: string, pathname: string, specOnly = false): Match {
    const parts = pathname.split("/").slice(1);
    const allowed: string[] = [];
    let operation = "";
    let extensionPath: string | undefined;
    let extensionMethod = false;
    for (const c of this.table) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.extension && specOnly) {
        extensionPath ??= c.route.path;
        extensionMethod ||= c.route.method === method;
        continue;
      }
      if (c.route.method !== method) {
        allowed.push(c.route.method);
        operation ||= `${method} ${c.route.path}`;
        continue;
      }
      return { kind: "found", route: c.route, operation: c.operation, params };
    }
    if (extensionPath && (extensionMethod || !allowed.length))
      return { kind: "not-in-api", operation: `${method} ${extensionPath}` };
    return allowed.length ? { kind: "method", allowed, operation } : { kind: "none" };
  }
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | undefined {
  if (template.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i];
    if (t.startsWith("{")) {
      if (parts[i] === "") return undefined;
      params[t.slice(1, -1)] = decode(parts[i]);
    } else if (t !== parts[i]) {
      return undefined;
    }
  }
  return params;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`malformed percent-encoding in path segment '${segment}'`);
  }
}
