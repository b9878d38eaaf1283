/**
 * What every data source shares on the program side: the API client, configured like the
 * resources' (stack config `cdnstream:*` first, then `CDNSTREAM_*` environment variables), one per
 * distinct configuration per program, and the `get...Output` form of a function.
 *
 * Data sources run in the program process and call the client directly (docs/design.md, "1. Shape"); no
 * resource is registered, so nothing of the configuration, the key least of all, reaches state.
 */
import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { CdnstreamClient } from "../../client";
// Types the SDK's public signatures name come from the client's module whose declarations are
// plain (config.ts names no undici or zod type), never from the client's index: a user's `tsc`
// without skipLibCheck checks every declaration file the SDK's reach, and zod's do not compile
// without esModuleInterop. Values come from the index, at the first call (./lazy-client.ts).
import type { ConfigOptions, ConfigSource } from "../../client/core/config";
import { clientModule } from "./lazy-client";

/**
 * A client made with `new CdnstreamClient(...)` from `pulumi-cdnstream/provider/client`, as the
 * `client` option takes it. Declared by the members that identify one, so that the SDK's types
 * stay plain; the class itself carries its full type.
 */
export interface ApiClient {
  /** Base URL (before `/v2`), without credentials. */
  readonly baseUrl: string;
  /** Closes the client's connections. */
  close(): Promise<void>;
}

/** Options every data source takes after its arguments (the place of Pulumi's invoke options). */
export interface DataSourceOptions {
  /**
   * Run through this client (a `CdnstreamClient`) instead of the shared one. The SDK never
   * closes a client it was given. Useful in scripts and tests that already hold one, or that
   * need the client's injectable parts (dispatcher, logger).
   */
  client?: ApiClient;
  /**
   * Client settings that win over stack config and the environment, e.g. `{ baseUrl, apiKey }`
   * in a script outside `pulumi up`. Clients are shared per distinct resulting configuration.
   */
  clientOptions?: ConfigOptions;
  /** Cancels the call (and any wait between retries). */
  signal?: AbortSignal;
}

/**
 * The program's `cdnstream:*` stack config by setting name, as the engine hands it (`PULUMI_CONFIG`, decrypted):
 * `pulumi.runtime.getConfig` logs no "use getSecret" warning, unlike `new pulumi.Config().get()`,
 * and returns a plain string, unlike `getSecret`. The key never leaves this process. Outside a
 * Pulumi run this is empty and the environment applies. @internal
 */
export function stackConfig(): ConfigSource {
  const config: Record<string, string | undefined> = {};
  for (const name of clientModule().CONFIG_NAMES)
    config[name] = programRuntime().runtime.getConfig(`cdnstream:${name}`);
  return config;
}

/**
 * @pulumi/pulumi's program runtime, at its first use: a program has loaded it already, and the
 * provider plugin, which calls the data sources with its own client to answer an invoke, never
 * needs it (loading it would start the program runtime's machinery in the plugin process).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded where a program needs it, not by the plugin
const programRuntime = (): typeof pulumi => require("@pulumi/pulumi");

/** Shared clients by configuration fingerprint (an inline program may run against several). */
const clients = new Map<string, CdnstreamClient>();
let closeOnExit = false;

/**
 * The client a data source call uses: `options.client`, or the shared client of the resolved
 * configuration (created on first use). Resolving throws a ConfigError saying what to set.
 * @internal
 */
export function dataSourceClient(options: DataSourceOptions = {}): CdnstreamClient {
  if (options.client) return givenClient(options.client);
  // The errors' advice speaks of stack config, as to a program's author; loaded with the client, at the first call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred with the client (./lazy-client.ts)
  const { stackWording } = require("../../kinds/common/advice") as typeof import("../../kinds/common/advice");
  const clientOptions: ConfigOptions = {
    ...stackWording(),
    ...options.clientOptions,
    config: { ...stackConfig(), ...options.clientOptions?.config },
  };
  const resolved = clientModule().resolveConfig(clientOptions);
  // The key enters the fingerprint only hashed: this string is a map key, nothing more.
  const fingerprint = createHash("sha256")
    .update(JSON.stringify({ ...resolved, apiKey: resolved.apiKey.reveal() }))
    .digest("hex");
  let client = clients.get(fingerprint);
  if (!client) {
    client = new (clientModule().CdnstreamClient)(clientOptions);
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
 * The `client` option as the client it must be. Checked by shape, not `instanceof`: a program
 * may hold a client from another copy of the package (a script's own install, the sources).
 */
function givenClient(client: ApiClient): CdnstreamClient {
  const candidate = client as Partial<CdnstreamClient>;
  if (![candidate.call, candidate.raw, candidate.close].every((method) => typeof method === "function")) {
    throw new TypeError(
      'the `client` option must be a CdnstreamClient (import { CdnstreamClient } from "pulumi-cdnstream/provider/client"); ' +
        "to pass settings instead, use `clientOptions`",
    );
  }
  return client as CdnstreamClient;
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
  [K in keyof T]: T[K] extends readonly (infer E)[] | undefined
    ? pulumi.Input<pulumi.Input<E>[]> | undefined
    : pulumi.Input<T[K]>;
};

/** A `get...Output` function; its arguments are optional when every argument is. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends A`: A's keys are all optional
export type OutputFunction<A, R> = {} extends A
  ? (args?: InputArgs<A>, options?: DataSourceOptions) => pulumi.Output<R>
  : (args: InputArgs<A>, options?: DataSourceOptions) => pulumi.Output<R>;

/**
 * The Output form of a data source, as Pulumi providers offer it: waits for the Input
 * arguments, then runs the Promise form. Unknown inputs during a preview give an unknown result;
 * a secret input gives a secret result. `secret: true` marks the whole result secret, for
 * results that carry credentials.
 *
 * Typed from the whole function rather than from its first parameter: a Promise form whose
 * arguments are optional has `args?: X`, and inferring `A` from that parameter would give
 * `X | undefined`, which is not an object, so the Output form's arguments would degrade to
 * `object` and accept any misspelt key.
 * @internal
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- accepts every Promise form (`unknown` would not)
export function outputForm<F extends (args: any, options?: DataSourceOptions) => Promise<unknown>>(
  fn: F,
  how: { secret?: boolean } = {},
): OutputFunction<NonNullable<Parameters<F>[0]>, Awaited<ReturnType<F>>> {
  type R = Awaited<ReturnType<F>>;
  const run = (args?: object, options?: DataSourceOptions): pulumi.Output<R> => {
    const sdk = programRuntime();
    const result = sdk.output(args ?? {}).apply((plain) => fn(plain, options)) as pulumi.Output<R>;
    return how.secret ? (sdk.secret(result) as pulumi.Output<R>) : result;
  };
  // The provider plugin reads it to mark the same function's result secret (provider/plugin/server.ts).
  if (how.secret) Object.assign(run, { secretResult: true });
  return run as OutputFunction<NonNullable<Parameters<F>[0]>, R>;
}
