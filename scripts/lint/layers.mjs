// @ts-check
/**
 * The ESLint rule `cdnstream/layers`: the house reads top-down. Every module is in one layer of
 * LAYERS (docs/design.md says what each holds and knows) or one folder of APART, or is an error. A
 * layered module imports from its layer and those below, never from one above nor a folder apart;
 * no module imports itself back through a circle of any length. Every import form counts, type-only
 * too (TypeScript lists and resolves them as the build does); a computed `require` names its reason.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The layers, bottom first. Moving a folder edits its patterns here and nothing else. */
const LAYERS = [
  { name: "API client machinery", files: [/^client\/core\//] },
  { name: "API client families", files: [/^client\/resources\//] },
  { name: "API client", files: [/^client\/[^/]+\.ts$/] },
  { name: "handlers", files: [/^kinds\/common\//, /^kinds\/[^/]+\/(declaration|handler)\.ts$/] },
  { name: "resource classes", files: [/^kinds\/[^/]+\.ts$/, /^kinds\/[^/]+\/resource\.ts$/] },
  { name: "program SDK", files: [/^sdk\//] },
  { name: "provider host", files: [/^provider\/([^/]+\.ts$|shims\/)/] },
  { name: "plugin and CLI", files: [/^provider\/(plugin|cli)\//] },
];

/** What stands apart from the layers, matched before them: each imports any layer, and no layer imports it. */
const APART = [
  { name: "tests", files: [/^test\//, /\.test\.ts$/] },
  { name: "emulator", files: [/^emulator\//] },
  { name: "scripts", files: [/^scripts\//] },
  { name: "examples", files: [/^examples\//] },
  { name: "configuration", files: [/^[^/]+\.[cm]?js$/] },
];

const rel = (file) => path.relative(ROOT, file).split(path.sep).join("/");
const matches = (relative) => (place) => place.files.some((pattern) => pattern.test(relative));
/** Where a repository-relative path belongs: a place of APART or of LAYERS, or undefined. */
const placeOf = (relative) => APART.find(matches(relative)) ?? LAYERS.find(matches(relative));

const OPTIONS = { allowJs: true, moduleResolution: ts.ModuleResolutionKind.Node10 };

/** The repository's files `text` (the module `file`) imports, in every form, each with the offsets of its specifier. */
function importsIn(file, text) {
  return ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName, pos, end }) => {
    const target = ts.resolveModuleName(fileName, file, OPTIONS, ts.sys).resolvedModule;
    const inTree = target && !target.isExternalLibraryImport && !rel(target.resolvedFileName).startsWith("..");
    return inTree ? [{ target: target.resolvedFileName, pos, end }] : [];
  });
}

/** Each file's imports as read from disk, kept while its modification time stays. */
const graph = new Map();
function importsOfFile(file) {
  const mtime = fs.statSync(file).mtimeMs;
  if (graph.get(file)?.mtime !== mtime)
    graph.set(file, { mtime, targets: importsIn(file, fs.readFileSync(file, "utf8")).map((i) => i.target) });
  return graph.get(file).targets;
}

/** A chain of imports from `file` to `goal` (both included), depth first, or undefined when there is none. */
function chain(file, goal, seen = new Set()) {
  if (file === goal) return [file];
  seen.add(file);
  for (const next of importsOfFile(file)) {
    const rest = !seen.has(next) && chain(next, goal, seen);
    if (rest) return [file, ...rest];
  }
  return undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "every module has a place; imports run down the layers only, and never in a circle" },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const source = context.sourceCode;
    const place = placeOf(rel(file));
    return {
      Program(program) {
        if (!place)
          return context.report({
            node: program,
            message:
              `${rel(file)} is in no layer and in no folder apart: add its folder to LAYERS or to APART in ` +
              "scripts/lint/layers.mjs (docs/design.md says what each layer holds).",
          });
        const from = LAYERS.indexOf(place);
        // The modules no search so far found leading back here (a search that finds a circle starts afresh).
        let seen = new Set();
        for (const { target, pos, end } of importsIn(file, source.text)) {
          const report = (message) =>
            context.report({ loc: { start: source.getLocFromIndex(pos), end: source.getLocFromIndex(end) }, message });
          const targetPlace = placeOf(rel(target));
          const to = LAYERS.indexOf(targetPlace);
          if (from >= 0 && to > from)
            report(
              `${rel(file)} (layer "${place.name}") imports ${rel(target)} (layer "${targetPlace.name}", above it): ` +
                "imports run down the layers only (scripts/lint/layers.mjs). Move what both need to the lower layer, or pass it in.",
            );
          else if (from >= 0 && to < 0)
            report(
              `${rel(file)} (layer "${place.name}") imports ${rel(target)}, which is in no layer ` +
                `(${targetPlace ? `apart: ${targetPlace.name}` : "in no place"}): a layer imports only from its own and ` +
                "those below (scripts/lint/layers.mjs). Move what it needs into a layer, or pass it in.",
            );
          else {
            const circle = chain(target, file, seen)?.map(rel);
            if (!circle) continue;
            seen = new Set();
            const who =
              circle.length === 2
                ? `${rel(file)} and ${circle[0]} import each other`
                : `${[rel(file), ...circle].join(" -> ")} import in a circle`;
            report(
              `${who}: move what one takes from the other into one of them, or into a module both import (scripts/lint/layers.mjs).`,
            );
          }
        }
      },
    };
  },
};

export const layersPlugin = { rules: { layers: layersRule } };
