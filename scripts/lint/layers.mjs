// @ts-check
/**
 * The ESLint rule `cdnstream/layers`: the house reads top-down. Each product module belongs to one
 * layer of LAYERS (docs/design.md says what each holds and knows). A module imports from its own
 * layer and the layers below, never from one above, and no two modules import each other
 * (type-only imports count too: a circle of types is still a circle). Only relative imports with
 * a literal path are read (a computed `require` names its own reason).
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The layers, bottom first. */
const LAYERS = [
  { name: "API client", files: [/^provider\/client\//] },
  {
    name: "handlers",
    files: [
      /^provider\/[^/]+\.ts$/,
      /^provider\/(handlers|shims)\//,
      /^kinds\/declare\.ts$/,
      /^kinds\/[^/]+\/(declaration|handler)\.ts$/,
    ],
  },
  { name: "program SDK", files: [/^sdk\//, /^kinds\/(index|registry)\.ts$/, /^kinds\/[^/]+\/resource\.ts$/] },
  { name: "plugin and CLI", files: [/^provider\/(plugin|cli)\//] },
];

/** The layer of a repository-relative path, or -1 outside the product's layers. */
function layerOf(relative) {
  return LAYERS.findIndex((layer) => layer.files.some((pattern) => pattern.test(relative)));
}

/** The file a relative specifier names from `from`, as TypeScript resolves it; undefined when none. */
function resolveSpecifier(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, "index.ts")])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return undefined;
}

const SPECIFIERS = /(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*)"(\.{1,2}\/[^"]*)"/g;

/** The files a source file imports by relative literal paths (a cheap read of its text). */
function importsOfFile(file) {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(SPECIFIERS)].map((m) => resolveSpecifier(file, m[1])).filter(Boolean);
}

const rel = (file) => path.relative(ROOT, file).split(path.sep).join("/");

/** @type {import("eslint").Rule.RuleModule} */
const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "imports run from higher layers to lower ones only, and no two modules import each other" },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = layerOf(rel(file));
    if (from < 0) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const target = resolveSpecifier(file, specifier);
      if (!target) return;
      const to = layerOf(rel(target));
      if (to > from)
        context.report({
          node,
          message:
            `${rel(file)} (layer "${LAYERS[from].name}") imports ${rel(target)} (layer "${LAYERS[to].name}", above it): ` +
            "imports run down the layers only (scripts/lint/layers.mjs). Move what both need to the lower layer, or pass it in.",
        });
      else if (importsOfFile(target).includes(file))
        context.report({
          node,
          message:
            `${rel(file)} and ${rel(target)} import each other: move what one takes from the other into ` +
            "one of them, or into a module both import (scripts/lint/layers.mjs).",
        });
    };
    const literal = (node) => (node && node.type === "Literal" ? node.value : undefined);
    return {
      "ImportDeclaration, ExportNamedDeclaration, ExportAllDeclaration": (node) =>
        node.source && check(node, node.source.value),
      ImportExpression: (node) => check(node, literal(node.source)),
      CallExpression: (node) => {
        if (node.callee.type === "Identifier" && node.callee.name === "require")
          check(node, literal(node.arguments[0]));
      },
    };
  },
};

export const layersPlugin = { rules: { layers: layersRule } };
