/**
 * The Node.js floor the entries check (sdk/supported-node.ts) is the one CI's floor leg
 * runs, and a supported Node passes it silently. What an older Node gets is shown end to end on
 * Node.js 20 (test/e2e/readme-old-node.test.ts).
 */
import { exitOnUnsupportedNode, throwOnUnsupportedNode, unsupportedNode } from "../../sdk/supported-node";

it("the floor is the Node.js CI's floor leg runs, and this Node passes it", () => {
  const engines = (require("../../package.json") as { engines: { node: string } }).engines.node;
  expect(engines).toBe(`>=${(require("../../.ci/floor.json") as { node: string }).node}`);
  expect(unsupportedNode).toBeUndefined();
  expect(() => throwOnUnsupportedNode()).not.toThrow();
  expect(exitOnUnsupportedNode()).toBeUndefined();
});
