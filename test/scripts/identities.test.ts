/**
 * The registry of kinds (kinds/registry.ts), which the resource classes register from so that a
 * program loads no declaration and no zod, and which the plugin and the schema's generator read,
 * is what scripts/gen-identities.ts derives from the kinds' declarations today.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { KINDS } from "../../kinds/registry";
import { repoRoot as ROOT } from "../../scripts/demo/project-build";
import { generate, kindFolders, outOfDate, REGISTRY_FILE, registryText } from "../../scripts/gen-identities";

describe("the registry of kinds", () => {
  it("is what the generator writes from the declarations today (else: run `npm run gen`)", () => {
    expect(outOfDate()).toEqual([]);
  });

  it("states every kind folder once, with its declaration's identity and id format", () => {
    expect(Object.values(KINDS).map((kind) => kind.folder)).toEqual(kindFolders());
    for (const folder of kindFolders()) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- one per kind folder
      const { declaration } = require(`../../kinds/${folder}/declaration`);
      const registered = (KINDS as Record<string, any>)[declaration.name];
      expect(registered).toEqual({
        ...declaration.identity,
        folder,
        idFormat: declaration.idFormat,
      });
      // The shim the engine loads is named by the kind's folder.
      expect(fs.existsSync(path.join(ROOT, "provider", "shims", `${registered.folder}.ts`))).toBe(true);
    }
  });

  it("reports the file when it no longer says the declarations", () => {
    const text = generate().get(REGISTRY_FILE)!;
    const changed = new Map([[REGISTRY_FILE, text.replace(/inputKeys: \[/, 'inputKeys: ["renamed", ')]]);
    const emptied = new Map([[REGISTRY_FILE, registryText([])]]);
    expect(outOfDate(changed)).toEqual([path.relative(ROOT, REGISTRY_FILE)]);
    expect(outOfDate(emptied)).toEqual([path.relative(ROOT, REGISTRY_FILE)]);
    expect(fs.readFileSync(REGISTRY_FILE, "utf8")).toBe(text);
  });
});
