/**
 * The data sources' result types are generated from the client's response schemas
 * (scripts/gen-data-source-types.ts): the checked-in files must be what the generator writes now,
 * and every field must carry the JSDoc of its field in the client's schema.
 */
import { generate, GenerateError, outOfDate, RESULT_FILES } from "../../scripts/gen-data-source-types";
import type { ResultFile } from "../../sdk/data-sources/result-types";

/** A copy of the declarations with `edit` applied to one type's. */
function tableWith(
  file: string,
  type: string,
  edit: (decl: ResultFile["types"][string]) => void,
): Record<string, ResultFile> {
  const copy: Record<string, ResultFile> = structuredClone(RESULT_FILES);
  edit(copy[file]!.types[type]!);
  return copy;
}

describe("generated data-source result types", () => {
  // One program serves every case (the generator reuses it while the `from` expressions are unchanged).
  jest.setTimeout(60_000);

  it("are up to date with the client's schemas and the declarations beside the data sources", () => {
    expect(outOfDate()).toEqual([]);
  });

  it("name no zod or undici type and document every field", () => {
    for (const [name, text] of generate()) {
      expect({ name, zod: /\bzod\b|\bz\.|undici/.test(text.replace(/^\/\/.*$/gm, "")) }).toEqual({ name, zod: false });
      const lines = text.split("\n");
      lines.forEach((line, i) => {
        if (/^\s+"?[A-Za-z0-9_$]+"?\??: /.test(line))
          expect({ name, line, doc: lines[i - 1]!.trim().endsWith("*/") }).toEqual({ name, line, doc: true });
      });
    }
  });

  it("keeps the open enums and numeric parsing of the client's output types", () => {
    const zones = generate().get("zone-types.ts")!;
    expect(zones).toMatch(/ enabled\?: "Y" \| "N" \| \(string & \{\}\);/);
    expect(zones).toMatch(/ cacheInSecs\?: number;/);
    expect(zones).toMatch(/ ssl\?: ZoneSsl;/);
    expect(zones).toMatch(/ serviceId\?: number;/);
    expect(zones).toContain("(API `serviceid`)");
  });

  it("documents each field by the JSDoc of its field in the client's schema", () => {
    const zones = generate().get("zone-types.ts")!;
    expect(zones).toContain("  /** The shield network. */\n  network?: string;");
    expect(zones).toContain("  /** Zone alias. */\n  alias?: string;");
  });

  it("fails on a field whose schema has no doc, naming it", () => {
    // The campaign object (§2.15) is no data source's result: its fields carry no docs.
    const table = tableWith(
      "zone-types.ts",
      "ZoneShield",
      (decl) => (decl.from = "z.output<typeof adManager.Campaign>"),
    );
    expect(() => generate(table)).toThrow(GenerateError);
    expect(() => generate(table)).toThrow(
      "ZoneShield: no doc for `advertiserId` (a JSDoc on its field in the client's schema)",
    );
  });

  it("fails once the client declares a field kept under `extra`", () => {
    const table = tableWith(
      "zone-types.ts",
      "HttpPullZone",
      (decl) => (decl.extra!.alias = { type: "string", doc: "Twice." }),
    );
    expect(() => generate(table)).toThrow(
      "HttpPullZone: `alias` is now in the client's schema: remove it from `extra`",
    );
  });
});
