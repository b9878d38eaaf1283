/**
 * Response validation made cheap. A response schema is compiled once, on its first use, into a
 * tree of plain functions that check a parsed JSON body and build the same output zod would
 * (unknown fields kept, `numeric` strings turned into numbers). zod stays the authority: parts
 * of a schema this compiler does not know (refinements, transforms, strict objects) are handed
 * to zod's own parser for that part, and a body that fails here is parsed again by zod, whose
 * issues make the error. The fast path only ever answers "valid, and here is zod's output".
 *
 * Why: on a list such as `GET /v2/dns` zod's generic machinery (a payload and an issues array
 * per value, an optional wrapper per field) cost about as much as `JSON.parse` itself
 * (scripts/bench/throughput.ts, profiled with `node --cpu-prof`).
 */
import type { z } from "zod";

/** What a compiled node returns for a value it refuses. */
const FAIL: unique symbol = Symbol("invalid");
type Parse = (value: unknown) => unknown;

/** The parts of zod's internals the compiler reads (zod v4 `_zod`). */
interface Internals {
  def: {
    type: string;
    checks?: unknown[];
    coerce?: boolean;
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    element?: z.ZodType;
    innerType?: z.ZodType;
    options?: z.ZodType[];
  };
  optin?: "optional" | "defaulted";
  optout?: "optional";
  run(payload: { value: unknown; issues: unknown[] }, ctx: { async: false }): { value: unknown; issues: unknown[] };
}
const internals = (schema: z.ZodType) => (schema as unknown as { _zod: Internals })._zod;

const CTX = { async: false } as const;
const compiled = new WeakMap<z.ZodType, Parse>();

/**
 * The output of `schema` for the body `fresh()` returns, `schema.safeParse` alike. The fast path
 * checks the value in place (it must be the caller's own: a fresh `JSON.parse`); a value it
 * refuses is parsed again, from a second `fresh()`, by zod, whose issues make the error. The
 * compiled form is built once per schema.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  fresh: () => unknown,
): z.ZodSafeParseResult<z.output<S>> & { input: unknown } {
  let parse = compiled.get(schema);
  if (!parse) compiled.set(schema, (parse = compile(schema)));
  const out = parse(fresh());
  if (out !== FAIL) return { success: true, data: out as z.output<S>, input: undefined };
  const input = fresh();
  return { ...schema.safeParse(input), input };
}

/** zod's own parser for `schema`, as a compiled node. */
function byZod(schema: z.ZodType): Parse {
  const zod = internals(schema);
  return (value) => {
    const result = zod.run({ value, issues: [] }, CTX);
    return result.issues.length > 0 ? FAIL : result.value;
  };
}

function compile(schema: z.ZodType): Parse {
  const zod = internals(schema);
  const def = zod.def;
  if ((def.checks && def.checks.length > 0) || def.coerce) return byZod(schema);
  switch (def.type) {
    case "string":
      return (v) => (typeof v === "string" ? v : FAIL);
    case "number":
      return (v) => (typeof v === "number" && Number.isFinite(v) ? v : FAIL);
    case "boolean":
      return (v) => (typeof v === "boolean" ? v : FAIL);
    case "unknown":
    case "any":
      return (v) => v;
    case "nullable": {
      const inner = compile(def.innerType!);
      return (v) => (v === null ? null : inner(v));
    }
    case "optional": {
      if (internals(def.innerType!).optin === "defaulted") return byZod(schema);
      const inner = compile(def.innerType!);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case "nonoptional": {
      const inner = compile(def.innerType!);
      return (v) => {
        const out = inner(v);
        return out === undefined ? FAIL : out;
      };
    }
    case "array":
      return compileArray(compile(def.element!));
    case "union": {
      // An object or array option checks in place; failing half-way it may leave a field
      // converted, which only a later object or array option could see: zod takes those.
      const containers = def.options!.filter((o) => ["object", "array"].includes(internals(o).def.type));
      return containers.length > 1 ? byZod(schema) : compileUnion(def.options!.map(compile));
    }
    case "object":
      return compileObject(schema, def);
    default:
      // pipes and transforms (numeric strings), literals, enums...: zod's own parser.
      return byZod(schema);
  }
}

/** Arrays are checked in place: an element is replaced only where its output differs. */
function compileArray(element: Parse): Parse {
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

/** zod's union: the first option that accepts the value gives the output. */
function compileUnion(options: Parse[]): Parse {
  return (v) => {
    for (const option of options) {
      const out = option(v);
      if (out !== FAIL) return out;
    }
    return FAIL;
  };
}

/**
 * zod's loose object, checked in place on the freshly parsed body (nobody else holds it): a
 * declared field is replaced only where its output differs (a numeric string made a number),
 * unknown fields stay as they are. Key order stays the API's (zod would put declared keys first).
 * Objects that strip or refuse unknown keys go to zod.
 */
function compileObject(schema: z.ZodType, def: Internals["def"]): Parse {
  const catchall = def.catchall;
  const catchallType = catchall ? internals(catchall).def.type : undefined;
  if (catchallType !== "unknown" && catchallType !== "any") return byZod(schema);
  const keys: string[] = [];
  const parsers: Parse[] = [];
  const required: boolean[] = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const { optin } = internals(field);
    if (key === "__proto__" || optin === "defaulted") return byZod(schema);
    keys.push(key);
    parsers.push(compile(field));
    required.push(optin === undefined);
  }
  const n = keys.length;
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return FAIL;
    const input = v as Record<string, unknown>;
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const value = input[key];
      if (value === undefined) {
        // JSON has no undefined: the key is absent (or inherited, which JSON.parse never makes).
        if (required[i] && !Object.hasOwn(input, key)) return FAIL;
        if (!Object.hasOwn(input, key)) continue;
      }
      const out = parsers[i]!(value);
      if (out === FAIL) return FAIL;
      if (out !== value) input[key] = out;
    }
    // zod never copies a `__proto__` key into its output.
    if (Object.hasOwn(input, "__proto__")) delete input.__proto__;
    return input;
  };
}
