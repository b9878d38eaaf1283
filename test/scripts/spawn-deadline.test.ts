/**
 * The rule `cdnstream/spawn-deadline` (scripts/lint/spawn-deadline.mjs) through ESLint with the
 * repository's configuration, as `npm run lint` runs it: a synchronous spawn without a `timeout`
 * fails, in every form a test or script writes one; with a `timeout`, or asynchronous, it passes.
 */
import { ruleMessages } from "../helpers/eslint";

/** The rule's messages for `text` linted as if it were `file`. */
const deadlineErrors = (text: string, file = "test/e2e/new.test.ts") =>
  ruleMessages("cdnstream/spawn-deadline", file, text);

const imports =
  'import * as cp from "node:child_process";\nimport { execFileSync, execSync, spawnSync } from "node:child_process";\n';

describe("the spawn-deadline rule", () => {
  it("refuses each synchronous spawn without a timeout, naming it and the way out", async () => {
    const errors = await deadlineErrors(
      imports +
        'spawnSync("npm", ["install"], { cwd: "/tmp", encoding: "utf8" });\n' +
        'execFileSync("tar", ["-xzf", "a.tgz"]);\n' +
        'execSync("go build ./...");\n' +
        'cp.spawnSync("pulumi", ["version"]);\n' +
        'require("node:child_process").execFileSync("pulumi", ["stack", "export"], { stdio: "inherit" });\n' +
        'const options = { encoding: "utf8" as const, timeout: 1000 };\nspawnSync("ls", [], { ...options });\n',
    );
    expect(errors).toEqual([
      expect.stringMatching(/^spawnSync\(\) without a deadline: .*Use run\(\) of scripts\/child\.ts/),
      expect.stringMatching(/^execFileSync\(\) without a deadline/),
      expect.stringMatching(/^execSync\(\) without a deadline/),
      expect.stringMatching(/^spawnSync\(\) without a deadline/),
      expect.stringMatching(/^execFileSync\(\) without a deadline/),
      // A spread may or may not hold one: the timeout must be seen in the call.
      expect.stringMatching(/^spawnSync\(\) without a deadline/),
    ]);
  }, 150_000);

  it("passes a synchronous spawn with a timeout, an asynchronous spawn, and the same in a script", async () => {
    const text =
      imports +
      'spawnSync("npm", ["install"], { cwd: "/tmp", encoding: "utf8", timeout: 60_000 });\n' +
      'execFileSync("tar", ["-xzf", "a.tgz"], { "timeout": 5000 });\n' +
      'execSync("true", { timeout: 1000, killSignal: "SIGKILL" });\n' +
      'cp.spawn("npm", ["install"]);\n';
    expect(await deadlineErrors(text)).toEqual([]);
    expect(await deadlineErrors(text, "scripts/new-script.ts")).toEqual([]);
    expect(
      await deadlineErrors('import { spawnSync } from "node:child_process";\nspawnSync("ls");\n', "scripts/x.ts"),
    ).toHaveLength(1);
  }, 150_000);
});
