// @ts-check
/**
 * ESLint: the recommended rules of ESLint and of typescript-eslint, without the type-checked
 * ones (they need a whole type-check per run, three times the time, and mostly report the
 * `any` that the engine's state and the API's JSON carry). Each setting below that departs
 * from the recommended ones says why. Formatting is Prettier's alone: eslint-config-prettier,
 * last, turns off the rules that would disagree with it. `npm run lint` runs both;
 * `npm run format` applies the fixes ESLint can make, then Prettier.
 */
import js from "@eslint/js";
import prettier from "eslint-config-prettier/flat";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";
import { layersPlugin } from "./scripts/lint/layers.mjs";
import { spawnDeadlineRule } from "./scripts/lint/spawn-deadline.mjs";

export default defineConfig(
  {
    // Build output (the package's dist/, the examples' bin/ that `npm run demo` compiles),
    // installs, scratch directories (ESLint reads no .gitignore); sdk/python and sdk/go are
    // generated (scripts/gen-sdks) and hold no JavaScript to lint; docs/examples is Pulumi's
    // program generators' output (scripts/gen-examples), a program as a user writes it.
    ignores: [
      "dist/",
      "examples/*/bin/",
      "**/node_modules/",
      ".tmp/",
      ".demo/",
      "coverage/",
      "sdk/python/",
      "sdk/go/",
      "docs/examples/",
    ],
  },
  {
    // A disable comment that no longer suppresses anything is an error, so none outlives its reason.
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // Every module has a layer or a folder apart; imports run down the layers only, never into a
    // folder apart nor in a circle (scripts/lint/layers.mjs says which folder is which). Every
    // synchronous spawn has a deadline (scripts/lint/spawn-deadline.mjs).
    plugins: { cdnstream: { rules: { ...layersPlugin.rules, "spawn-deadline": spawnDeadlineRule } } },
    rules: { "cdnstream/layers": "error", "cdnstream/spawn-deadline": "error" },
  },
  {
    rules: {
      // A name starting with `_` is unused on purpose: the key dropped from an object by
      // destructuring the rest (`const { mode: _mode, ...rest } = ...`), a loop that only counts.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // The data sources' argument types are public: a data source without arguments still has
      // its (empty) `...Args` interface, so every one has the same signature and can gain one.
      "@typescript-eslint/no-empty-object-type": ["error", { allowWithName: "Args$" }],
      "@typescript-eslint/no-require-imports": [
        "error",
        {
          // require() on purpose, with a static path: JSON files (package.json's version,
          // recorded fixtures; `import` would need resolveJsonModule and copy package.json into
          // dist/); the SDK's submodules the CLI loads on first use, so `cdnstream api` starts
          // without loading the Automation API; js-yaml, which ships no types (a hand-written
          // type goes with each require). A require() of a computed path (the kind's shim
          // module, whose exports the closure serializer must see; a packed package; a user's
          // program) cannot be matched here and carries its own disable comment with its reason.
          allow: ["\\.json$", "^@pulumi/pulumi/", "^js-yaml$"],
        },
      ],
    },
  },
  {
    // Tests reach the engine's state (`exportStack().deployment` is `any` in the SDK) and the
    // emulator's JSON, and feed ill-typed inputs on purpose (`as any`) to reach the runtime
    // checks; scripts/ (bench, demo) read the same state. The product (client/, provider/, kinds/, sdk/,
    // emulator/) keeps the rule: an `any` there can reach users' types.
    files: ["test/**", "**/*.test.ts", "scripts/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // What a provider host loads: the kinds' handlers and declarations and the provider's own
    // modules import the client's modules one by one, never its index, which loads every
    // operation family and builds their schemas at each host start (kinds/common/context.ts).
    files: ["kinds/*/handler.ts", "kinds/*/declaration.ts", "kinds/common/**", "provider/*.ts", "provider/shims/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+client$",
              message:
                "Import the client's own module (client/core/client, client/core/errors, client/resources/zones, ...), not its index.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Plain CommonJS scripts run by Node as they are (jest's config, the demo launcher, jest's
    // test environment): require() is their only way to import.
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  prettier,
);
