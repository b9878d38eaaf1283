/**
 * The provider plugin's provider instance, for TypeScript programs: a resource given
 * `new cdn.Provider("prod", { apiKey, baseUrl })` as its `provider` option is a resource of the
 * plugin `pulumi-resource-cdnstream` (type `cdnstream:index:<Kind>`) instead of a dynamic one, as
 * several accounts in one program and the `import` option need (docs/plugin.md).
 */
import * as pulumi from "@pulumi/pulumi";
// A type only, from the module whose declarations are plain (./data-sources/client.ts says why).
import type { NUMERIC_SETTINGS } from "../client/core/config";
import { packageVersion, PLUGIN_PACKAGE } from "./package-info";

/**
 * Settings of one provider instance: the same settings as the stack config `cdnstream:<name>`
 * (the README's configuration table), each falling back to its `CDNSTREAM_*` environment
 * variable and then its default. Numbers are milliseconds, counts or requests per second.
 */
export type ProviderArgs = {
  /** The account's API key, sent as `X-API-Key`; stored encrypted. Falls back to `CDNSTREAM_API_KEY`. */
  apiKey?: pulumi.Input<string>;
  /** The API's address before `/v2`, e.g. `https://api.example.com`. Falls back to `CDNSTREAM_BASE_URL`. */
  baseUrl?: pulumi.Input<string>;
} & { [Setting in keyof typeof NUMERIC_SETTINGS]?: pulumi.Input<number> };

/** One account: resources given it as their `provider` option are managed through the provider plugin. */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const props: pulumi.Inputs = { ...args };
    if (args.apiKey !== undefined) props.apiKey = pulumi.secret(args.apiKey);
    super(PLUGIN_PACKAGE, name, props, pulumi.mergeOptions({ version: packageVersion }, opts));
  }
}

/** Whether a resource's `provider` option is one of ours (and so the resource goes through the plugin). */
export function isPluginProvider(provider: unknown): provider is Provider {
  return (
    provider instanceof Provider ||
    // A Provider of another copy of this package (two installs side by side) is ours too.
    (pulumi.ProviderResource.isInstance(provider) &&
      (provider as unknown as { getPackage?: () => string }).getPackage?.() === PLUGIN_PACKAGE)
  );
}
