/**
 * The plugin's schema held to Pulumi's own codegen (scripts/gen-sdks-go/schemacheck, the module
 * github.com/pulumi/pulumi/pkg/v3 at the SDK generators' release): it binds with no diagnostic,
 * and the Node.js, Python and Go SDKs the codegen writes from it show users what the Registry
 * shows: each resource's and function's doc comment carries its example in that SDK's own
 * language and no other (the codegen keeps one language of the chooser), and each resource's the
 * `pulumi import` line. The Node.js SDK names this npm package and type-checks; the TypeScript
 * examples type-check against this package, the one TypeScript users install.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { run } from "../../scripts/child";
import { GO_BUILD_SCRIPT_DEADLINE_MS, repoRoot } from "../helpers/engine";
import { typeCheckAgainstPackage } from "../helpers/typecheck";

const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, "provider", "plugin", "schema.json"), "utf8"));
const examples: Record<string, Record<string, string>> = JSON.parse(
  fs.readFileSync(path.join(repoRoot, "docs", "examples", "schema-examples.json"), "utf8"),
);
const npmPackage: string = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).name;
const CHOOSER = ["typescript", "python", "go", "yaml"];

const lowerCamel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
/** Each resource and function: its token, its name, and whether it is a resource. */
const members = [
  ...Object.keys(schema.resources).map((token) => ({ token, resource: true })),
  ...Object.keys(schema.functions).map((token) => ({ token, resource: false })),
].map(({ token, resource }) => ({ token, resource, name: token.split(":")[2] as string }));

/** Each SDK: the file of a resource or function, and the language fence its doc comments keep. */
const SDKS = {
  nodejs: { fence: "typescript", file: (name: string) => `${lowerCamel(name)}.ts` },
  python: { fence: "python", file: (name: string) => `pulumi_cdnstream/${snake(name)}.py` },
  go: { fence: "go", file: (name: string) => `cdnstream/${lowerCamel(name)}.go` },
} as const;
/** A source file's lines without their comment markers and indentation. */
const commentless = (text: string) => text.split("\n").map((line) => line.replace(/^\s*(\*|\/\/)?/, "").trim());

describe("the plugin's schema, as Pulumi's codegen reads it", () => {
  let scratch: string;

  beforeAll(
    async () => {
      // Under the repository, so that the Node.js SDK resolves @pulumi/pulumi from its node_modules.
      fs.mkdirSync(path.join(repoRoot, ".tmp"), { recursive: true });
      scratch = fs.mkdtempSync(path.join(repoRoot, ".tmp", "codegen-"));
      const build = await run(path.join(repoRoot, "scripts", "gen-sdks"), ["--schemacheck"], {
        deadlineMs: GO_BUILD_SCRIPT_DEADLINE_MS,
        allowFailure: true,
      });
      if (build.status !== 0)
        throw new Error(
          `scripts/gen-sdks --schemacheck exited ${build.status}:\n${build.stderr}\n` +
            "It builds Pulumi's codegen from the Go module proxy the first time (needs Go: " +
            "https://go.dev/doc/install, or 'apt-get install golang').",
        );
      const checker = build.stdout.trim().split("\n").pop()!;
      // Binding the schema in every language: seconds.
      const checked = await run(checker, [path.join(repoRoot, "provider", "plugin", "schema.json"), scratch], {
        deadlineMs: 5 * 60_000,
        allowFailure: true,
      });
      // Its message lists every diagnostic of the binding.
      if (checked.status !== 0) throw new Error(`schemacheck exited ${checked.status}:\n${checked.stderr}`);
    },
    GO_BUILD_SCRIPT_DEADLINE_MS + 6 * 60_000,
  );

  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("carries, for each resource and function, the example in every language the package ships", () => {
    for (const { token } of members) {
      const description: string = (schema.resources[token] ?? schema.functions[token]).description;
      expect([token, examples[token] !== undefined]).toEqual([token, true]);
      expect([token, description]).toEqual([token, expect.stringContaining("{{% examples %}}\n## Example Usage\n")]);
      for (const language of CHOOSER)
        expect([token, description]).toEqual([
          token,
          expect.stringContaining(`\`\`\`${language}\n${examples[token][language]}\n\`\`\``),
        ]);
    }
  });

  it("says nothing of adoptId, which only the TypeScript classes have", () => {
    expect(JSON.stringify(schema)).not.toMatch(/adoptId|adopt id/i);
  });

  it("is the Node.js SDK of this npm package, which type-checks", () => {
    const sdk = path.join(scratch, "nodejs");
    expect(JSON.parse(fs.readFileSync(path.join(sdk, "package.json"), "utf8")).name).toBe(npmPackage);
    const config = ts.readConfigFile(path.join(sdk, "tsconfig.json"), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, sdk);
    const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(diagnostics).toEqual([]);
    expect(parsed.fileNames.length).toBeGreaterThan(members.length);
  }, 120_000);

  it.each(Object.keys(SDKS) as (keyof typeof SDKS)[])(
    "in the %s SDK, each doc comment carries its own language's example, no other, and the import line",
    (sdk) => {
      const { fence, file } = SDKS[sdk];
      for (const { token, name, resource } of members) {
        const text = fs.readFileSync(path.join(scratch, sdk, file(name)), "utf8");
        const lines = new Set(commentless(text));
        const missing = commentless(examples[token][fence]).filter((line) => line && !lines.has(line));
        expect([token, missing]).toEqual([token, []]);
        const fences = [...text.matchAll(/```(\w+)/g)].map((match) => match[1]);
        expect([token, [...new Set(fences)].sort()]).toEqual([token, resource ? [fence, "sh"].sort() : [fence]]);
        if (sdk === "nodejs") expect(text).toContain(`import * as cdnstream from "${npmPackage}";`);
        if (resource) {
          expect([token, text]).toEqual([token, expect.stringContaining("## Import")]);
          expect([token, text]).toEqual([
            token,
            expect.stringMatching(new RegExp(`\\$ pulumi import ${token} \\w+ \\S+`)),
          ]);
        }
        expect([token, text]).toEqual([token, expect.not.stringContaining("adoptId")]);
      }
    },
  );

  it("has TypeScript examples that type-check against this package", () => {
    const dir = path.join(scratch, "examples");
    const files = Object.entries(examples).map(([token, example]) => {
      const file = path.join(dir, `${token.split(":")[2]}.ts`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, example.typescript);
      return file;
    });
    const diagnostics = typeCheckAgainstPackage(files);
    expect(diagnostics).toEqual([]);
  }, 120_000);
});
