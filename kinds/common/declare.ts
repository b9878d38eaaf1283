/**
 * A kind's single declaration (`kinds/<kind>/declaration.ts`) and what is derived from it, once
 * for every kind (docs/design.md §1 "A kind's folder" lists it); `Declares` binds the class's
 * hand-written `Args` and output fields (whose JSDoc users read) to it at compile time.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { sameSet, type Comparator, type DiffRules } from "./inputs";

/** A whole number of at least `min`; `why` ends each message, e.g. "(seconds)". */
export const wholeNumber = (min: number, why: string) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `is required ${why}` : `must be a whole number ${why}`) })
    .int(`must be a whole number ${why}`)
    .min(min, `must be at least ${min} ${why}`);

/** Lists compared as sets: order and duplicates are no difference. */
export const asSet: Comparator = (a, b) => sameSet(a as unknown[], b as unknown[]);

/** One input property of a kind. */
export interface InputDeclaration {
  /** The rule `check` enforces; its messages are what users see. */
  readonly rule: z.ZodType;
  /** A change replaces the resource (identity, or a setting the API cannot change in place). */
  readonly replaces?: boolean;
  /** Equality with a recorded value (diff); `sameValue` when absent. */
  readonly compare?: Comparator;
  /** Equality with the live value (refresh, adoption) where it differs from `compare`. */
  readonly compareLive?: Comparator;
  /** The engine encrypts it in state and masks it in its output. */
  readonly secret?: boolean;
}

/** One output property of a kind. */
export interface OutputDeclaration {
  /** The engine encrypts it in state and masks it in its output. */
  readonly secret?: boolean;
  /** Only a write returns it (such as the write's warnings): a refresh keeps the last one. */
  readonly keptOnRefresh?: boolean;
}

type Inputs = Record<string, InputDeclaration>;
type Outputs = Record<string, OutputDeclaration>;
type Shape<I extends Inputs> = { [K in keyof I]: I[K]["rule"] } & { adoptId: z.ZodOptional<z.ZodString> };

/** What a kind declares. */
export interface KindDeclaration<I extends Inputs, O extends Outputs> {
  /** The kind's name, the last part of its type token (`pulumi-nodejs:dynamic:<name>`). */
  readonly name: string;
  /** The kind's folder under `kinds/`, and its shim under `provider/shims/`. */
  readonly folder: string;
  /** The spec sections the kind implements. */
  readonly spec: readonly string[];
  /**
   * The format of the resource id, which is also the `adoptId` format: a template of identity
   * inputs (`<streamKind>/<streamId>`), from which the id is made and parsed, or a description
   * where the kind makes and parses ids itself.
   */
  readonly idFormat: string;
  /** An id in that format, for messages (e.g. `push/1234`). */
  readonly idExample: string;
  readonly inputs: I;
  readonly outputs: O;
  /** The `adoptId` rule, where a kind can say more than "a string". */
  readonly adoptId?: z.ZodOptional<z.ZodString>;
  /**
   * The kind manages settings a program may each leave out: at least one of the optional inputs
   * must be declared, or the resource would manage nothing.
   */
  readonly requiresASetting?: boolean;
  /** Rules across inputs (e.g. "offset is required for a midroll"), applied to the strict schema. */
  readonly across?: (args: z.ZodObject<Shape<I>, z.core.$strict>) => z.ZodObject<Shape<I>, z.core.$strict>;
}

const keysWhere = <T>(record: Record<string, T>, test: (value: T) => unknown): string[] =>
  Object.keys(record).filter((key) => test(record[key]));

/** What the handler shapes take from a declared kind. */
export interface DeclaredKind extends Pick<KindDeclaration<Inputs, Outputs>, "name" | "folder" | "spec" | "idFormat"> {
  /** The strict schema `check` validates with, `adoptId` included. */
  readonly args: z.ZodType;
  /** The managed input properties (identity and settings). */
  readonly inputKeys: readonly string[];
  /** How `diff` compares declared with recorded inputs, and which changes replace. */
  readonly rules: DiffRules;
  /** How declared inputs compare with the live object (refresh, adoption). */
  readonly liveRules: { readonly compare: Record<string, Comparator> };
  /** Outputs only a write returns: a refresh keeps the last ones. */
  readonly keptOnRefresh: readonly string[];
  /** The properties (inputs and outputs) the engine encrypts. */
  readonly secretOutputs: readonly string[];
  /** Output properties: the resource class registers each, so its `Output` exists before the provider answers. */
  readonly outputKeys: readonly string[];
  /** The id of these inputs, where `idFormat` is a template of inputs. */
  readonly idOf?: (args: Record<string, unknown>) => string;
  /** The identity inputs an id encodes, where `idFormat` is a template; throws, naming the format. */
  readonly parseId?: (id: string) => Record<string, unknown>;
  /** The kind's identity, as the registry (kinds/resource.ts `RegisteredKind`) states it. */
  readonly identity: Pick<DeclaredKind, "secretOutputs" | "inputKeys" | "outputKeys"> & { readonly type: string };
}

/**
 * Making and parsing ids by the template `idFormat` (`<projectId>/<campaignId>`): each part is
 * taken as the text, or as the number, that its input's rule accepts.
 */
function idTemplate<I extends Inputs, O extends Outputs>(declaration: KindDeclaration<I, O>) {
  const names = [...declaration.idFormat.matchAll(/<(\w+)>/g)].map((match) => match[1]);
  if (!names.length || names.some((name) => !(name in declaration.inputs))) return {};
  const escaped = declaration.idFormat.split(/<\w+>/).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(
    `^${escaped.map((literal, i) => literal + (i < names.length ? "([^/]+)" : "")).join("")}$`,
  );
  const refuse = (id: string) =>
    new Error(`${declaration.name} id "${id}" is not ${declaration.idFormat}, e.g. "${declaration.idExample}".`);
  return {
    idOf: (args: Record<string, unknown>) =>
      names.reduce((id, name) => id.replace(`<${name}>`, String(args[name])), declaration.idFormat),
    parseId(id: string) {
      const parts = pattern.exec(id)?.slice(1);
      if (!parts) throw refuse(id);
      return Object.fromEntries(
        names.map((name, i) => {
          const rule = declaration.inputs[name].rule;
          if (rule.safeParse(parts[i]).success) return [name, parts[i]];
          if (/^\d+$/.test(parts[i]) && rule.safeParse(Number(parts[i])).success) return [name, Number(parts[i])];
          throw refuse(id);
        }),
      );
    },
  };
}

/** A kind's declaration with everything derived from it. */
export function declareKind<const I extends Inputs, const O extends Outputs>(
  declaration: KindDeclaration<I, O>,
): Omit<DeclaredKind, "args" | "inputKeys"> &
  KindDeclaration<I, O> & {
    readonly args: z.ZodObject<Shape<I>, z.core.$strict>;
    readonly inputKeys: readonly (keyof I & string)[];
  } {
  const { inputs, outputs } = declaration;
  const shape = Object.fromEntries(Object.entries(inputs).map(([key, input]) => [key, input.rule]));
  const strict = z.strictObject({ ...shape, adoptId: declaration.adoptId ?? z.string().optional() }) as z.ZodObject<
    Shape<I>,
    z.core.$strict
  >;
  const comparators = (pick: (input: InputDeclaration) => Comparator | undefined) =>
    Object.fromEntries(keysWhere(inputs, pick).map((key) => [key, pick(inputs[key])!]));
  const inputKeys = Object.keys(inputs) as (keyof I & string)[];
  const outputKeys = Object.keys(outputs);
  const secretOutputs = [
    ...keysWhere(inputs, (input) => input.secret),
    ...keysWhere(outputs, (output) => output.secret),
  ];
  // The inputs a program may leave out, asked of their rules when a check first needs them, not
  // when the kind loads (in every provider host and every program).
  let settings: string[] | undefined;
  const settingKeys = () => (settings ??= keysWhere(inputs, (input) => input.rule.safeParse(undefined).success));
  const ruled = declaration.requiresASetting
    ? strict.refine((args: Record<string, unknown>) => settingKeys().some((key) => args[key] !== undefined), {
        error: () =>
          `declare at least one of ${settingKeys().join(", ")}: with none, this ${declaration.name} would manage nothing`,
      })
    : strict;
  return {
    ...declaration,
    args: declaration.across ? declaration.across(ruled) : ruled,
    inputKeys,
    rules: { replaceOn: keysWhere(inputs, (input) => input.replaces), compare: comparators((input) => input.compare) },
    liveRules: { compare: comparators((input) => input.compareLive ?? input.compare) },
    keptOnRefresh: keysWhere(outputs, (output) => output.keptOnRefresh),
    secretOutputs,
    outputKeys,
    ...idTemplate(declaration),
    identity: { type: declaration.name, secretOutputs, inputKeys, outputKeys },
  };
}

/** The inputs of a declared kind as the handler receives them (after `check`). */
export type ArgsOf<D extends { args: z.ZodType }> = z.infer<D["args"]>;

/** A class's `Args` as the provider receives them: every `pulumi.Input` resolved. */
type Resolved<Args> = { [K in keyof Args]-?: pulumi.Unwrap<Exclude<Args[K], undefined>> };
/** What the declared rules accept, property by property. */
type Ruled<D extends { args: z.ZodType }> = {
  [K in keyof z.output<D["args"]>]-?: Exclude<z.output<D["args"]>[K], undefined>;
};
/** The properties whose type in `Args` differs from what the declared rule accepts. */
type TypesDiffer<D extends { args: z.ZodType }, Args> = {
  [K in keyof Ruled<D> & keyof Resolved<Args>]: [Ruled<D>[K]] extends [Resolved<Args>[K]]
    ? [Resolved<Args>[K]] extends [Ruled<D>[K]]
      ? never
      : K
    : K;
}[keyof Ruled<D> & keyof Resolved<Args>];

/**
 * Compile-time binding of a resource class to its declaration: `true` only when the class's
 * `Args` names exactly the declared inputs (plus `adoptId`), each with the type its rule accepts
 * (once resolved), and the class declares every output.
 * Used as `const _bound: Declares<typeof declaration, Args, Class> = true;`.
 */
export type Declares<D extends { inputs: Inputs; outputs: Outputs; args: z.ZodType }, Args, Resource> = [
  Mismatches<D, Args, Resource>[keyof Mismatches<D, Args, Resource>],
] extends [never]
  ? true
  : { [K in keyof Mismatches<D, Args, Resource>]: Mismatches<D, Args, Resource>[K] };
/** What {@link Declares} names where the class and the declaration disagree: each property, by what is wrong. */
type Mismatches<D extends { inputs: Inputs; outputs: Outputs; args: z.ZodType }, Args, Resource> = {
  argsNotDeclared: Exclude<keyof Args, keyof D["inputs"] | "adoptId">;
  declaredNotInArgs: Exclude<keyof D["inputs"], keyof Args>;
  outputsNotOnClass: Exclude<keyof D["outputs"], keyof Resource>;
  typesDiffer: TypesDiffer<D, Args>;
};
