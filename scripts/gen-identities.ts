/**
 * Writes each kind's identity (`kinds/<kind>/identity.ts`): what its resource class registers
 * (type, shim, input and output properties, secret outputs), taken from the kind's declaration
 * (`declaration.identity`, kinds/declare.ts) and written as plain data.
 *
 * Why: a Pulumi program is a fresh process at every `up` and `preview`, and it imports every
 * resource class. Importing the declarations instead would load zod and build every kind's input
 * rules, which only the provider's `check` uses: most of what importing the package cost a
 * program (docs/benchmarks.md).
 *
 * Run: `npm run gen` (builds, then `node dist/scripts/gen-identities.js`); `--check`
 * writes nothing and exits 1 naming each file that is out of date (test/scripts/identities.test.ts
 * runs the same comparison under `npm test`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { KindIdentity } from "../sdk/resource";
import { repoRoot } from "./demo/project-build";

const KINDS = path.join(repoRoot, "kinds");

/** Every kind's folder under kinds/. */
export function kindFolders(): string[] {
  return fs
    .readdirSync(KINDS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

const list = (values: readonly string[] = []) => `[${values.map((v) => JSON.stringify(v)).join(", ")}]`;

/** The text of `kinds/<folder>/identity.ts` for an identity. */
export function identityText(identity: KindIdentity): string {
  return [
    "// Written by scripts/gen-identities.ts from ./declaration.ts: run `npm run gen` after",
    "// changing the declaration (test/scripts/identities.test.ts fails while this file is stale).",
    'import type { KindIdentity } from "../../sdk/resource";',
    "",
    "/** What the resource class registers: the declaration's identity, as data (no zod, no rules). */",
    "export const identity: KindIdentity = {",
    `  type: ${JSON.stringify(identity.type)},`,
    `  shim: ${JSON.stringify(identity.shim)},`,
    `  secretOutputs: ${list(identity.secretOutputs)},`,
    `  inputKeys: ${list(identity.inputKeys)},`,
    `  outputKeys: ${list(identity.outputKeys)},`,
    "};",
    "",
  ].join("\n");
}

/** Each kind's identity file, by path, as the declarations say it today. */
export function generate(): Map<string, string> {
  const files = new Map<string, string>();
  for (const folder of kindFolders()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- one declaration per kind folder
    const { declaration } = require(path.join(__dirname, "..", "kinds", folder, "declaration")) as {
      declaration: { identity: KindIdentity };
    };
    files.set(path.join(KINDS, folder, "identity.ts"), identityText(declaration.identity));
  }
  return files;
}

/** The identity files that differ from what {@link generate} writes (missing ones included). */
export function outOfDate(files = generate()): string[] {
  return [...files]
    .filter(([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text)
    .map(([file]) => path.relative(repoRoot, file));
}

function main(argv: string[]): number {
  const files = generate();
  if (argv.includes("--check")) {
    const stale = outOfDate(files);
    for (const file of stale) process.stderr.write(`${file} is out of date: run \`npm run gen\`\n`);
    return stale.length > 0 ? 1 : 0;
  }
  for (const [file, text] of files) fs.writeFileSync(file, text);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
