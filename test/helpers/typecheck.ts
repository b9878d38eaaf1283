/**
 * TypeScript programs type-checked as a user's project compiles them against this package: strict,
 * CommonJS, with `pulumi-cdnstream` resolving to the package's own sources in place of the
 * installed build.
 */
import * as path from "node:path";
import * as ts from "typescript";
import { repoRoot } from "./engine";

/** Each diagnostic of `files` as `<file name>: <message>`; none for programs that compile. */
export function typeCheckAgainstPackage(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    types: [],
    baseUrl: repoRoot,
    paths: { "pulumi-cdnstream": ["sdk/index.ts"] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${path.basename(d.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}
