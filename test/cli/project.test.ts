/**
 * Reading a project's settings for the inline run of its program (provider/cli/project-settings.ts):
 * a real YAML parser (the SDK's), the language host's option rules, `main` as the engine places it,
 * and the words of `nodeargs` split as the language host splits them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { programLocation, projectName, readProject } from "../../provider/cli/project";
import { splitShellWords } from "../../provider/cli/shell-words";

describe("readProject", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-project-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (yaml: string, name = "Pulumi.yaml") => fs.writeFileSync(path.join(dir, name), yaml);
  const file = () => path.join(dir, "Pulumi.yaml");

  it("reads the name, the runtime's options and main, with the language host's defaults", () => {
    write("name: shop\nruntime: nodejs\ndescription: 'main: not this'\n");
    expect(readProject(dir)).toEqual({ name: "shop", file: file(), root: dir, typescript: true, nodeargs: [] });
    expect(programLocation(readProject(dir))).toEqual({ programDir: dir, entryPoint: "." });

    // What `pulumi new typescript` writes, with every option the language host reads.
    write(
      [
        "name: 'shop-2' # the project",
        "runtime:",
        "  name: nodejs",
        "  options:",
        "    packagemanager: npm",
        "    typescript: false",
        "    tsconfig: tsconfig.pulumi.json",
        `    nodeargs: "--max-old-space-size=4096 --require './pre load.js'"`,
        'main: "dist/index.js"',
        "config:",
        "  pulumi:tags:",
        "    value:",
        "      pulumi:template: typescript",
        "",
      ].join("\n"),
    );
    expect(readProject(dir)).toEqual({
      name: "shop-2",
      file: file(),
      root: dir,
      main: path.join(dir, "dist", "index.js"),
      typescript: false,
      tsconfig: "tsconfig.pulumi.json",
      nodeargs: ["--max-old-space-size=4096", "--require", "./pre load.js"],
    });
    expect(projectName(dir)).toBe("shop-2");
  });

  it("finds Pulumi.yml and Pulumi.json as the Automation API does", () => {
    write("name: yml\nruntime: nodejs\n", "Pulumi.yml");
    expect(readProject(dir)).toMatchObject({ name: "yml", file: path.join(dir, "Pulumi.yml") });
    fs.rmSync(path.join(dir, "Pulumi.yml"));
    write(JSON.stringify({ name: "json", runtime: { name: "nodejs", options: { typescript: false } } }), "Pulumi.json");
    expect(readProject(dir)).toMatchObject({ name: "json", typescript: false });
  });

  it("places the program as the engine does: a file runs in its directory, a directory in itself", () => {
    fs.mkdirSync(path.join(dir, "app", "src"), { recursive: true });
    fs.writeFileSync(path.join(dir, "app", "src", "main.ts"), "");
    write("name: p\nruntime: nodejs\nmain: app/src/main.ts\n");
    expect(programLocation(readProject(dir))).toEqual({
      programDir: path.join(dir, "app", "src"),
      entryPoint: "main.ts",
    });
    write("name: p\nruntime: nodejs\nmain: app/\n");
    expect(programLocation(readProject(dir))).toEqual({ programDir: path.join(dir, "app"), entryPoint: "." });
  });

  it("a main that is not there says to build it, or to let TypeScript run uncompiled", () => {
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { build: "tsc" } }));
    write("name: p\nruntime: nodejs\nmain: bin/index.js\n");
    expect(() => programLocation(readProject(dir))).toThrow(
      /Pulumi\.yaml: main "bin\/index\.js" cannot be read \(ENOENT\)\. Build it first \(`npm run build` runs "tsc"\), or point main at the TypeScript entry \(e\.g\. `main: index\.ts`.*\): TypeScript is compiled on the fly\./,
    );
    write("name: p\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: bin/index.js\n");
    expect(() => programLocation(readProject(dir))).toThrow(
      /cannot be read \(ENOENT\)\. Build it first \(`npm run build` runs "tsc"\), or point main at the program's entry\.$/,
    );
  });

  it("says what is wrong, naming the file, the setting and the fix", () => {
    expect(() => readProject(dir)).toThrow(
      /Pulumi\.yaml: cannot read the project file \(ENOENT\); --cwd must be a Pulumi project directory/,
    );
    const cases: [string, RegExp][] = [
      ["runtime: nodejs\n", /Pulumi\.yaml has no name: add `name: <project name>`/],
      ["name: shop\n", /Pulumi\.yaml has no runtime: add `runtime: nodejs`/],
      [
        "name: shop\nruntime: nodejs\ndescription: main: not this\n",
        /Pulumi\.yaml is not valid YAML: (incomplete explicit mapping pair|bad indentation of a mapping entry)/ /* js-yaml 3 (SDK 3.246), 4 (3.270) */,
      ],
      ["- name: shop\n", /Pulumi\.yaml must hold the project's settings as a mapping/],
      [
        "name: py\nruntime: python\n",
        /runtime is "python"; only nodejs projects can be run inline: `cdnstream drift` runs the program itself, on Node\.js\. For a project in another language, `pulumi preview --refresh --expect-no-changes --stack <name>`/,
      ],
      ["name: go\nruntime:\n  name: go\n", /runtime is "go"; only nodejs projects can be run inline/],
      [
        "name: s\nruntime:\n  name: nodejs\n  options:\n    typescript: 'no'\n",
        /runtime\.options\.typescript must be true or false, not "no"/,
      ],
      [
        "name: s\nruntime:\n  name: nodejs\n  options:\n    nodeargs: [--inspect]\n",
        /runtime\.options\.nodeargs must be one string of node options, such as "--max-old-space-size=4096", not \["--inspect"\]/,
      ],
      [
        'name: s\nruntime:\n  name: nodejs\n  options:\n    nodeargs: "--require \'x"\n',
        /runtime\.options\.nodeargs cannot be split into words: a single quote is not closed/,
      ],
      [
        "name: s\nruntime:\n  name: nodejs\n  options:\n    tsconfig: 3\n",
        /runtime\.options\.tsconfig must be a file name such as "tsconfig\.json", not 3/,
      ],
      [
        "name: s\nruntime: nodejs\nmain: /abs/index.js\n",
        /main must be a path relative to the project directory, not the absolute "\/abs\/index\.js"/,
      ],
      [
        "name: s\nruntime: nodejs\nmain: ../elsewhere/index.js\n",
        /main must be inside the project directory, but "\.\.\/elsewhere\/index\.js" is outside it/,
      ],
      ["name: s\nruntime: nodejs\nmain: 7\n", /main must be a path such as "index\.ts" or "bin\/index\.js", not 7/],
    ];
    for (const [yaml, message] of cases) {
      write(yaml);
      expect(() => readProject(dir)).toThrow(message);
    }
  });

  it("never evaluates YAML tags that build code (the safe schema)", () => {
    write("name: !!js/function 'function () { return 1 }'\nruntime: nodejs\n");
    expect(() => readProject(dir)).toThrow(/Pulumi\.yaml is not valid YAML: unknown tag/);
  });
});

describe("splitShellWords (runtime.options.nodeargs)", () => {
  it.each([
    ["", []],
    ["--max-old-space-size=4096", ["--max-old-space-size=4096"]],
    ["  --require   ./a.js\t--import tsx ", ["--require", "./a.js", "--import", "tsx"]],
    [`--require './with space.js'`, ["--require", "./with space.js"]],
    [`--title "a \\"quoted\\" \\$word"`, ["--title", 'a "quoted" $word']],
    [`a\\ b c`, ["a b", "c"]],
    [`--x='1'"2"3`, ["--x=123"]],
    [`''`, [""]],
    [`--a # a comment`, ["--a"]],
    [`x#y`, ["x#y"]],
  ])("%j", (line, words) => {
    expect(splitShellWords(line)).toEqual(words);
  });

  it("refuses what a shell would refuse", () => {
    expect(() => splitShellWords(`"open`)).toThrow(/a double quote is not closed/);
    expect(() => splitShellWords(`'open`)).toThrow(/a single quote is not closed/);
    expect(() => splitShellWords(`end\\`)).toThrow(/ends with a backslash/);
  });
});
