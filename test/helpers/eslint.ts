/**
 * The repository's own ESLint rules (scripts/lint/) as `npm run lint` runs them: ESLint with the
 * repository's configuration, in its own process (its configuration is ESM), on one text.
 */
import * as path from "node:path";
import { run } from "../../scripts/child";

const repoRoot = path.resolve(__dirname, "..", "..");
const eslintBin = path.join(repoRoot, "node_modules", "eslint", "bin", "eslint.js");

/** The messages of rule `ruleId` for `text` linted as if it were the repository's `file`. */
export async function ruleMessages(ruleId: string, file: string, text: string): Promise<string[]> {
  // ESLint with TypeScript's parser, on one file: a few seconds.
  const linted = await run(process.execPath, [eslintBin, "--format", "json", "--stdin", "--stdin-filename", file], {
    cwd: repoRoot,
    input: text,
    deadlineMs: 120_000,
    allowFailure: true,
  });
  if (linted.status !== 0 && linted.status !== 1) throw new Error(`eslint failed (${linted.status}): ${linted.stderr}`);
  const [result] = JSON.parse(linted.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}
