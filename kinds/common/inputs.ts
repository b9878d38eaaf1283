/**
 * What every resource handler does with inputs (in the SDK's shape: booleans, string arrays):
 * validate them in `check`, compare them in `diff`, and rebuild them from the live object in
 * `read` without ever inventing a difference.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { describeIssues, propertyPath } from "../../client/core/input-issues";

/** The engine's placeholder for a value not known until apply (preview of a dependent value). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The dynamic-provider host's key for the serialized provider; never a user property. */
export const PROVIDER_KEY = "__provider";

/** Every kind's `adoptId` input (handlers/shared.ts); it only matters to `create`, so changing it later is no change. */
export const ADOPT_KEY = "adoptId";

/** Keys that are not managed properties of the object. */
const UNMANAGED = new Set([PROVIDER_KEY, ADOPT_KEY]);

export type Inputs = Record<string, unknown>;

/** True when the value is, or holds anywhere inside, an unknown. */
export function hasUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (value && typeof value === "object") return Object.values(value).some(hasUnknown);
  return false;
}

/**
 * Validates `news` against a strict zod schema; a property unknown during preview is not judged.
 * Returns the inputs unchanged: what the user wrote is what state records.
 */
export function checkInputs(schema: z.ZodType, news: Inputs): pulumi.dynamic.CheckResult {
  const { [PROVIDER_KEY]: _provider, ...props } = news;
  // The top-level keys whose value is unknown at preview: their rules are checked at apply.
  const unknown = new Set(Object.keys(props).filter((key) => hasUnknown(props[key])));
  const failures = describeIssues(schema, props)
    .filter((issue) => issue.unknownKey || issue.path.length === 0 || !unknown.has(String(issue.path[0])))
    // A whole-object rule (such as "offset is required for midroll") cannot be judged while
    // any input it might depend on is unknown.
    .filter((issue) => issue.path.length > 0 || unknown.size === 0)
    .map((issue) => ({ property: propertyPath(issue.path), reason: issue.reason }));
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

/** Order-insensitive, duplicate-insensitive equality for lists the API treats as sets. */
export function sameSet(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const left = new Set((a ?? []).map(String));
  const right = new Set((b ?? []).map(String));
  return left.size === right.size && [...left].every((item) => right.has(item));
}

/** Structural equality of JSON-like values. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue((a as Inputs)[k], (b as Inputs)[k]));
  }
  return false;
}

/** How one input property is compared; defaults to {@link sameValue}. */
export type Comparator = (declared: unknown, live: unknown) => boolean;

/** Per kind: which properties force a replacement, and how the others compare. */
export interface DiffRules {
  /** Properties that identify the object: a change replaces it. */
  replaceOn: readonly string[];
  /** Comparators for properties that are not compared structurally (sets, normalised strings). */
  compare?: Readonly<Record<string, Comparator>>;
  /** Only one object per identity may exist, so the old one must go first. */
  deleteBeforeReplace?: boolean;
}

/**
 * Compares the recorded inputs (`olds`, after a refresh the live values) with the declared ones.
 * Only properties the program declares are managed: one it leaves out is not a change.
 */
export function diffInputs(olds: Inputs, news: Inputs, rules: DiffRules): pulumi.dynamic.DiffResult {
  const changed: string[] = [];
  for (const key of Object.keys(news)) {
    if (UNMANAGED.has(key) || news[key] === undefined) continue;
    const same = rules.compare?.[key] ?? sameValue;
    if (hasUnknown(news[key]) || !same(news[key], olds[key])) changed.push(key);
  }
  const replaces = changed.filter((key) => rules.replaceOn.includes(key));
  return {
    changes: changed.length > 0,
    replaces,
    stables: rules.replaceOn.filter((key) => !replaces.includes(key)),
    deleteBeforeReplace: replaces.length > 0 && rules.deleteBeforeReplace === true,
  };
}

/**
 * The inputs a refresh records: for each declared property, the declared value when the live one
 * equals it under the kind's comparator (so formatting and order never show as drift), otherwise
 * the live value. On import (`declared` is empty) every live property is taken.
 */
export function inputsFromLive(declared: Inputs, live: Inputs, rules: Pick<DiffRules, "compare">): Inputs {
  const declaredKeys = Object.keys(declared).filter((k) => !UNMANAGED.has(k));
  const keys = declaredKeys.length ? declaredKeys : Object.keys(live);
  const inputs: Inputs = {};
  for (const key of keys) {
    if (!(key in live) || live[key] === undefined) {
      if (key in declared) inputs[key] = declared[key];
      continue;
    }
    const same = rules.compare?.[key] ?? sameValue;
    inputs[key] = key in declared && same(declared[key], live[key]) ? declared[key] : live[key];
  }
  if (declared[ADOPT_KEY] !== undefined) inputs[ADOPT_KEY] = declared[ADOPT_KEY];
  return inputs;
}

/** The given keys of `from` that are set, e.g. the input properties held in a state's outputs. */
export function pickInputs(from: Inputs, keys: readonly string[]): Inputs {
  const picked: Inputs = {};
  for (const key of keys) if (from[key] !== undefined) picked[key] = from[key];
  return picked;
}
