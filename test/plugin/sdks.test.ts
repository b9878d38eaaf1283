/**
 * The Python and Go SDKs under sdk/python and sdk/go are generated from the plugin's schema
 * (scripts/gen-sdks) and checked in: this suite regenerates them into a scratch directory and
 * fails, naming the files, when the checked-in ones differ, so a schema change never ships with
 * SDKs of the schema before it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run } from "../../scripts/child";
import { GO_BUILD_SCRIPT_DEADLINE_MS, repoRoot } from "../helpers/engine";

/** Every file under `dir`, as paths relative to it, sorted. */
function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(dir, entry.name), path.join(prefix, entry.name))
        : [path.join(prefix, entry.name)],
    )
    .sort();
}

/** What differs between the checked-in tree and a fresh one: missing, extra and changed files. */
function differences(checkedIn: string, fresh: string): string[] {
  const have = listFiles(checkedIn);
  const want = listFiles(fresh);
  return [
    ...want.filter((f) => !have.includes(f)).map((f) => `missing ${f}`),
    ...have.filter((f) => !want.includes(f)).map((f) => `not generated any more: ${f}`),
    ...want
      .filter((f) => have.includes(f))
      .filter((f) => !fs.readFileSync(path.join(checkedIn, f)).equals(fs.readFileSync(path.join(fresh, f))))
      .map((f) => `changed ${f}`),
  ];
}

describe("generated SDKs", () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-sdks-"));
    const generated = await run(path.join(repoRoot, "scripts", "gen-sdks"), ["--out", scratch], {
      deadlineMs: GO_BUILD_SCRIPT_DEADLINE_MS,
      allowFailure: true,
    });
    if (generated.status !== 0) {
      throw new Error(
        `scripts/gen-sdks exited ${generated.status}:\n${generated.stderr}\n` +
          "It builds Pulumi's code generators from the Go module proxy the first time (needs Go: " +
          "https://go.dev/doc/install, or 'apt-get install golang').",
      );
    }
  }, GO_BUILD_SCRIPT_DEADLINE_MS + 60_000);

  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it.each(["python", "go"])("sdk/%s is what the schema generates", (language) => {
    const diff = differences(path.join(repoRoot, "sdk", language), path.join(scratch, language));
    if (diff.length > 0) {
      throw new Error(`sdk/${language} is stale: run \`npm run gen\`\n  ${diff.join("\n  ")}`);
    }
    // The comparison saw a real tree, not two empty directories.
    expect(listFiles(path.join(scratch, language)).length).toBeGreaterThan(3);
  });

  it("sdk/go is the module go get fetches, asking for the Pulumi Go SDK of the generators' release", () => {
    const goMod = fs.readFileSync(path.join(repoRoot, "sdk", "go", "go.mod"), "utf8");
    expect(goMod).toMatch(/^module github\.com\/cdnstream\/pulumi-cdnstream\/sdk\/go$/m);
    const generators = fs.readFileSync(path.join(repoRoot, "scripts", "gen-sdks-go", "go.mod"), "utf8");
    const release = /^\s+github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)$/m.exec(generators)?.[1];
    expect(release).toMatch(/^v3\.\d+\.\d+$/);
    expect(goMod).toContain(`\tgithub.com/pulumi/pulumi/sdk/v3 ${release}\n`);
    // Complete, as a published module is: its go.sum vouches for what it requires.
    expect(fs.readFileSync(path.join(repoRoot, "sdk", "go", "go.sum"), "utf8")).toContain(
      `github.com/pulumi/pulumi/sdk/v3 ${release} h1:`,
    );
  });

  it.each([
    ["python", "pulumi_cdnstream"],
    ["go", "cdnstream"],
  ])("sdk/%s declares every resource and function of the schema", (language, packageDir) => {
    const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, "provider", "plugin", "schema.json"), "utf8"));
    const dir = path.join(repoRoot, "sdk", language, packageDir);
    const sources = listFiles(dir)
      .filter((f) => /\.(py|go)$/.test(f))
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      .join("\n");
    const tokens = [...Object.keys(schema.resources ?? {}), ...Object.keys(schema.functions ?? {})];
    expect(tokens).toContain("cdnstream:index:StreamStatus");
    for (const token of tokens) expect(sources).toContain(token);
  });
});
