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

/**
 * A matcher over `routes`, templates such as `/v2/zones/http/push/{zoneid}` split into segments
 * once. With `specOnly`, the read extensions do not exist: a path only an extension serves is
 * "not part of the API" for every method, an extension's own method on a path the spec also has
 * is too, and extensions are left out of a 405's Allow list.
 */
export function createRouter(routes: Route[]): (method: string, pathname: string, specOnly: boolean) => Match {
  const table = routes.map((route) => ({ route, segments: route.path.split("/").slice(1) }));
  return (method, pathname, specOnly) => {
    const parts = pathname.split("/").slice(1);
    const allowed: string[] = [];
    let operation = "";
    let extensionPath: string | undefined;
    let extensionMethod = false;
    for (const { route, segments } of table) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.extension && specOnly) {
        extensionPath ??= route.path;
        extensionMethod ||= route.method === method;
        continue;
      }
      if (route.method !== method) {
        allowed.push(route.method);
        operation ||= `${method} ${route.path}`;
        continue;
      }
      return { kind: "found", route, operation: `${method} ${route.path}`, params };
    }
    if (extensionPath && (extensionMethod || !allowed.length))
      return { kind: "not-in-api", operation: `${method} ${extensionPath}` };
    return allowed.length ? { kind: "method", allowed, operation } : { kind: "none" };
  };
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
