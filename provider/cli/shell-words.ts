/**
 * A command line split into words the way Pulumi's Node.js language host splits the
 * `runtime.options.nodeargs` of a Pulumi.yaml before it starts `node` (Go's `shlex.Split`, POSIX
 * shell rules without expansion): blanks separate words; single quotes keep everything literally;
 * double quotes keep everything but a backslash before `"`, `\`, `$`, backtick or a newline;
 * outside quotes a backslash keeps the next character; `#` at the start of a word begins a comment.
 * No library in this project's dependencies does this; the language host's own code is Go.
 */

/** The words of `line`; throws naming the problem when a quote or an escape is left open. */
export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const add = (text: string) => (word = (word ?? "") + text);
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "#" && word === undefined) {
      break;
    } else if (c === "\\") {
      if (i + 1 >= line.length) throw new Error("it ends with a backslash that escapes nothing");
      i++;
      // A backslash before a newline joins the lines, as in a shell.
      if (line[i] !== "\n") add(line[i]!);
      else word ??= "";
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error("a single quote is not closed");
      add(line.slice(i + 1, end));
      i = end;
    } else if (c === '"') {
      let text = "";
      for (i++; ; i++) {
        if (i >= line.length) throw new Error("a double quote is not closed");
        const d = line[i]!;
        if (d === '"') break;
        if (d === "\\" && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
          i++;
          if (line[i] !== "\n") text += line[i];
        } else {
          text += d;
        }
      }
      add(text);
    } else {
      add(c);
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
