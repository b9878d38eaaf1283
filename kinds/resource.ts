/**
 * What every resource class registers: hands the engine the kind's provider as a one-line module
 * (`__provider`, docs/design.md "The serialized provider"), marks the kind's secret outputs,
 * and keeps the type token (`pulumi-nodejs:dynamic/cdnstream:<Kind>`) that the URNs of existing
 * stacks hold.
 *
 * It registers what `pulumi.dynamic.Resource` registers, but writes the module text itself
 * instead of running the closure serializer: the dynamic-provider host only evaluates the text as
 * a CommonJS module and calls its `handler()` export (@pulumi/pulumi `cmd/dynamic-provider`,
 * `getProvider`, the same from 3.246 to 3.270 at least), and the serializer's closure scaffolding
 * would be stored twice per resource and load its parser into the program.
 */
import * as pulumi from "@pulumi/pulumi";
import { packageVersion, PLUGIN_PACKAGE } from "./package-info";
import { isPluginProvider } from "./provider";

/** A kind as the registry (kinds/registry.ts, generated) states it: its identity, and where it lives. */
export interface RegisteredKind {
  /** The kind's name, the last part of its type token (e.g. `StreamStatus`). */
  readonly type: string;
  /** Its folder under `kinds/` (and module under `provider/shims/`). */
  readonly folder: string;
  /** The id's format, which is also what `pulumi import` and `adoptId` take. */
  readonly idFormat: string;
  /** Outputs the engine encrypts in state and masks in its output. */
  readonly secretOutputs: readonly string[];
  /**
   * The kind's input and output properties (kinds/<kind>/declaration.ts). Each is registered,
   * unset until the provider answers, so every declared property has its `Output` on the
   * resource even when the program leaves it out.
   */
  readonly inputKeys: readonly string[];
  readonly outputKeys: readonly string[];
}

/**
 * Stops V8 capturing stacks for the errors created until the returned function is called, and
 * returns that function, which restores the limit: a resource's registration is run between the two.
 *
 * The SDK's registration stores, on each of its four promises per property, the text of a
 * `new Error().stack` for its promise-leak report: most of a program's CPU per resource
 * (docs/benchmarks.md). The registration runs synchronously inside `super()`, so the limit is ours
 * only for that span; the source position and stack trace the engine records are captured by the
 * SDK with an unlimited stack of its own. With `PULUMI_DEBUG_PROMISE_LEAKS` every stack is kept;
 * an error thrown synchronously by the registration keeps its message, without frames.
 */
export function withoutPromiseStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => void (Error.stackTraceLimit = limit);
}

/** `{ key: undefined }` for each key: a property registered without a value. */
const unset = (keys: readonly string[]): pulumi.Inputs => Object.fromEntries(keys.map((key) => [key, undefined]));

/** The property the dynamic-provider host reads the provider's module text from. */
const PROVIDER_KEY = "__provider";

/**
 * The module text of a kind's provider: its `handler()` returns the kind's shim, from the package
 * installed beside the program, by a public export (`./provider/*`) that stays put when the code
 * behind it moves.
 */
const providerModule = (shim: string) => `exports.handler=()=>require("pulumi-cdnstream/provider/shims/${shim}")`;

/**
 * The cdnstream provider instance a resource is given: its `provider` option, or one its parent
 * holds for the package (a component's `providers`), as Pulumi's own lookup would find it.
 */
function pluginProviderOf(type: string, opts?: pulumi.CustomResourceOptions): pulumi.ProviderResource | undefined {
  if (opts?.provider) return isPluginProvider(opts.provider) ? opts.provider : undefined;
  const inherited = opts?.parent?.getProvider(`${PLUGIN_PACKAGE}:index:${type}`);
  return isPluginProvider(inherited) ? inherited : undefined;
}

/**
 * What a resource of this package registers: a dynamic resource, or, given a cdnstream `Provider`
 * (kinds/provider.ts), a resource of the provider plugin. The plugin serves the same handlers, so
 * both behave alike; only the plugin has provider instances (several accounts) and serves the
 * `import` option. The stack limit is 0 from here until `restoreStacks()`, which the class calls
 * in a `finally` around its `super()`.
 *
 * Each kind's class extends `pulumi.CustomResource` itself and passes the result to `super()`,
 * rather than through a base class of ours, because the SDK takes a resource's source position
 * (which Pulumi Cloud shows for it) four frames up from its own constructor, counting Resource,
 * CustomResource and the resource's class: a class of ours between CustomResource and the kind's
 * would make it a line of this package instead of the program's.
 */
export function registration(
  kind: RegisteredKind,
  name: string,
  props: pulumi.Inputs,
  opts?: pulumi.CustomResourceOptions,
) {
  if (props[PROVIDER_KEY] !== undefined)
    throw new Error(`${kind.type} ${name}: ${PROVIDER_KEY} is reserved for the provider's module`);
  const { secretOutputs } = kind;
  const secretOptions: pulumi.CustomResourceOptions = secretOutputs.length
    ? { additionalSecretOutputs: [...secretOutputs] }
    : {};
  let type: string, registered: pulumi.Inputs, options: pulumi.CustomResourceOptions | undefined;
  const provider = pluginProviderOf(kind.type, opts);
  if (provider) {
    const { adoptId, ...inputs } = props;
    if (adoptId !== undefined)
      throw new Error(
        `${kind.type} ${name}: adoptId is for resources without a provider; with a cdnstream Provider, ` +
          `adopt an existing object with the import option instead (import: "<id>", the id adoptId would take)`,
      );
    type = `${PLUGIN_PACKAGE}:index:${kind.type}`;
    registered = { ...unset(kind.inputKeys), ...inputs, ...unset(kind.outputKeys) };
    options = pulumi.mergeOptions(opts, { ...secretOptions, provider, version: packageVersion });
  } else {
    type = `pulumi-nodejs:dynamic/cdnstream:${kind.type}`;
    registered = {
      ...unset(kind.inputKeys),
      ...props,
      ...unset(kind.outputKeys),
      [PROVIDER_KEY]: providerModule(kind.folder),
    };
    options = secretOutputs.length ? pulumi.mergeOptions(opts, secretOptions) : opts;
  }
  return { type, props: registered, options, restoreStacks: withoutPromiseStacks() };
}
