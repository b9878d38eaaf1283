/**
 * A command line split into words the way Pulumi's Node.js language host splits the
 * `runtime.options.nodeargs` of a Pulumi.yaml before it starts `node` (Go's `shlex.Split`, POSIX
 * shell rules without expansion): blanks separate words; single quotes keep everything literally;
 * double quotes keep everything but a backslash before `"`, `\`, `$`, backtick or a newline;
 * outside quotes a backslash keeps the next character; `#` at the start of a word begins a comment.
 * No library in this project's dependencies does this; the language host's own code is Go.
 */

/** What is left open when a quote or a backslash matches none of the tokens. */
const OPEN: Record<string, string> = {
  "'": "a single quote is not closed",
  '"': "a double quote is not closed",
  "\\": "it ends with a backslash that escapes nothing",
};

/** The words of `line`; throws naming the problem when a quote or an escape is left open. */
export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  // Blanks | `#` | 'single' | "double" | \escaped | plain characters | a quote or backslash left open.
  const token = /(\s+)|(#)|'([^']*)'|"((?:[^"\\]|\\[^])*)"|\\([^])|([^\s'"\\]+)|([^])/y;
  for (let match; (match = token.exec(line));) {
    const [, blank, hash, single, double, escaped, plain, open] = match as (string | undefined)[];
    if (blank !== undefined) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (hash !== undefined && word === undefined) {
      break;
    } else if (open !== undefined) {
      throw new Error(OPEN[open]);
    } else {
      // A backslash before a newline joins the lines, as in a shell.
      const doubleQuoted = double?.replace(/\\(["\\$`\n])/g, (_, c: string) => (c === "\n" ? "" : c));
      word = (word ?? "") + (hash ?? single ?? doubleQuoted ?? (escaped === "\n" ? "" : escaped) ?? plain);
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
