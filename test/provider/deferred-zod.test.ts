/**
 * provider/deferred-zod.ts: schemas written with its `z` are zod's schemas, built at first use.
 * Each case builds the same schema with zod's `z` and with the deferred one and compares what
 * they do; whether building loads zod at all is asked of a fresh `node` process (jest's module
 * registry is not Node's cache), with the built module (`npm test` builds first).
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { z as zod } from "zod";
import { built, z } from "../../provider/deferred-zod";

const repoRoot = path.resolve(__dirname, "../..");

/** The same schema from both namespaces. */
function both<T>(make: (ns: typeof zod) => T): [T, T] {
  return [make(zod), make(z)];
}

const results = (schema: zod.ZodType, values: unknown[]) =>
  values.map((value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? { data: parsed.data } : { issues: parsed.error.issues };
  });

describe("deferred zod", () => {
  it("parses as zod does: checks, messages, transforms, refinements, unions and objects", () => {
    const cases: [(ns: typeof zod) => zod.ZodType, unknown[]][] = [
      [
        (ns) => ns.string().min(1, "must not be empty").regex(/^\w+$/, "word characters only").optional(),
        ["a_1", "", "a b", undefined, 3],
      ],
      [(ns) => ns.number().int("whole").positive("above 0"), [1, 0, 1.5, "1"]],
      [(ns) => ns.union([ns.number(), ns.string().transform((s) => Number(s))]), [2, "3", null]],
      [(ns) => ns.enum(["push", "timeshift"], { error: 'must be "push" or "timeshift"' }), ["push", "pull"]],
      [
        (ns) =>
          ns
            .strictObject({ a: ns.string(), b: ns.array(ns.literal(1)).nullable().optional() })
            .refine((v) => v.a !== "x", { error: "a must not be x" }),
        [{ a: "y" }, { a: "x" }, { a: "y", b: [1, 2] }, { a: "y", c: 1 }],
      ],
      [
        (ns) => ns.looseObject({ id: ns.number(), n: ns.string() }).partial().required({ id: true }),
        [{ id: 1, extra: true }, { n: "a" }],
      ],
      [(ns) => ns.looseObject({ a: ns.string() }).extend({ b: ns.boolean() }), [{ a: "a", b: true }, { a: "a" }]],
    ];
    for (const [make, values] of cases) {
      const [real, deferred] = both(make);
      expect(results(deferred, values)).toEqual(results(real, values));
    }
  });

  it("stands in for its schema: keys, `in`, instanceof, zod's internals, and inside zod's own schemas", () => {
    const [real, deferred] = both((ns) => ns.looseObject({ a: ns.string(), b: ns.number().optional() }));
    expect(Object.keys(deferred.shape)).toEqual(Object.keys(real.shape));
    expect("shape" in deferred).toBe(true);
    expect(deferred).toBeInstanceOf(zod.ZodObject);
    expect(deferred._zod.def.type).toBe("object");
    // A stand-in given to zod's own namespace works as the schema it stands for.
    const outer = zod.object({ inner: deferred });
    expect(outer.safeParse({ inner: { a: "x" } }).success).toBe(true);
    expect(outer.safeParse({ inner: { a: 1 } }).success).toBe(false);
  });

  it("builds each schema once, and `built` gives it, for zod functions that walk a schema whole", () => {
    const deferred = z.number().int().min(0);
    expect(built(deferred)).toBe(built(deferred));
    expect(built(deferred)).not.toBe(deferred);
    expect(zod.toJSONSchema(built(deferred), { io: "input" })).toMatchObject({ type: "integer", minimum: 0 });
    expect(built("not a schema")).toBe("not a schema");
  });

  it("loads no zod while schemas are only written; the first use loads it", async () => {
    const script = `
      const zodLoaded = () => Object.keys(require.cache).some((f) => f.includes("/node_modules/zod/"));
      const { z } = require("./dist/provider/deferred-zod.js");
      const rule = z.strictObject({ id: z.union([z.string().min(1), z.number().int()]).optional(), on: z.boolean() });
      const written = zodLoaded();
      const ok = rule.safeParse({ on: true }).success;
      console.log(JSON.stringify({ written, ok, used: zodLoaded() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { cwd: repoRoot }).catch(
      (err: { stderr?: string }) => {
        throw new Error(`the script failed (run \`npm run build\` first?):\n${err.stderr ?? String(err)}`);
      },
    );
    expect(JSON.parse(stdout)).toEqual({ written: false, ok: true, used: true });
  });
});
