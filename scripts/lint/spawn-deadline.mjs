// @ts-check
/**
 * The ESLint rule `cdnstream/spawn-deadline`: no synchronous spawn (`spawnSync`, `execFileSync`,
 * `execSync`) without a deadline. A child that never exits would otherwise block its caller for
 * ever, and in a test it blocks jest's worker too, so jest's own timeout cannot fire. The call
 * must pass an options object literal with a `timeout`; better, in a test, the asynchronous
 * `run` of scripts/child.ts, which stops the whole process tree at its deadline.
 */

const SYNC_SPAWNS = new Set(["spawnSync", "execFileSync", "execSync"]);

/** @param {import("estree").Node} node */
const hasTimeout = (node) =>
  node.type === "ObjectExpression" &&
  node.properties.some(
    (p) =>
      p.type === "Property" &&
      !p.computed &&
      ((p.key.type === "Identifier" && p.key.name === "timeout") ||
        (p.key.type === "Literal" && p.key.value === "timeout")),
  );

/** @type {import("eslint").Rule.RuleModule} */
export const spawnDeadlineRule = {
  meta: {
    type: "problem",
    docs: { description: "every synchronous spawn has a deadline (a `timeout` in its options)" },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(call) {
        const callee = call.callee;
        const name =
          callee.type === "Identifier"
            ? callee.name
            : callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier"
              ? callee.property.name
              : undefined;
        if (!name || !SYNC_SPAWNS.has(name)) return;
        if (call.arguments.some((arg) => hasTimeout(/** @type {import("estree").Node} */ (arg)))) return;
        context.report({
          node: call,
          message:
            `${name}() without a deadline: a child that never exits blocks this process for ever (in a test, jest's ` +
            "timeout too). Use run() of scripts/child.ts (asynchronous; it stops the whole process tree at its " +
            "deadline), or runSync() in a synchronous script, or pass an options object literal with a `timeout` " +
            "sized to the command's job.",
        });
      },
    };
  },
};
