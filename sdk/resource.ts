/**
 * The base of every resource class: hands the engine the kind's serialized provider (the shim
 * of `provider/shims/<kind>`, docs/design.md §1 "The serialized provider"), marks the kind's
 * secret outputs, and keeps the type token (`pulumi-nodejs:dynamic:<Kind>`) that the URNs of
 * existing stacks hold.
 */
import * as pulumi from "@pulumi/pulumi";

/** What a resource class tells its base about its kind. */
export interface KindIdentity {
  /** The kind's name, the last part of its type token (e.g. `StreamStatus`). */
  readonly type: string;
  /** The kind's module name under `provider/shims/` (e.g. `stream-status`). */
  readonly shim: string;
  /** Outputs the engine encrypts in state and masks in its output. */
  readonly secretOutputs?: readonly string[];
}

/** A dynamic resource of this package. */
export abstract class CdnstreamResource extends pulumi.dynamic.Resource {
  protected constructor(kind: KindIdentity, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    const secretOutputs = kind.secretOutputs ?? [];
    super(
      require(`../provider/shims/${kind.shim}`),
      name,
      props,
      secretOutputs.length ? pulumi.mergeOptions(opts, { additionalSecretOutputs: [...secretOutputs] }) : opts,
      "cdnstream",
      kind.type,
    );
  }
}
