/**
 * What a provider host loads for the operation it serves. A host starts at every `up`,
 * `preview`, `refresh` and `destroy` and checks inputs, requests and answers with zod, loaded
 * without its locales but English (client/core/zod-locales.ts): one that refreshes and destroys
 * every kind reads what the host that made them read. Jest replaces Node's module cache with its
 * registry, so each host is a fresh `node` process that loads the built shims (`npm test` builds
 * first), against an emulator serving from this process, with one resource of every kind.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { stackFixture } from "../../scripts/bench/fixture";
import { declarations, targetCounts } from "../../scripts/bench/mix";
import { KINDS } from "../../kinds/registry";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const repoRoot = path.resolve(__dirname, "../..");
const kinds = declarations(7, "cycle");
/** A kind's folder (its shim's name), from the registry of kinds. */
const folderOf = (kind: string) => (KINDS as Record<string, { folder: string }>)[kind]!.folder;

/** Runs `body` in a fresh host-like process (after @pulumi/pulumi, with the shims' configuration); its JSON line. */
async function host(emulator: TestEmulator, body: string): Promise<any> {
  const script = `
    const zod = () => Object.keys(require.cache).filter((f) => f.includes("/node_modules/zod/")).map((f) => f.split("/node_modules/zod/")[1]).sort();
    require("@pulumi/pulumi");
    const shim = (folder) => require("./dist/provider/shims/" + folder + ".js");
    (async () => { ${body} })().catch((err) => { console.error(err); process.exit(1); });`;
  const run = await promisify(execFile)(process.execPath, ["-e", script], {
    cwd: repoRoot,
    env: { ...process.env, CDNSTREAM_API_KEY: emulator.apiKey, CDNSTREAM_BASE_URL: emulator.url },
  }).catch((err: { stderr?: string }) => {
    throw new Error(`the host failed (run \`npm run build\` first?):\n${err.stderr ?? String(err)}`);
  });
  return JSON.parse(run.stdout.trim().split("\n").pop()!);
}

describe("a provider host", () => {
  let emulator: TestEmulator;
  /** Each kind's resource as `up` made it, what a read gave in that host, and zod's modules it loaded. */
  let made: { folder: string; id: string; outs: Record<string, unknown>; read: unknown; zod: string[] }[];

  beforeAll(async () => {
    emulator = await startTestEmulator({ fixture: stackFixture(targetCounts(kinds)) });
    const resources = kinds.map((d) => ({ folder: folderOf(d.kind), args: d.args }));
    made = await host(
      emulator,
      `const made = [];
       for (const { folder, args } of ${JSON.stringify(resources)}) {
         const provider = shim(folder);
         await provider.configure({ config: { get: () => undefined } });
         const { inputs } = await provider.check({}, args);
         const { id, outs } = await provider.create(inputs);
         made.push({ folder, id, outs, read: await provider.read(id, outs), zod: zod() });
       }
       console.log(JSON.stringify(made));`,
    );
  });
  afterAll(() => emulator.close());

  it("that checks inputs loads zod with English alone, before its first handler", () => {
    expect(made.map((resource) => resource.folder)).toEqual(kinds.map((d) => folderOf(d.kind)));
    expect(made[0]!.zod).toEqual(expect.arrayContaining(["index.cjs", "v4/core/core.cjs"]));
    // English, which zod's entry loads itself, and the index (the deferred one); not the 60 others.
    expect(made[0]!.zod.filter((file) => file.includes("/locales/"))).toEqual([
      "v4/locales/en.cjs",
      "v4/locales/index.cjs",
    ]);
  });

  it("that refreshes and destroys every kind reads what the host that made them read", async () => {
    const hostRun = await host(
      emulator,
      `const reads = [];
       for (const { folder, id, outs } of ${JSON.stringify(made)}) {
         const provider = shim(folder);
         await provider.configure({ config: { get: () => undefined } });
         reads.push(await provider.read(id, outs));
       }
       for (const { folder, id, outs } of ${JSON.stringify(made)}) await shim(folder).delete(id, outs);
       console.log(JSON.stringify({ reads, afterDeletes: zod() }));`,
    );
    expect(hostRun.reads).toEqual(made.map((resource) => resource.read));
    expect(hostRun.afterDeletes.filter((file: string) => file.includes("/locales/"))).toEqual([
      "v4/locales/en.cjs",
      "v4/locales/index.cjs",
    ]);
  });
});
