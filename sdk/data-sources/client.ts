/**
 * What every data source shares on the program side: the API client, configured like the
 * resources' (stack config `cdnstream:*` first, then `CDNSTREAM_*` environment variables), one per
 * distinct configuration per program, and the `get...Output` form of a function.
 *
 * Data sources run in the program process and call the client directly (DESIGN.md "Shape"); no
 * resource is registered, so nothing of the configuration, the key least of all, reaches state.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { CdnstreamClient, CONFIG_NAMES, resolveConfig, type ConfigOptions, type ConfigSource } from "../../provider/client";

/** Options every data source takes after its arguments (the place of Pulumi's invoke options). */
export interface DataSourceOptions {
  /**
   * Run through this client instead of the shared one. The SDK never closes a client it was
   * given. Useful in scripts and tests that already hold one, or that need the client's
   * injectable parts (dispatcher, logger).
   */
  client?: CdnstreamClient;
  /**
   * Client settings that win over stack config and the environment, e.g. `{ baseUrl, apiKey }`
   * in a script outside `pulumi up`. Clients are shared per distinct resulting configuration.
   */
  clientOptions?: ConfigOptions;
  /** Cancels the call (and any wait between retries). */
  signal?: AbortSignal;
}


/**
 * The program's `cdnstream:*` stack config. `pulumi.runtime.getConfig` reads the raw value the
 * engine hands the program (`PULUMI_CONFIG`, decrypted): it marks nothing secret and logs no
 * "value is a secret; use getSecret" warning, unlike `new pulumi.Config().get()`, and unlike
 * `getSecret` it returns a plain string the client can use without awaiting an Output. The key
 * never leaves this process: it is not an input, an output or a log line. Outside a Pulumi run
 * this is empty and the environment applies.
 */
export function stackConfig(): ConfigSource {
  const config: Record<string, string | undefined> = {};
  for (const name of CONFIG_NAMES) config[`cdnstream:${name}`] = pulumi.runtime.getConfig(`cdnstream:${name}`);
  return config;
}

/** Shared clients by configuration fingerprint (an inline program may run against several). */
const clients = new Map<string, CdnstreamClient>();
let closeOnExit = false;

/**
 * The client a data source call uses: `options.client`, or the shared client of the resolved
 * configuration (created on first use). Resolving throws a ConfigError saying what to set.
 */
export function dataSourceClient(options: DataSourceOptions = {}): CdnstreamClient {
  if (options.client) return options.client;
  const clientOptions: ConfigOptions = { ...options.clientOptions, config: { ...stackConfig(), ...options.clientOptions?.config } };
  const resolved = resolveConfig(clientOptions);
  // The key enters the fingerprint only hashed: this string is a map key, nothing more.
  const fingerprint = createHash("sha256")
    .update(JSON.stringify({ ...resolved, apiKey: resolved.apiKey.reveal() }))
    .digest("hex");
  let client = clients.get(fingerprint);
  if (!client) {
    client = new CdnstreamClient(clientOptions);
    clients.set(fingerprint, client);
    if (!closeOnExit) {
      closeOnExit = true;
      // undici already unrefs idle sockets, so open connections never hold the program open;
      // closing the pools when the event loop drains ends them at once instead of after
      // keepAliveTimeoutMs. `beforeExit` fires only when nothing is pending, so no call is cut.
      process.once("beforeExit", () => void closeDataSourceClients());
    }
  }
  return client;
}

/**
 * Closes every shared data-source client (in-flight calls finish first). A later call creates
 * a new one. Programs need not call it; long-running scripts and tests may.
 */
export async function closeDataSourceClients(): Promise<void> {
  const open = [...clients.values()];
  clients.clear();
  closeOnExit = false;
  await Promise.all(open.map((c) => c.close()));
}

/** The `get...Output` argument type: every argument may be an Input (arrays element-wise too). */
export type InputArgs<T> = {
  [K in keyof T]: T[K] extends readonly (infer E)[] | undefined ? pulumi.Input<pulumi.Input<E>[]> | undefined : pulumi.Input<T[K]>;
};

/** A `get...Output` function; its arguments are optional when every argument is. */
export type OutputFunction<A, R> = {} extends A
  ? (args?: InputArgs<A>, options?: DataSourceOptions) => pulumi.Output<R>
  : (args: InputArgs<A>, options?: DataSourceOptions) => pulumi.Output<R>;

/**
 * The Output form of a data source, as Pulumi providers offer it: waits for the Input
 * arguments, then runs the Promise form. Unknown inputs during a preview give an unknown result;
 * a secret input gives a secret result. `secret: true` marks the whole result secret, for
 * results that carry credentials.
 */
export function outputForm<A extends object, R>(
  fn: (args: A, options?: DataSourceOptions) => Promise<R>,
  how: { secret?: boolean } = {},
): OutputFunction<A, R> {
  const run = (args?: InputArgs<A>, options?: DataSourceOptions): pulumi.Output<R> => {
    const result = pulumi.output(args ?? {}).apply((plain) => fn(plain as unknown as A, options)) as pulumi.Output<R>;
    return how.secret ? (pulumi.secret(result) as pulumi.Output<R>) : result;
  };
  return run as OutputFunction<A, R>;
}
