/**
 * zod's `z`, with every schema built at its first use instead of when its module loads.
 *
 * Why: the client's operation families and the kinds' declarations build a few hundred schemas as
 * they load, and a provider host loads them all at its first call although an operation uses a
 * handful (a refresh reads; a preview checks inputs and calls no API). Building them was about
 * 40 ms of CPU at every host start, and loading zod itself 30 more (docs/benchmarks.md).
 *
 * How: the modules that declare schemas import `z` from here instead of from "zod", and write
 * them as before (`z.string().min(1, "...").optional()`). Each call of a schema-making function
 * (`z.string(...)`) or builder method (`.optional()`, `.min(...)`, ...) returns a stand-in that
 * records the call. The first other use of a stand-in (`safeParse`, `shape`, zod's `_zod`, `in`,
 * `instanceof`...) loads zod, replays the calls (the stand-ins among their arguments first) and
 * from then on forwards everything to the schema it built, which every later use sees. A
 * stand-in passed to zod works as the schema (zod reads it through the same forwarding).
 *
 * Types are zod's own: the value is typed `typeof import("zod").z`, and the types the schema
 * modules name (`z.infer`, `z.ZodType`...) are zod's under the same name (the namespace below; a
 * module that names another adds it there). What a stand-in cannot be is the same object as its
 * schema (`===`): zod functions that look schemas up by identity take {@link built}`(schema)`.
 */
import type * as Zod from "zod";

type ZodNamespace = typeof Zod.z;

/** Schema methods that make another schema from this one: recorded, not run, until first use. */
const BUILDERS = new Set([
  "optional",
  "nullable",
  "nullish",
  "nonoptional",
  "array",
  "or",
  "and",
  "min",
  "max",
  "length",
  "regex",
  "int",
  "positive",
  "nonnegative",
  "negative",
  "gt",
  "gte",
  "lt",
  "lte",
  "trim",
  "toLowerCase",
  "toUpperCase",
  "startsWith",
  "endsWith",
  "includes",
  "refine",
  "superRefine",
  "check",
  "transform",
  "pipe",
  "default",
  "catch",
  "describe",
  "meta",
  "brand",
  "readonly",
  "required",
  "partial",
  "extend",
  "pick",
  "omit",
  "catchall",
  "strict",
  "loose",
]);

/** How each stand-in builds its schema (at most once). */
const standIns = new WeakMap<object, () => unknown>();

let zod: ZodNamespace | undefined;
function loadZod(): ZodNamespace {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred to the first use of a schema (see above)
  return (zod ??= (require("zod") as typeof Zod).z);
}

/**
 * The schema a stand-in stands for (built now if it was not yet); any other value as it is. For
 * zod functions that walk a schema as a whole (`z.toJSONSchema`), which look up the schemas they
 * meet by identity.
 */
export function built<T>(value: T): T {
  const build = typeof value === "object" && value !== null ? standIns.get(value) : undefined;
  return build ? (build() as T) : value;
}

/** A stand-in's schema; anything else as it is, with the stand-ins in arrays and plain objects resolved. */
function resolve(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const build = standIns.get(value);
  if (build) return build();
  if (Array.isArray(value)) return value.map(resolve);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = resolve(item);
  return copy;
}

/** Calls `fn` on `self` with the stand-ins among `args` resolved: the replay of one recorded call. */
const replay = (self: unknown, fn: unknown, args: unknown[]) =>
  (fn as (...a: unknown[]) => unknown).apply(self, args.map(resolve));

/** A stand-in for what `make` builds, made at the first use that is not a builder call. */
function standIn(make: () => unknown): unknown {
  let made: object | undefined;
  const schema = () => (made ??= make() as object);
  const proxy: object = new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key === "string" && BUILDERS.has(key)) {
          return (...args: unknown[]) =>
            standIn(() => {
              const self = schema();
              return replay(self, Reflect.get(self, key), args);
            });
        }
        const self = schema();
        const value: unknown = Reflect.get(self, key);
        // A method reads `this`: bound to the schema (a stand-in is not one to zod's private state).
        return typeof value === "function" ? value.bind(self) : value;
      },
      has: (_target, key) => Reflect.has(schema(), key),
      ownKeys: () => Reflect.ownKeys(schema()),
      getOwnPropertyDescriptor(_target, key) {
        const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
        // A proxy may not report a property of its (empty) target as fixed.
        return descriptor && { ...descriptor, configurable: true };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
      set: (_target, key, value) => Reflect.set(schema(), key, value),
      defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
      deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    },
  );
  standIns.set(proxy, schema);
  return proxy;
}

/** zod's functions that make a schema; the namespace's other members are zod's own. */
const MAKERS = new Set([
  "string",
  "number",
  "boolean",
  "bigint",
  "date",
  "literal",
  "enum",
  "unknown",
  "any",
  "never",
  "null",
  "undefined",
  "array",
  "tuple",
  "record",
  "object",
  "strictObject",
  "looseObject",
  "union",
  "discriminatedUnion",
  "intersection",
  "optional",
  "nullable",
  "lazy",
  "custom",
]);

/**
 * zod's namespace: its schema-making functions (`z.string`, `z.strictObject`, `z.union`...) return
 * stand-ins; any other member (`z.ZodType`, `z.config`...) loads zod and is zod's own.
 */
export const z: ZodNamespace = new Proxy({} as ZodNamespace, {
  get(_target, key) {
    if (typeof key !== "string" || !MAKERS.has(key)) return Reflect.get(loadZod(), key);
    return (...args: unknown[]) => standIn(() => replay(loadZod(), Reflect.get(loadZod(), key), args));
  },
});

/** zod's types, under the same name as the value, as `import { z } from "zod"` gives them. */
// eslint-disable-next-line @typescript-eslint/no-namespace -- merges with the value `z`, as zod's own export does
export declare namespace z {
  export type infer<T> = Zod.z.infer<T>;
  export type input<T> = Zod.z.input<T>;
  export type output<T> = Zod.z.output<T>;
  export type ZodType<Output = unknown, Input = unknown> = Zod.z.ZodType<Output, Input>;
  export type ZodRawShape = Zod.z.ZodRawShape;
  export type ZodString = Zod.z.ZodString;
  export type ZodOptional<T extends Zod.z.core.SomeType = Zod.z.core.$ZodType> = Zod.z.ZodOptional<T>;
  export type ZodObject<
    Shape extends Zod.z.core.$ZodShape = Zod.z.core.$ZodLooseShape,
    Config extends Zod.z.core.$ZodObjectConfig = Zod.z.core.$strip,
  > = Zod.z.ZodObject<Shape, Config>;
  // eslint-disable-next-line @typescript-eslint/no-namespace -- zod's `z.core`, types only
  export namespace core {
    export type $strict = Zod.z.core.$strict;
  }
}
