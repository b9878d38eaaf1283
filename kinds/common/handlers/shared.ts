/**
 * What both handler shapes (./settings.ts, ./object.ts) do the same way: shape outputs, and compare
 * a declaration with the live object for adoption.
 *
 * Adoption (`adoptId`) stands in for `pulumi import`, which the dynamic-provider host of
 * @pulumi/pulumi 3.246 cannot serve (its read handler dereferences the state an import does not
 * have): `create` reads the live object, which must equal the declaration, and writes nothing.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { HandlerContext } from "../context";
import type { DeclaredKind } from "../declare";
import { ADOPT_KEY, pickInputs, sameValue, type Inputs } from "../inputs";

/** A kind's provider-side behaviour: every method of the dynamic-provider contract. */
export type Handler = Required<
  Pick<pulumi.dynamic.ResourceProvider, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/** What a kind's handler module exports as `handler`: its Handler, made for the context of the host that serves it. */
export type KindHandler = (context: HandlerContext) => Handler;

/**
 * A create that made its object but could not finish it: the object is recorded in state with
 * `properties`, so the next `up` updates it instead of making another. The dynamic-provider host
 * of @pulumi/pulumi reads these fields by name; the provider plugin knows the class.
 */
export class ResourceInitError extends Error {
  override name = "ResourceInitError";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Inputs,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/** Outputs always hold the declared inputs, so `diff` can compare against them. */
export function outsOf(kind: DeclaredKind, args: Inputs, outputs: Inputs): Inputs {
  return { ...declaredIn(kind, args), ...outputs };
}

/** The declared inputs a state holds, `adoptId` included. */
export function declaredIn(kind: DeclaredKind, props: Inputs): Inputs {
  return pickInputs(props, [...kind.inputKeys, ADOPT_KEY]);
}

/**
 * Fails adoption, naming each difference, unless every declared input the API echoes equals the
 * live one. The message calls the object `what` and renders values with `shown` (a kind hides
 * credentials).
 */
export function requireAdoptable(
  kind: DeclaredKind,
  id: string,
  args: Inputs,
  live: Inputs,
  then: string,
  { what = "object", shown = JSON.stringify }: { what?: string; shown?: (value: unknown) => string } = {},
): void {
  const differing = kind.inputKeys.filter((key) => {
    if (args[key] === undefined || live[key] === undefined) return false;
    const same = kind.liveRules.compare[key] ?? sameValue;
    return !same(args[key], live[key]);
  });
  if (!differing.length) return;
  const detail = differing
    .map((key) => `${key} is ${shown(live[key])} live but declared ${shown(args[key])}`)
    .join("; ");
  throw new Error(
    `${kind.name} adoptId "${id}": adopting requires the declared inputs to match the live ${what}: ${detail}. ${then}`,
  );
}
