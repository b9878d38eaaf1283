/** Every operation the client knows, for the `cdnstream api` command's lookups by method and path. */
import * as adInsertion from "./resources/ad-insertion";
import * as adManager from "./resources/ad-manager";
import * as backups from "./resources/backups";
import * as dns from "./resources/dns";
import type { RetryKind } from "./core/errors";
import { isOperation, type Operation } from "./core/operation";
import { matchTemplate, templateParams } from "./core/path";
import * as streams from "./resources/streams";
import * as zones from "./resources/zones";

/**
 * All operations (spec section 4 and the read extensions), found among the family modules' exports
 * and `ops` tables (each family's operations by name, which handlers and data sources name).
 */
export const operations: readonly Operation[] = [
  ...new Set(
    [zones, streams, dns, backups, adInsertion, adManager].flatMap((family) =>
      [...Object.values(family), ...Object.values(family.ops)].filter(isOperation),
    ),
  ),
];

/** The operation a method and concrete path (query allowed) belong to, if any. Literal paths win over templates. */
export function findOperation(method: string, path: string): Operation | undefined {
  const bare = path.replace(/[?#].*$/, "");
  const candidates = operations.filter((op) => op.method === method.toUpperCase() && matchTemplate(op.path, bare));
  return candidates.sort((a, b) => templateParams(a.path).length - templateParams(b.path).length)[0];
}

/**
 * Retry class of a generic call: the matched operation's; otherwise GET is `retriable`, and any
 * other method `connect-only` (an unknown write is not known to be safe to repeat).
 */
export function retryKindFor(method: string, path: string): { kind: RetryKind; operation?: Operation } {
  const operation = findOperation(method, path);
  if (operation) return { kind: operation.retry, operation };
  return { kind: method.toUpperCase() === "GET" ? "retriable" : "connect-only" };
}
