/**
 * The checks compiled ahead of time (provider/client/check-plan.ts, written to check-plans.ts by
 * scripts/gen-checks.ts) against zod's own parse, for the requests and identity rules they check
 * (the answers are compared in ./response-parser.test.ts): over values of every type, edges
 * included (an empty string, a slash, a negative or fractional number, an unsafe integer, null,
 * an unknown key), a plan accepts what zod accepts, with zod's output, and refuses what it refuses.
 */
import { operations, type Operation } from "../../provider/client";
import { compilePlan, FAIL, planOf, ruleKey, type Plan } from "../../provider/client/check-plan";
import { rulePlans } from "../../provider/client/check-plans";
import { built, z } from "../../provider/deferred-zod";
import { kindFolders } from "../../scripts/gen-identities";

const VALUES: unknown[] = [
  0,
  1,
  42,
  -1,
  1.5,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  "0",
  "1",
  "42",
  "007",
  "",
  " ",
  "abc",
  "a/b",
  "a b",
  "Y",
  "N",
  "push",
  "timeshift",
  "2025-01-06 00:00:00 - 2025-01-07 00:00:00",
  null,
  undefined,
  true,
  false,
  {},
  [],
];

/** The plan's answer for a value (on a copy, as the client checks it) and zod's. */
function compare(schema: z.ZodType, plan: Plan, value: unknown) {
  const zod = schema.safeParse(value);
  const copy = typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : value;
  const planned = compilePlan(plan)(copy);
  return { planned, zod: zod.success ? zod.data : FAIL };
}

/** Objects for a request plan: a field at a time set to every value, the others at one zod takes. */
function requestValues(plan: Plan, schema: z.ZodType): Record<string, unknown>[] {
  if (plan.type !== "object") throw new Error("a request plan is an object");
  const keys = plan.fields.map(([key]) => key);
  const shape = (built(schema) as unknown as z.ZodObject).shape;
  const base: Record<string, unknown> = {};
  for (const key of keys) base[key] = VALUES.find((value) => shape[key]!.safeParse(value).success);
  const objects = [base, { ...base, unknownKey: 1 }, {}];
  for (const key of keys) for (const value of VALUES) objects.push({ ...base, [key]: value });
  return objects;
}

const requestPlans = operations.flatMap((op: Operation) =>
  (["params", "query", "body"] as const).flatMap((slot) => {
    const plan = op.plans?.[slot];
    return plan ? [[`${op.method} ${op.path} ${slot}`, op[slot]!, plan] as const] : [];
  }),
);

describe("the checks written ahead of time", () => {
  it("check every read's path parameters, and the status body a destroy sends", () => {
    const planned = new Set(requestPlans.map(([name]) => name));
    for (const op of operations.filter((op) => op.method === "GET" && op.params))
      expect(planned).toContain(`GET ${op.path} params`);
    expect(planned).toContain("POST /v2/streams/timeshift/{streamid}/status body");
  });

  it.each(requestPlans)("%s: zod's answer for every value", (_name, schema, plan) => {
    for (const value of requestValues(plan, schema)) {
      const { planned, zod } = compare(schema, plan, value);
      expect({ value, planned }).toStrictEqual({ value, planned: zod });
    }
  });

  /** Every kind's identity rules that have a plan, by the plan's key. */
  const rules = new Map<string, z.ZodType>();
  for (const folder of kindFolders()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- one declaration per kind folder
    const { declaration } = require(`../../kinds/${folder}/declaration`);
    for (const [input, { rule }] of Object.entries<{ rule: z.ZodType }>(declaration.inputs))
      rules.set(ruleKey(declaration.name, input), rule);
  }

  it.each(Object.entries(rulePlans))("identity rule %s: zod's answer for every value", (name, plan) => {
    const rule = rules.get(name)!;
    expect(planOf(built(rule))).toEqual(plan);
    for (const value of VALUES) {
      const { planned, zod } = compare(rule, plan, value);
      expect({ value, planned }).toStrictEqual({ value, planned: zod });
    }
  });

  it("leave to zod what a plan cannot state: other functions, defaults, stripping objects, values JSON cannot write", () => {
    const cases = [
      z.string().refine((s) => s.length > 2),
      z.string().default("x"),
      z.object({ a: z.string() }),
      z.number().transform((n) => n * 2),
      z.literal(undefined),
      z.string().optional().optional(),
    ];
    for (const schema of cases) expect(planOf(built(schema)).type).toBe("zod");
    // A plan taken at run time holds such parts, which zod checks within the compiled check.
    const mixed = built(z.looseObject({ n: z.string().refine((s) => s.length > 1), id: z.number() }));
    const plan = planOf(mixed);
    expect(plan).toMatchObject({
      type: "object",
      fields: [
        ["n", { type: "zod" }, true],
        ["id", { type: "number" }, true],
      ],
    });
    for (const value of [
      { n: "ab", id: 1, extra: true },
      { n: "a", id: 1 },
      { n: "ab", id: "1" },
    ]) {
      const { planned, zod } = compare(mixed, plan, value);
      expect({ value, planned }).toStrictEqual({ value, planned: zod });
    }
    expect(planOf(built(z.strictObject({ a: z.string().optional().default("x") }))).type).toBe("zod");
  });
});
