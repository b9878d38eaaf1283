/**
 * Checks compiled ahead of time. A plan is a schema's check written as plain data (what each
 * value must be, and what a transform makes of it), which {@link compilePlan} turns into plain
 * functions that check a parsed value and build the same output zod would. Plans are taken from
 * the schemas by {@link planOf}: at build time for every operation and identity rule
 * (scripts/gen-checks.ts writes them to ./check-plans.ts), so a provider host that reads or
 * releases (a refresh, a destroy) checks requests and answers with no zod loaded; and at run time
 * for any schema without one.
 *
 * zod stays the authority: a plan holds only what it states exactly (types, the length, pattern,
 * integer and bound checks, literals, the functions of ./check-functions.ts); any other part of
 * a schema is planned as `{ zod }`, checked by zod at run time, and a schema holding one is not
 * written ahead of time. A value a compiled check refuses is parsed again by zod, whose issues
 * make the error, so a check only ever answers "valid, and here is zod's output".
 */
import type { z } from "zod";
import { checkFunctions, type CheckFunctionName } from "./check-functions";

/** What a value must be for a string or a number, beyond its type (zod's checks of that name). */
export interface Bounds {
  /** String length at least (`min_length`) / at most (`max_length`). */
  minLength?: number;
  maxLength?: number;
  /** `string_format` regex: source and flags. */
  pattern?: [string, string];
  /** Number: a safe integer (`number_format` safeint). */
  int?: true;
  /** Number: at least / above (`greater_than`), at most / below (`less_than`). */
  gte?: number;
  gt?: number;
  lte?: number;
  lt?: number;
  /** `custom` checks (`.refine(f)`) by the name of their function. */
  refine?: CheckFunctionName[];
}

export type Plan =
  | { type: "string" | "number" | "boolean"; bounds?: Bounds }
  | { type: "unknown" }
  | { type: "literal"; values: (string | number | boolean | null)[] }
  | { type: "enum"; values: (string | number)[] }
  | { type: "nullable" | "optional" | "nonoptional" | "array"; of: Plan }
  | { type: "union"; options: Plan[] }
  /** Fields as [key, plan, required]; `strict` refuses other keys (and drops none), else they are kept. */
  | { type: "object"; fields: [string, Plan, boolean][]; strict?: true }
  /** A value checked by `from`, then given to the named transform. */
  | { type: "transform"; from: Plan; by: CheckFunctionName }
  /** A part only zod checks: run time only, never written ahead of time. */
  | { type: "zod"; schema: z.ZodType };

/** The parts of zod's internals a plan is read from (zod v4 `_zod`). */
interface Internals {
  def: {
    type: string;
    checks?: { _zod: { def: Record<string, unknown> } }[];
    coerce?: boolean;
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    element?: z.ZodType;
    innerType?: z.ZodType;
    options?: z.ZodType[];
    values?: unknown[];
    entries?: Record<string, string | number>;
    in?: z.ZodType;
    out?: z.ZodType;
    transform?: unknown;
  };
  optin?: "optional" | "defaulted";
}
const internals = (schema: z.ZodType) => (schema as unknown as { _zod: Internals })._zod;

const nameOf = (fn: unknown): CheckFunctionName | undefined =>
  (Object.keys(checkFunctions) as CheckFunctionName[]).find((name) => checkFunctions[name] === fn);

/** The bounds zod's checks state, or undefined where one of them is not one a plan holds. */
function boundsOf(checks: NonNullable<Internals["def"]["checks"]>): Bounds | undefined {
  const bounds: Bounds = {};
  for (const check of checks) {
    const def = check._zod.def;
    // zod's length checks carry a `when` of their own (the value has a length: a string always does).
    if (def.when !== undefined && def.check !== "min_length" && def.check !== "max_length") return undefined;
    switch (def.check) {
      case "min_length":
        bounds.minLength = Math.max(bounds.minLength ?? 0, def.minimum as number);
        break;
      case "max_length":
        bounds.maxLength = Math.min(bounds.maxLength ?? Infinity, def.maximum as number);
        break;
      case "string_format": {
        const pattern = def.pattern as RegExp | undefined;
        if (def.format !== "regex" || !pattern || bounds.pattern) return undefined;
        bounds.pattern = [pattern.source, pattern.flags];
        break;
      }
      case "number_format":
        if (def.format !== "safeint") return undefined;
        bounds.int = true;
        break;
      case "greater_than":
        if (def.inclusive) bounds.gte = Math.max(bounds.gte ?? -Infinity, def.value as number);
        else bounds.gt = Math.max(bounds.gt ?? -Infinity, def.value as number);
        break;
      case "less_than":
        if (def.inclusive) bounds.lte = Math.min(bounds.lte ?? Infinity, def.value as number);
        else bounds.lt = Math.min(bounds.lt ?? Infinity, def.value as number);
        break;
      case "custom": {
        const name = nameOf(def.fn);
        if (!name || def.abort || def.params !== undefined) return undefined;
        (bounds.refine ??= []).push(name);
        break;
      }
      default:
        return undefined;
    }
  }
  return bounds;
}

/** A schema's plan; the parts it cannot state are `{ type: "zod" }`. */
export function planOf(schema: z.ZodType): Plan {
  const zod = internals(schema);
  const def = zod.def;
  const byZod: Plan = { type: "zod", schema };
  if (def.coerce) return byZod;
  const checks = def.checks ?? [];
  const bounds = checks.length > 0 ? boundsOf(checks) : undefined;
  if (checks.length > 0 && !bounds) return byZod;
  switch (def.type) {
    case "string":
    case "number":
    case "boolean":
      return bounds ? { type: def.type, bounds } : { type: def.type };
    case "unknown":
    case "any":
      return checks.length > 0 ? byZod : { type: "unknown" };
    case "literal": {
      // Values that JSON writes as they are (not undefined, a bigint or a symbol): a plan is data.
      const values = def.values ?? [];
      const plain = values.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v));
      return checks.length > 0 || !plain ? byZod : { type: "literal", values: values as never };
    }
    case "enum": {
      // String enums; zod reads a numeric one (a TypeScript enum's reverse mapping) its own way.
      const values = Object.values(def.entries ?? {});
      return checks.length > 0 || values.some((v) => typeof v !== "string") ? byZod : { type: "enum", values };
    }
    case "nullable":
    case "nonoptional":
    case "array":
      if (checks.length > 0) return byZod;
      return { type: def.type, of: planOf(def.type === "array" ? def.element! : def.innerType!) };
    case "optional":
      // An inner schema that is optional itself is run by zod on undefined too (and may make
      // something of it): zod's.
      if (checks.length > 0 || internals(def.innerType!).optin !== undefined) return byZod;
      return { type: "optional", of: planOf(def.innerType!) };
    case "union": {
      // An object or array option checks in place; failing half-way it may leave a field
      // converted, which only a later object or array option could see: zod takes those.
      const containers = def.options!.filter((o) => ["object", "array"].includes(internals(o).def.type));
      if (checks.length > 0 || containers.length > 1) return byZod;
      return { type: "union", options: def.options!.map(planOf) };
    }
    case "object":
      return checks.length > 0 ? byZod : objectPlan(schema, def);
    case "pipe": {
      // `.transform(f)`: zod's pipe into a transform, which a plan holds when f is one it names.
      const out = internals(def.out!).def;
      const by = out.type === "transform" ? nameOf(out.transform) : undefined;
      if (checks.length > 0 || !by) return byZod;
      return { type: "transform", from: planOf(def.in!), by };
    }
    default:
      return byZod;
  }
}

function objectPlan(schema: z.ZodType, def: Internals["def"]): Plan {
  const catchall = def.catchall ? internals(def.catchall).def.type : undefined;
  // Loose objects keep unknown keys as they are; strict ones refuse them; others strip: zod's.
  const strict = catchall === "never";
  if (!strict && catchall !== "unknown" && catchall !== "any") return { type: "zod", schema };
  const fields: [string, Plan, boolean][] = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const { optin } = internals(field);
    if (key === "__proto__" || optin === "defaulted") return { type: "zod", schema };
    fields.push([key, planOf(field), optin === undefined]);
  }
  return strict ? { type: "object", fields, strict: true } : { type: "object", fields };
}

/** Whether `test` holds for a plan or any part of it (its inner plans, options, fields). */
export function somePart(plan: Plan, test: (part: Plan) => boolean): boolean {
  if (test(plan)) return true;
  switch (plan.type) {
    case "nullable":
    case "optional":
    case "nonoptional":
    case "array":
      return somePart(plan.of, test);
    case "union":
      return plan.options.some((option) => somePart(option, test));
    case "object":
      return plan.fields.some(([, field]) => somePart(field, test));
    case "transform":
      return somePart(plan.from, test);
    default:
      return false;
  }
}

/** Whether a plan holds no part only zod checks: one that can be written ahead of time. */
export const isStandalone = (plan: Plan): boolean => !somePart(plan, (part) => part.type === "zod");

/** What names an identity rule's plan among those written ahead of time: `<Kind>.<input>`. */
export const ruleKey = (kind: string, input: string): string => `${kind}.${input}`;

// ---- compiling a plan --------------------------------------------------------------------------

/** What a compiled check returns for a value it refuses. */
export const FAIL: unique symbol = Symbol("invalid");
export type Check = (value: unknown) => unknown;

const CTX = { async: false } as const;
type Run = (payload: { value: unknown; issues: unknown[] }, ctx: typeof CTX) => { value: unknown; issues: unknown[] };

/**
 * The check of a plan: the value's output as zod gives it, or {@link FAIL}. It checks in place
 * (the value must be the caller's own: a fresh `JSON.parse`, or a copy), replacing a field or an
 * element only where its output differs.
 */
export function compilePlan(plan: Plan): Check {
  switch (plan.type) {
    case "string":
      return withBounds(plan.bounds, (v) => typeof v === "string");
    case "number":
      return withBounds(plan.bounds, (v) => typeof v === "number" && Number.isFinite(v));
    case "boolean":
      return withBounds(plan.bounds, (v) => typeof v === "boolean");
    case "unknown":
      return (v) => v;
    case "literal":
    case "enum": {
      const values = plan.values as unknown[];
      return (v) => (values.includes(v) ? v : FAIL);
    }
    case "nullable": {
      const inner = compilePlan(plan.of);
      return (v) => (v === null ? null : inner(v));
    }
    case "optional": {
      const inner = compilePlan(plan.of);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case "nonoptional": {
      const inner = compilePlan(plan.of);
      return (v) => {
        const out = inner(v);
        return out === undefined ? FAIL : out;
      };
    }
    case "array":
      return compileArray(compilePlan(plan.of));
    case "union": {
      const options = plan.options.map(compilePlan);
      return (v) => {
        for (const option of options) {
          const out = option(v);
          if (out !== FAIL) return out;
        }
        return FAIL;
      };
    }
    case "object":
      return compileObject(plan.fields, plan.strict === true);
    case "transform": {
      const from = compilePlan(plan.from);
      const by = checkFunctions[plan.by] as (value: never) => unknown;
      return (v) => {
        const out = from(v);
        return out === FAIL ? FAIL : by(out as never);
      };
    }
    case "zod": {
      const zod = (plan.schema as unknown as { _zod: { run: Run } })._zod;
      return (value) => {
        const result = zod.run({ value, issues: [] }, CTX);
        return result.issues.length > 0 ? FAIL : result.value;
      };
    }
  }
}

/** A typed leaf with its bounds; the value is its own output. */
function withBounds(bounds: Bounds | undefined, typed: (v: unknown) => boolean): Check {
  if (!bounds) return (v) => (typed(v) ? v : FAIL);
  const pattern = bounds.pattern && new RegExp(bounds.pattern[0], bounds.pattern[1]);
  const refinements = (bounds.refine ?? []).map((name) => checkFunctions[name] as (value: never) => boolean);
  return (v) => {
    if (!typed(v)) return FAIL;
    if (typeof v === "string") {
      if (bounds.minLength !== undefined && v.length < bounds.minLength) return FAIL;
      if (bounds.maxLength !== undefined && v.length > bounds.maxLength) return FAIL;
      if (pattern) {
        pattern.lastIndex = 0;
        if (!pattern.test(v)) return FAIL;
      }
    }
    if (typeof v === "number") {
      if (bounds.int && !Number.isSafeInteger(v)) return FAIL;
      if (bounds.gte !== undefined && !(v >= bounds.gte)) return FAIL;
      if (bounds.gt !== undefined && !(v > bounds.gt)) return FAIL;
      if (bounds.lte !== undefined && !(v <= bounds.lte)) return FAIL;
      if (bounds.lt !== undefined && !(v < bounds.lt)) return FAIL;
    }
    for (const refine of refinements) if (!refine(v as never)) return FAIL;
    return v;
  };
}

/** Arrays are checked in place: an element is replaced only where its output differs. */
function compileArray(element: Check): Check {
  return (v) => {
    if (!Array.isArray(v)) return FAIL;
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      const out = element(item);
      if (out === FAIL) return FAIL;
      if (out !== item) v[i] = out;
    }
    return v;
  };
}

/**
 * zod's loose object, checked in place (a declared field is replaced only where its output
 * differs, unknown fields stay as they are, key order stays the value's), or its strict object,
 * which refuses any other key.
 */
function compileObject(fields: [string, Plan, boolean][], strict: boolean): Check {
  const keys = fields.map(([key]) => key);
  const checks = fields.map(([, plan]) => compilePlan(plan));
  const required = fields.map(([, , isRequired]) => isRequired);
  const declared = new Set(keys);
  const n = keys.length;
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return FAIL;
    const input = v as Record<string, unknown>;
    if (strict) for (const key in input) if (Object.hasOwn(input, key) && !declared.has(key)) return FAIL;
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const value = input[key];
      if (value === undefined) {
        // Absent (JSON has no undefined; an inherited key is not the value's own).
        if (!Object.hasOwn(input, key)) {
          if (required[i]) return FAIL;
          continue;
        }
      }
      const out = checks[i]!(value);
      if (out === FAIL) return FAIL;
      if (out !== value) input[key] = out;
    }
    // zod never copies a `__proto__` key into its output.
    if (Object.hasOwn(input, "__proto__")) delete input.__proto__;
    return input;
  };
}
