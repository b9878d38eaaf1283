/**
 * Layers stay one way: the data sources run in users' programs and may use the API client
 * (`client/`, which knows nothing of Pulumi) and nothing else of the provider.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const DIR = path.join(__dirname, "../../sdk/data-sources");

/** Every module specifier a source file imports or re-exports. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/g)].map((m) => m[1]!);
}

describe("sdk/data-sources imports", () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith(".ts"));

  it("reads every module of the folder", () => {
    expect(files).toEqual(expect.arrayContaining(["index.ts", "invoke.ts", "zones.ts", "zone-types.ts"]));
  });

  it("take nothing of the provider but the API client", () => {
    const outside = files.flatMap((file) =>
      importsOf(path.join(DIR, file))
        .filter((spec) => spec.startsWith("."))
        .map((spec) => ({ file, spec, resolved: path.relative(path.join(DIR, "../.."), path.resolve(DIR, spec)) }))
        .filter(({ resolved }) => !resolved.startsWith("sdk/data-sources") && !/^client(\/|$)/.test(resolved)),
    );
    expect(outside).toEqual([]);
  });

  it("leave zod and undici out of the generated result types", () => {
    const generated = files.filter((f) => f.endsWith("-types.ts"));
    expect(generated.length).toBeGreaterThanOrEqual(5);
    for (const file of generated)
      expect({ file, imports: importsOf(path.join(DIR, file)).filter((s) => !s.startsWith("./")) }).toEqual({
        file,
        imports: [],
      });
  });
});
