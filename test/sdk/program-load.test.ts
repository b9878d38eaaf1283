/**
 * What importing the SDK loads in a program, which pays it at every `up` and `preview`: the
 * resource classes and the registry of kinds (kinds/registry.ts), not the kinds' declarations,
 * zod, or the API client (its operation families and their schemas, undici), which the first
 * data-source call loads through the client's index (sdk/data-sources/lazy-client.ts), and then
 * zod without its locales but English (client/core/zod-locales.ts). Jest replaces Node's module
 * cache with its registry, so a fresh `node` process loads the built SDK (`npm test` builds
 * first) as a program would, after @pulumi/pulumi, and calls a data source against the emulator
 * (which serves from this process, so the program runs asynchronously).
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const repoRoot = path.resolve(__dirname, "../..");
const sdkEntry = path.join(repoRoot, "dist", "sdk", "index.js");

/** Modules a fresh process holds, by where they live: the client's modules by file name. */
interface Loaded {
  client: string[];
  undici: number;
  /** zod's modules, by path in its package. */
  zod: string[];
  declarations: number;
}

async function program(emulator: TestEmulator): Promise<{ imported: Loaded; afterCall: Loaded; domains: number }> {
  const script = `
    const loaded = () => {
      const files = Object.keys(require.cache);
      return {
        client: files.filter((f) => f.includes("/dist/client/")).map((f) => require("node:path").basename(f)).sort(),
        undici: files.filter((f) => f.includes("/node_modules/undici/")).length,
        zod: files.filter((f) => f.includes("/node_modules/zod/")).map((f) => f.split("/node_modules/zod/")[1]).sort(),
        declarations: files.filter((f) => /\\/dist\\/kinds\\/.*declar/.test(f)).length,
      };
    };
    require("@pulumi/pulumi");
    const cdn = require(${JSON.stringify(sdkEntry)});
    const imported = loaded();
    cdn.getDnsZones({}, { clientOptions: { apiKey: process.env.KEY, baseUrl: process.env.URL, maxRetries: 0, env: {} } })
      .then(async (result) => {
        const afterCall = loaded();
        await cdn.closeDataSourceClients();
        console.log(JSON.stringify({ imported, afterCall, domains: result.domains.length }));
      })
      .catch((err) => { console.error(err); process.exit(1); });`;
  const run = await promisify(execFile)(process.execPath, ["-e", script], {
    cwd: repoRoot,
    env: { ...process.env, KEY: emulator.apiKey, URL: emulator.url },
  }).catch((err: { stderr?: string }) => {
    throw new Error(`the program failed (run \`npm run build\` first?):\n${err.stderr ?? String(err)}`);
  });
  return JSON.parse(run.stdout);
}

describe("importing the SDK", () => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(() => emulator.close());

  it("loads neither the API client, zod nor the declarations; the first data-source call loads the client and zod", async () => {
    const { imported, afterCall, domains } = await program(emulator);

    expect(imported.client).toEqual([]);
    expect(imported.undici).toBe(0);
    expect(imported.zod).toEqual([]);
    expect(imported.declarations).toBe(0);

    expect(afterCall.client).toEqual(
      expect.arrayContaining([
        "client.js",
        "dns.js",
        "index.js",
        "operation.js",
        "response-parser.js",
        "streams.js",
        "zones.js",
      ]),
    );
    expect(afterCall.undici).toBeGreaterThan(0);
    expect(afterCall.zod).toEqual(expect.arrayContaining(["index.cjs", "v4/core/core.cjs", "v4/locales/en.cjs"]));
    // English, which zod's entry loads itself, and the index (the deferred one); not the 60 others.
    expect(afterCall.zod.filter((file) => file.includes("/locales/"))).toEqual([
      "v4/locales/en.cjs",
      "v4/locales/index.cjs",
    ]);
    expect(domains).toBeGreaterThan(0);
    expect(await emulator.requestCounts()).toEqual({ "GET /v2/dns": 1 });
  });
});
