/**
 * The object handed to `pulumi.dynamic.Resource`, which the engine serializes into the state of
 * every resource (`__provider`). Each kind's shim is the whole `module.exports` of its own module
 * under `provider/shims/`, so the closure serializer writes it as one `require("pulumi-cdnstream/
 * provider/shims/<kind>")` line instead of code: state stays small, nothing (least of all a
 * credential or a zod schema) is captured, and upgrading the package upgrades existing resources.
 * The handler it forwards to is loaded when a method is first called, in the provider host.
 */
import type * as pulumi from "@pulumi/pulumi";

/** A kind's provider-side behaviour: every method of the dynamic-provider contract. */
export type Handler = Required<
  Pick<pulumi.dynamic.ResourceProvider, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/** The shim for `kind`: forwards each call to `provider/resources/<kind>`'s `handler`. */
export function shimFor(kind: string): pulumi.dynamic.ResourceProvider {
  const handler = (): Handler => require(`./resources/${kind}`).handler;
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
