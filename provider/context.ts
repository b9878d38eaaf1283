/**
 * What every handler in the provider host shares: one API client, configured from stack config
 * (`cdnstream:apiKey` secret, `cdnstream:baseUrl`, retry/timeout/rate settings) with the
 * environment as fallback, and warnings the CLI shows.
 */
import type * as pulumi from "@pulumi/pulumi";
import { CdnstreamClient, CONFIG_NAMES, type ConfigSource } from "./client";

let stackConfig: ConfigSource = {};
let client: CdnstreamClient | undefined;

/**
 * Takes the stack's `cdnstream:*` settings. The host calls it once per kind with the same
 * config, so it only replaces the client when a setting differs.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const next: Record<string, string | undefined> = {};
  for (const name of CONFIG_NAMES) next[`cdnstream:${name}`] = req.config.get(`cdnstream:${name}`);
  if (CONFIG_NAMES.every((name) => next[`cdnstream:${name}`] === stackConfig[`cdnstream:${name}`])) return;
  stackConfig = next;
  const previous = client;
  client = undefined;
  await previous?.close();
}

/** The shared client; throws a ConfigError saying what to set when there is no key or URL. */
export function apiClient(): CdnstreamClient {
  client ??= new CdnstreamClient({ config: stackConfig });
  return client;
}

/**
 * A warning for the person running the CLI. The dynamic-provider host has no engine log channel,
 * but the engine shows what a provider writes to stderr, under the resource's provider.
 */
export function warn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

const unreadableKinds = new Set<string>();

/**
 * Runs a refresh read. The read paths are extensions beyond the spec (DESIGN.md, "Reads for
 * refresh and import"); where the API answers 404 or 405 for one, the last applied state is kept
 * and the kind is reported once as one whose drift cannot be detected. Returns undefined then.
 * Deletion out of band is not inferred from a 404: the API cannot tell a missing path from a
 * missing object, and dropping state on a guess would lose what the stack manages.
 */
export async function readLive<T>(kind: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status !== 404 && status !== 405) throw err;
    if (!unreadableKinds.has(kind)) {
      unreadableKinds.add(kind);
      warn(
        `${kind}: the API has no read for this object (${status}); refresh keeps the last applied ` +
          `state and cannot detect drift for ${kind} resources.`,
      );
    }
    return undefined;
  }
}
