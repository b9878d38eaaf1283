import { z } from "zod";
import { checkInputs, diffInputs, inputsFromLive, sameSet, UNKNOWN } from "../../kinds/common/inputs";

const schema = z
  .strictObject({
    zoneId: z.number().int().positive(),
    domains: z.array(z.string()).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((v) => v.enabled !== true || (v.domains?.length ?? 0) > 0, { message: "enabled needs at least one domain" });

describe("checkInputs", () => {
  it("accepts valid inputs and returns them unchanged, provider key included", () => {
    const news = { __provider: "x", zoneId: 7, domains: ["a.com"] };
    expect(checkInputs(schema, news)).toEqual({ inputs: news });
  });

  it("names the property and the rule", () => {
    const result = checkInputs(schema, { zoneId: -1, domains: ["a.com", 3] });
    expect(result.failures).toEqual([
      { property: "zoneId", reason: expect.stringContaining(">0") },
      {
        property: "domains[1]",
        reason: expect.stringMatching(/^3 must be a string, not a number: write it in quotes/),
      },
    ]);
  });

  it("shows a list element's offending value (Pulumi shows none for it), cut to 60 characters", () => {
    const hosts = z.strictObject({
      zoneId: z.number(),
      domains: z.array(z.string().regex(/^[a-z.]+$/, "must be a host")),
    });
    const long = `${"x".repeat(80)}!`;
    expect(checkInputs(hosts, { zoneId: 1, domains: ["a.com", "bad host!", long] }).failures).toEqual([
      { property: "domains[1]", reason: '"bad host!" must be a host' },
      { property: "domains[2]", reason: `"${"x".repeat(58)}… must be a host` },
    ]);
    // A top-level property's value is shown by Pulumi beside the property: not repeated.
    expect(checkInputs(hosts, { zoneId: 1, domains: "a.com" }).failures?.[0].reason).toMatch(/^must be a list/);
  });

  it("rejects unknown properties", () => {
    const result = checkInputs(schema, { zoneId: 1, zoneid: 1 });
    expect(result.failures?.[0].reason).toMatch(/zoneid/);
  });

  it("says what was given for a value of the wrong JSON type (stack config's requireObject), and what to write", () => {
    expect(checkInputs(schema, { zoneId: "7", domains: "a.com", enabled: "true" }).failures).toEqual([
      {
        property: "zoneId",
        reason: expect.stringMatching(
          /^must be a number, not a string: write the number without quotes \(in stack config too/,
        ),
      },
      {
        property: "domains",
        reason: expect.stringMatching(/^must be a list, not a string: write a list, e\.g\. \["a\.com"\]/),
      },
      {
        property: "enabled",
        reason: expect.stringMatching(/^must be true or false, not a string: write true or false without quotes/),
      },
    ]);
    expect(checkInputs(schema, {}).failures).toEqual([{ property: "zoneId", reason: "is required" }]);
  });

  it("names each unknown key at its path with the input it most likely means, even while its value is unknown", () => {
    const nested = z.strictObject({ ndvr: z.strictObject({ retentionDays: z.number().optional() }).optional() });
    expect(checkInputs(nested, { ndvr: { retention: 7 }, ndvrr: UNKNOWN }).failures).toEqual([
      { property: "ndvr.retention", reason: '"retention" is not an input: did you mean "retentionDays"?' },
      { property: "ndvrr", reason: '"ndvrr" is not an input: did you mean "ndvr"?' },
    ]);
    expect(checkInputs(nested, { speed: 1 }).failures).toEqual([
      { property: "speed", reason: '"speed" is not an input (inputs here: ndvr)' },
    ]);
  });

  it("does not judge a property whose value is unknown during preview", () => {
    expect(checkInputs(schema, { zoneId: UNKNOWN }).failures).toBeUndefined();
    expect(checkInputs(schema, { zoneId: 1, domains: [UNKNOWN] }).failures).toBeUndefined();
  });

  it("judges whole-object rules only when every input is known", () => {
    expect(checkInputs(schema, { zoneId: 1, enabled: true }).failures).toEqual([
      { property: "", reason: "enabled needs at least one domain" },
    ]);
    expect(checkInputs(schema, { zoneId: UNKNOWN, enabled: true }).failures).toBeUndefined();
  });
});

describe("diffInputs", () => {
  const rules = {
    replaceOn: ["zoneId"],
    compare: { domains: (a: unknown, b: unknown) => sameSet(a as string[], b as string[]) },
  };

  it("reports no change when only order differs in a set-like list", () => {
    const diff = diffInputs({ zoneId: 1, domains: ["b", "a"] }, { zoneId: 1, domains: ["a", "b", "a"] }, rules);
    expect(diff.changes).toBe(false);
    expect(diff.replaces).toEqual([]);
  });

  it("ignores properties the program does not declare", () => {
    expect(diffInputs({ zoneId: 1, enabled: true }, { zoneId: 1 }, rules).changes).toBe(false);
  });

  it("replaces on identity changes and updates otherwise", () => {
    expect(diffInputs({ zoneId: 1 }, { zoneId: 2 }, rules)).toMatchObject({ changes: true, replaces: ["zoneId"] });
    expect(diffInputs({ zoneId: 1, enabled: false }, { zoneId: 1, enabled: true }, rules)).toMatchObject({
      changes: true,
      replaces: [],
      stables: ["zoneId"],
    });
  });

  it("treats an unknown value as a change, and deletes first when the kind asks", () => {
    const diff = diffInputs({ zoneId: 1 }, { zoneId: UNKNOWN }, { ...rules, deleteBeforeReplace: true });
    expect(diff).toMatchObject({ changes: true, replaces: ["zoneId"], deleteBeforeReplace: true });
  });
});

describe("inputsFromLive", () => {
  const rules = { compare: { domains: (a: unknown, b: unknown) => sameSet(a as string[], b as string[]) } };

  it("keeps the declared form when the live value is equal under the comparator", () => {
    const declared = { zoneId: 1, domains: ["a", "b"] };
    expect(inputsFromLive(declared, { zoneId: 1, domains: ["b", "a"], enabled: true }, rules)).toEqual(declared);
  });

  it("records the live value of a drifted property, and nothing undeclared", () => {
    const declared = { __provider: "x", zoneId: 1, domains: ["a"] };
    expect(inputsFromLive(declared, { zoneId: 1, domains: ["a", "c"], enabled: true }, rules)).toEqual({
      zoneId: 1,
      domains: ["a", "c"],
    });
  });

  it("takes every live property on import", () => {
    expect(inputsFromLive({}, { zoneId: 1, enabled: true }, rules)).toEqual({ zoneId: 1, enabled: true });
  });
});
