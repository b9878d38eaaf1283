/**
 * Writes the registry of kinds (`kinds/registry.ts`) from each kind's declaration
 * (`declaration.identity`, kinds/common/declare.ts), so that a program's resource classes need not load
 * the declarations, zod and every kind's input rules (why: docs/design.md, docs/benchmarks.md).
 *
 * Run by `npm run gen` (`--check`: writeOrCheck); test/scripts/identities.test.ts checks it too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RegisteredKind } from "../kinds/resource";
import { declarationOf, ROOT, staleFiles, writeOrCheck } from "./generated-files";

const KINDS = path.join(ROOT, "kinds");

/** Every kind's folder under kinds/ (a kind is a folder with a declaration). */
export function kindFolders(): string[] {
  return fs
    .readdirSync(KINDS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(KINDS, entry.name, "declaration.ts")))
    .map((entry) => entry.name)
    .sort();
}

const list = (values: readonly string[] = []) => `[${values.map((v) => JSON.stringify(v)).join(", ")}]`;

export const REGISTRY_FILE = path.join(KINDS, "registry.ts");

/** The text of `kinds/registry.ts` for the kinds' entries. */
export function registryText(entries: readonly RegisteredKind[]): string {
  const entry = (e: RegisteredKind) =>
    [
      `  ${e.type}: {`,
      `    type: ${JSON.stringify(e.type)},`,
      `    folder: ${JSON.stringify(e.folder)},`,
      `    idFormat: ${JSON.stringify(e.idFormat)},`,
      `    secretOutputs: ${list(e.secretOutputs)},`,
      `    inputKeys: ${list(e.inputKeys)},`,
      `    outputKeys: ${list(e.outputKeys)},`,
      "  },",
    ].join("\n");
  return [
    "// Written by scripts/gen-identities.ts from the kinds' declarations: run `npm run gen` after",
    "// changing one (`npm run gen -- --check` fails while this file is stale).",
    'import type { RegisteredKind } from "./resource";',
    "",
    "/**",
    " * Every resource kind, each stated once: its name, folder, id format, secret outputs and",
    " * the properties its resource class registers, as plain data (no zod, no rules). The resource",
    " * classes, the plugin, the schema's generator and the tests read it.",
    " */",
    "export const KINDS = {",
    ...entries.map(entry),
    "} as const satisfies Record<string, RegisteredKind>;",
    "",
    "/** A kind's name (`StreamStatus`). */",
    "export type KindName = keyof typeof KINDS;",
    "",
  ].join("\n");
}

/** The registry as the declarations say it today, by file path (one file). */
export function generate(): Map<string, string> {
  const entries = kindFolders().map((folder): RegisteredKind => {
    const { identity, ...declaration } = declarationOf(folder);
    return { ...identity, folder: declaration.folder, idFormat: declaration.idFormat };
  });
  return new Map([[REGISTRY_FILE, registryText(entries)]]);
}

/** The generated files that differ from what {@link generate} writes (missing ones included). */
export const outOfDate = (files = generate()): string[] => staleFiles(files);

if (require.main === module) process.exitCode = writeOrCheck(generate(), process.argv.slice(2));
