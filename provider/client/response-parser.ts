/**
 * Response validation made cheap. A response schema's check is compiled once, on its first use,
 * from its plan (./check-plan.ts): the one written ahead of time for its operation
 * (./check-plans.ts), with which an answer is checked without loading zod, or else one taken
 * from the schema then. The compiled check builds the same output zod would (unknown fields
 * kept, `numeric` strings turned into numbers); a body that fails it is parsed again by zod,
 * whose issues make the error. The fast path only ever answers "valid, and here is zod's output".
 *
 * Why: on a list such as `GET /v2/dns` zod's generic machinery (a payload and an issues array
 * per value, an optional wrapper per field) cost about as much as `JSON.parse` itself
 * (scripts/bench/throughput.ts, profiled with `node --cpu-prof`); and a provider host that only
 * reads (a refresh) need not load zod at all.
 */
import type { z } from "zod";
import { compilePlan, FAIL, planOf, type Check, type Plan } from "./check-plan";

const compiled = new WeakMap<object, Check>();

/**
 * The output of `schema` for the body `fresh()` returns, `schema.safeParse` alike. The fast path
 * checks the value in place (it must be the caller's own: a fresh `JSON.parse`); a value it
 * refuses is parsed again, from a second `fresh()`, by zod, whose issues make the error. `plan`
 * is the schema's plan written ahead of time, where there is one.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  fresh: () => unknown,
  plan?: Plan,
): z.ZodSafeParseResult<z.output<S>> & { input: unknown } {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = compilePlan(plan ?? planOf(schema))));
  const out = check(fresh());
  if (out !== FAIL) return { success: true, data: out as z.output<S>, input: undefined };
  const input = fresh();
  return { ...schema.safeParse(input), input };
}
