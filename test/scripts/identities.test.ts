/**
 * Each kind's identity (kinds/<kind>/identity.ts), which its resource class registers so that a
 * program loads no declaration and no zod, is what scripts/gen-identities.ts derives from the
 * kind's declaration today.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot as ROOT } from "../../scripts/demo/project-build";
import { generate, identityText, kindFolders, outOfDate } from "../../scripts/gen-identities";

describe("the kinds' identities", () => {
  it("are what the generator writes from the declarations today (else: run `npm run gen`)", () => {
    expect(outOfDate()).toEqual([]);
  });

  it("are there for every kind, and say each declaration's identity", () => {
    const files = generate();
    expect([...files.keys()].map((file) => path.relative(ROOT, file))).toEqual(
      kindFolders().map((folder) => `kinds/${folder}/identity.ts`),
    );
    for (const folder of kindFolders()) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- one per kind folder
      const { declaration } = require(`../../kinds/${folder}/declaration`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- one per kind folder
      const { identity } = require(`../../kinds/${folder}/identity`);
      expect({ folder, identity }).toEqual({ folder, identity: declaration.identity });
    }
  });

  it("reports a file that no longer says its declaration", () => {
    const [file, text] = [...generate()][0]!;
    const changed = new Map([[file, text.replace(/inputKeys: \[/, 'inputKeys: ["renamed", ')]]);
    const stale = new Map([[file, identityText({ type: "Other", shim: "other" })]]);
    expect(outOfDate(changed)).toEqual([path.relative(ROOT, file)]);
    expect(outOfDate(stale)).toEqual([path.relative(ROOT, file)]);
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  });
});
