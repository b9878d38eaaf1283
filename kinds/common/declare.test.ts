/** What a kind's declaration derives, and the compile-time binding of a resource class to it. */
import { z } from "zod";
import { declareKind, type Declares } from "./declare";

const declared = declareKind({
  name: "Example",
  folder: "example",
  spec: ["§0"],
  idFormat: "<zoneId>",
  idExample: "7",
  inputs: {
    zoneId: { rule: z.number().int("must be a whole number"), replaces: true },
    hosts: { rule: z.array(z.string()).optional(), compare: (a, b) => String(a) === String(b) },
    token: { rule: z.string().optional(), secret: true, compareLive: () => true },
  },
  outputs: { name: {}, password: { secret: true }, warnings: { keptOnRefresh: true } },
});

describe("declareKind", () => {
  it("derives keys, replace list, comparators, secrets and the resource identity", () => {
    expect(declared.inputKeys).toEqual(["zoneId", "hosts", "token"]);
    expect(declared.rules.replaceOn).toEqual(["zoneId"]);
    expect(Object.keys(declared.rules.compare ?? {})).toEqual(["hosts"]);
    expect(Object.keys(declared.liveRules.compare)).toEqual(["hosts", "token"]);
    expect(declared.secretOutputs).toEqual(["token", "password"]);
    expect(declared.keptOnRefresh).toEqual(["warnings"]);
    expect(declared.identity).toEqual({
      type: "Example",
      secretOutputs: ["token", "password"],
      inputKeys: ["zoneId", "hosts", "token"],
      outputKeys: ["name", "password", "warnings"],
    });
  });

  it("checks with a strict schema of the declared rules and adoptId", () => {
    expect(declared.args.safeParse({ zoneId: 1, adoptId: "1" }).success).toBe(true);
    const unknownKey = declared.args.safeParse({ zoneId: 1, zone: 2 });
    expect(unknownKey.success).toBe(false);
    expect(declared.args.safeParse({ zoneId: 1.5 }).error?.issues[0].message).toBe("must be a whole number");
  });

  it("binds a resource class's Args (names and types) and outputs to the declaration at compile time", () => {
    interface Args {
      zoneId: number;
      hosts?: string[];
      token?: string;
      adoptId?: string;
    }
    const bound: Declares<typeof declared, Args, { name: unknown; password: unknown; warnings: unknown }> = true;
    // @ts-expect-error: an Args property the declaration does not have
    const extraArg: Declares<typeof declared, Args & { extra: number }, { name: 1; password: 1; warnings: 1 }> = true;
    // @ts-expect-error: a declared output the class does not declare
    const missingOutput: Declares<typeof declared, Args, { name: 1; password: 1 }> = true;
    // @ts-expect-error: an input typed otherwise than its rule accepts
    const otherType: Declares<
      typeof declared,
      Omit<Args, "zoneId"> & { zoneId: string },
      { name: 1; password: 1; warnings: 1 }
    > = true;
    // @ts-expect-error: a declared input Args leaves out
    const missingArg: Declares<typeof declared, Omit<Args, "token">, { name: 1; password: 1; warnings: 1 }> = true;
    expect([bound, extraArg, missingOutput, otherType, missingArg]).toBeDefined();
  });

  it("makes and parses ids by the idFormat template, each part as its rule accepts it", () => {
    const base = {
      name: "Pair",
      folder: "pair",
      spec: ["§0"],
      idFormat: "<projectId>/<campaignId>",
      idExample: "1/cmp_1",
      inputs: {
        projectId: { rule: z.number().int().positive(), replaces: true },
        campaignId: { rule: z.string().min(1), replaces: true },
      },
      outputs: {},
    };
    const pair = declareKind(base);
    expect(pair.idOf?.({ projectId: 2, campaignId: "cmp_9" })).toBe("2/cmp_9");
    expect(pair.parseId?.("2/cmp_9")).toEqual({ projectId: 2, campaignId: "cmp_9" });
    expect(() => pair.parseId?.("x/cmp_9")).toThrow(
      'Pair id "x/cmp_9" is not <projectId>/<campaignId>, e.g. "1/cmp_1".',
    );
    expect(() => pair.parseId?.("2/cmp_9/3")).toThrow(/is not <projectId>\/<campaignId>/);
    // A format that is not a template of inputs leaves ids to the kind.
    expect(declareKind({ ...base, idFormat: "account" }).parseId).toBeUndefined();
  });
});
