/**
 * The provider object of each kind, which the dynamic-provider host gets from the `__provider`
 * module text of every resource (sdk/resource.ts writes it as one
 * `require("pulumi-cdnstream/provider/shims/<kind>")`; state written by earlier releases holds
 * the closure serializer's form of the same require, or its `pulumi-cdnstream/dist/provider/
 * shims/<kind>.js` variant, and both keep loading this module). Each kind's shim is the whole
 * `module.exports` of its own module under `provider/shims/`: nothing is captured (least of all a
 * credential or a zod schema), and upgrading the package upgrades existing resources.
 * The handler it forwards to is loaded when a method is first called, in the provider host.
 */
import type * as pulumi from "@pulumi/pulumi";
import { deferZodLocales } from "./zod-locales";

/** A kind's provider-side behaviour: every method of the dynamic-provider contract. */
export type Handler = Required<
  Pick<pulumi.dynamic.ResourceProvider, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/** Where a kind's handler module lives, relative to this file (the one place that knows). */
export const handlerModule = (kind: string): string => `../kinds/${kind}/handler`;

/** The shim for `kind`: forwards each call to the `handler` export of {@link handlerModule}. */
export function shimFor(kind: string): pulumi.dynamic.ResourceProvider {
  let loaded: Handler | undefined;
  // Loaded once, at the first call: a host that never calls a kind never loads its code. zod's
  // locales are deferred before the first handler loads zod (./zod-locales.ts says why).
  const handler = (): Handler => {
    if (loaded) return loaded;
    deferZodLocales();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed path, loaded in the provider host only
    return (loaded = require(handlerModule(kind)).handler as Handler);
  };
  return {
    configure: (req) => handler().configure(req),
    check: (olds, news) => handler().check(olds, news),
    diff: (id, olds, news) => handler().diff(id, olds, news),
    create: (inputs) => handler().create(inputs),
    read: (id, props) => handler().read(id, props),
    update: (id, olds, news) => handler().update(id, olds, news),
    delete: (id, props) => handler().delete(id, props),
  };
}
