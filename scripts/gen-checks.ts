/**
 * Writes the checks compiled ahead of time (`provider/client/check-plans.ts`): the plan
 * (provider/client/check-plan.ts) of every operation's path parameters, query, body and response,
 * and of the identity inputs' rules of every kind, taken from their schemas and written as plain
 * data, wherever the schema's plan holds no part only zod checks.
 *
 * Why: a provider host starts at every operation, and one that only reads (a refresh) or only
 * releases (most of a destroy) checks a few requests and answers; with their plans it does so
 * without loading zod (docs/benchmarks.md).
 *
 * Run: `npm run gen-checks` (builds, then `node dist/scripts/gen-checks.js`); `--check` writes
 * nothing and exits 1 when the file is out of date (test/scripts/check-plans.test.ts runs the
 * same comparison under `npm test`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { z } from "zod";
import { isStandalone, planOf, ruleKey, somePart, type Plan } from "../provider/client/check-plan";
import { operationKey } from "../provider/client/operation";
import { operations } from "../provider/client/registry";
import { repoRoot } from "./demo/project-build";
import { kindFolders } from "./gen-identities";

export const PLANS_FILE = path.join(repoRoot, "provider", "client", "check-plans.ts");

/**
 * A request's plan is used on a shallow copy of the caller's value (a check converts in place):
 * only an object whose fields hold no object or array qualifies.
 */
const isFlat = (plan: Plan): boolean =>
  plan.type === "object" &&
  plan.fields.every(([, field]) => !somePart(field, (part) => part.type === "object" || part.type === "array"));

/** The plan to write for a schema, or undefined (none, or one only zod can check). */
function written(schema: z.ZodType | undefined, request: boolean): Plan | undefined {
  if (!schema) return undefined;
  const plan = planOf(schema);
  if (!isStandalone(plan) || (request && !isFlat(plan))) return undefined;
  return plan;
}

/** Every operation's plans, by {@link operationKey}. */
export function operationPlans(): Record<string, Record<string, Plan>> {
  const plans: Record<string, Record<string, Plan>> = {};
  for (const op of operations) {
    const slots = {
      params: written(op.params, true),
      query: written(op.query, true),
      body: written(op.body, true),
      response: written(op.response, false),
    };
    const kept = Object.fromEntries(Object.entries(slots).filter(([, plan]) => plan !== undefined)) as Record<
      string,
      Plan
    >;
    if (Object.keys(kept).length > 0) plans[operationKey(op)] = kept;
  }
  return plans;
}

interface Declared {
  name: string;
  idFormat: string;
  inputs: Record<string, { rule: z.ZodType }>;
}

/** The identity inputs' rules (the parts of `idFormat`) of every kind, by `<Kind>.<input>`. */
export function rulePlans(): Record<string, Plan> {
  const plans: Record<string, Plan> = {};
  for (const folder of kindFolders()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- one declaration per kind folder
    const { declaration } = require(path.join(__dirname, "..", "kinds", folder, "declaration")) as {
      declaration: Declared;
    };
    for (const [, name] of declaration.idFormat.matchAll(/<(\w+)>/g)) {
      const rule = declaration.inputs[name!]?.rule;
      const plan = rule && written(rule, false);
      if (plan) plans[ruleKey(declaration.name, name!)] = plan;
    }
  }
  return plans;
}

/** One line per entry; `asText` writes each value as JSON text (a string), to be parsed at its first use. */
const entries = (record: Record<string, unknown>, asText = false) =>
  Object.entries(record)
    .map(([key, value]) => {
      const json = JSON.stringify(value);
      return `  ${JSON.stringify(key)}: ${asText ? JSON.stringify(json) : json},`;
    })
    .join("\n");

/** The text of provider/client/check-plans.ts. */
export function plansText(): string {
  return [
    "// Written by scripts/gen-checks.ts from the operations' schemas and the kinds' declarations: run",
    "// `npm run gen-checks` after changing one (test/scripts/check-plans.test.ts fails while this file is stale).",
    'import type { Plan } from "./check-plan";',
    "",
    "/**",
    " * Each operation's plans (./check-plan.ts) as JSON text, by `operationKey`: its params, query, body and",
    " * response, where the schema has a plan zod need not check. Text, parsed at the operation's first call:",
    " * a host loads every operation of a family and calls a few.",
    " */",
    "export const operationPlans: Record<string, string> = {",
    entries(operationPlans(), true),
    "};",
    "",
    "/** The plans of the kinds' identity rules (the parts of their ids), by `<Kind>.<input>`. */",
    "export const rulePlans: Record<string, Plan> = {",
    entries(rulePlans()),
    "};",
    "",
  ].join("\n");
}

/** Whether the file differs from what {@link plansText} writes (or is missing). */
export function outOfDate(text = plansText()): boolean {
  return !fs.existsSync(PLANS_FILE) || fs.readFileSync(PLANS_FILE, "utf8") !== text;
}

function main(argv: string[]): number {
  const text = plansText();
  if (argv.includes("--check")) {
    if (!outOfDate(text)) return 0;
    process.stderr.write(`${path.relative(repoRoot, PLANS_FILE)} is out of date: run \`npm run gen-checks\`\n`);
    return 1;
  }
  fs.writeFileSync(PLANS_FILE, text);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
