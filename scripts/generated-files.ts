/** What the TypeScript generators share: where the repository is, and writing or checking their files. */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import type { DeclaredKind, InputDeclaration, KindDeclaration, OutputDeclaration } from "../kinds/common/declare";
import { repoRoot } from "./demo/project-build";

/** The repository root (one finder for every script: ./demo/project-build.ts). */
export const ROOT = repoRoot;

/** The declaration of the kind in `kinds/<folder>/`, loaded from the build beside this script. */
export function declarationOf(
  folder: string,
): DeclaredKind & KindDeclaration<Record<string, InputDeclaration>, Record<string, OutputDeclaration>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- one declaration per kind folder
  return require(path.join(__dirname, "..", "kinds", folder, "declaration")).declaration;
}

/**
 * A program over `roots` with the repository's compiler options (tsconfig.json), for its type
 * checker; `virtual` is a file given by its text rather than read from disk.
 */
export function checkedProgram(roots: string[], virtual?: { file: string; text: string }): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  const options = { ...config!.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    file === virtual?.file ? ts.createSourceFile(file, virtual.text, language) : read(file, language, ...rest);
  return ts.createProgram(roots, options, host);
}

/** The files of `files` (text by absolute path) that differ on disk, missing ones included, relative to ROOT. */
export function staleFiles(files: Map<string, string>): string[] {
  return [...files]
    .filter(([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text)
    .map(([file]) => path.relative(ROOT, file));
}

/**
 * A generator's run: writes `files`, or with `--check` writes nothing and names each stale file.
 * Returns the exit status.
 */
export function writeOrCheck(files: Map<string, string>, argv: string[]): number {
  if (argv.includes("--check")) {
    const stale = staleFiles(files);
    for (const file of stale) process.stderr.write(`${file} is out of date: run \`npm run gen\`\n`);
    return stale.length ? 1 : 0;
  }
  for (const [file, text] of files) fs.writeFileSync(file, text);
  return 0;
}
