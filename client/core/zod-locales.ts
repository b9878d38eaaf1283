/**
 * zod's core loads all of its locale modules when it loads (its `locales` export: over 60
 * files, a third of zod's load time, about 18 ms of CPU on Node 20), yet a provider host and the
 * client only ever speak English, which zod's own entry loads by itself. A provider host loads
 * zod at every operation, so that time would weigh on every `up`, `preview`, `refresh` and
 * `destroy` (docs/benchmarks.md).
 *
 * {@link deferZodLocales} runs before zod first loads: in the two entries of a provider host
 * (provider/host-setup.ts, for the dynamic resources' shim and the plugin's main) and in the client's
 * index (client/index.ts, which a program loads at its first data-source call; where zod was
 * loaded first, nothing is deferred). It puts into Node's module cache, under the file of zod's
 * public `zod/v4/locales` entry, an object with the same export names, each a getter that loads
 * its locale (`zod/v4/locales/<file>`, public too) on first access. Code that reads a locale
 * (`z.locales.fr()`) gets it as before; only the loading moves to first use. Where the index does
 * not read as expected (another zod layout), nothing is deferred and zod loads as it always did;
 * test/provider/zod-locales.test.ts fails on such an upgrade.
 */
import * as fs from "node:fs";
import Module from "node:module";

/** One export of the locales index: `var ar_js_1 = require("./ar.cjs"); ...defineProperty(exports, "ar", ...` */
const EXPORT = /var \w+ = require\("\.\/([\w-]+)\.cjs"\);\s*Object\.defineProperty\(exports, "(\w+)"/g;

/** The locales index's exports (name to locale file) from its source; empty when it is not zod's CommonJS index. */
export function localeExports(indexSource: string): Map<string, string> {
  return new Map([...indexSource.matchAll(EXPORT)].map(([, file, name]) => [name, `${file}.cjs`]));
}

/** Defers zod's locales to their first use; false when zod is not found, already loaded, or laid out otherwise. */
export function deferZodLocales(): boolean {
  let indexFile: string;
  try {
    indexFile = require.resolve("zod/v4/locales");
  } catch {
    return false;
  }
  if (require.cache[indexFile]) return false;
  const exported = localeExports(fs.readFileSync(indexFile, "utf8"));
  // en is the one a host uses: with no entry for it the layout is not the one this reads.
  if (!exported.has("en")) return false;

  const lazy: Record<string, unknown> = {};
  Object.defineProperty(lazy, "__esModule", { value: true });
  for (const [name, file] of exported) {
    Object.defineProperty(lazy, name, {
      enumerable: true,
      get: () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a locale, loaded on first use
        const loaded = require(`zod/v4/locales/${file}`);
        // What the index's own getter returns (its __importDefault).
        return loaded?.__esModule ? loaded.default : loaded;
      },
    });
  }
  const cached = new Module(indexFile);
  cached.filename = indexFile;
  cached.paths = [];
  cached.exports = lazy;
  cached.loaded = true;
  require.cache[indexFile] = cached;
  return true;
}
