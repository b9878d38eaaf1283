/**
 * A provider host and the client's index defer zod's locales to their first use
 * (client/core/zod-locales.ts). The module cache is Node's own, which jest replaces with its
 * registry, so the deferral is checked in a fresh `node` process: the module is transpiled to a
 * file under .tmp/ (it imports only Node's modules), where `zod` resolves as it does for the
 * package.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { localeExports } from "../../client/core/zod-locales";
import { run } from "../../scripts/child";

const repoRoot = path.resolve(__dirname, "../..");
const compiled = path.join(repoRoot, ".tmp", `zod-locales-${process.pid}.js`);

/** What a fresh process sees after loading zod, with or without the deferral first. */
async function loadZod(deferred: boolean): Promise<{
  deferred: boolean;
  localeFiles: string[];
  zodModules: number;
  names: string[];
  english: string;
  french: string;
}> {
  const script = `
    const { deferZodLocales } = require(${JSON.stringify(compiled)});
    const deferred = ${deferred} ? deferZodLocales() : false;
    const { z } = require("zod");
    const loaded = () => Object.keys(require.cache).filter((f) => f.includes("/node_modules/zod/"));
    const localeFiles = loaded().filter((f) => f.includes("/locales/")).map((f) => path.basename(f)).sort();
    const zodModules = loaded().length;
    const english = z.string().safeParse(1).error.issues[0].message;
    z.config(z.locales.fr());
    const french = z.string().safeParse(1).error.issues[0].message;
    const names = Object.keys(z.locales).sort();
    console.log(JSON.stringify({ deferred, localeFiles, zodModules, names, english, french }));`;
  // A Node.js process loading zod: well under a second.
  const ran = await run(process.execPath, ["-e", `const path = require("node:path");${script}`], {
    cwd: repoRoot,
    deadlineMs: 60_000,
  });
  return JSON.parse(ran.stdout);
}

describe("zod's locales, deferred in a provider host", () => {
  beforeAll(() => {
    const source = fs.readFileSync(path.join(repoRoot, "client", "core", "zod-locales.ts"), "utf8");
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    fs.mkdirSync(path.dirname(compiled), { recursive: true });
    fs.writeFileSync(compiled, outputText);
  });
  afterAll(() => fs.rmSync(compiled, { force: true }));

  it("reads every locale of zod's index, English among them", () => {
    const index = fs.readFileSync(require.resolve("zod/v4/locales"), "utf8");
    const exported = localeExports(index);
    expect(exported.get("en")).toBe("en.cjs");
    expect(exported.get("frCA")).toBe("fr-CA.cjs");
    // Every require of the index is one export read: none is missed.
    expect(exported.size).toBe(index.match(/require\("\.\/[\w-]+\.cjs"\)/g)!.length);
  });

  it("loads English alone at start, the others on first use, with the same names and messages", async () => {
    const plain = await loadZod(false);
    const lean = await loadZod(true);
    expect(lean.deferred).toBe(true);
    expect(plain.localeFiles.length).toBeGreaterThan(50);
    // At the time zod is loaded: the index (the deferred one) and English, which zod configures.
    expect(lean.localeFiles).toEqual(["en.cjs", "index.cjs"]);
    expect(plain.zodModules - lean.zodModules).toBe(plain.localeFiles.length - lean.localeFiles.length);
    expect(lean.names).toEqual(plain.names);
    expect(lean.english).toBe(plain.english);
    expect(lean.english).toMatch(/expected string/);
    expect(lean.french).toBe(plain.french);
    expect(lean.french).not.toBe(lean.english);
  });
});
