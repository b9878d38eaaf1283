/**
 * The checks compiled ahead of time (provider/client/check-plans.ts), with which a provider host
 * checks requests and answers with no zod loaded, are what scripts/gen-checks.ts derives from the
 * operations' schemas and the kinds' declarations today. (That each plan answers as zod does:
 * test/client/check-plan.test.ts and response-parser.test.ts.)
 */
import * as fs from "node:fs";
import { operations } from "../../provider/client";
import { operationKey } from "../../provider/client/operation";
import { operationPlans as written } from "../../provider/client/check-plans";
import { operationPlans, outOfDate, PLANS_FILE, plansText } from "../../scripts/gen-checks";

describe("the checks written ahead of time", () => {
  it("are what the generator writes from the schemas today (else: run `npm run gen-checks`)", () => {
    expect(outOfDate()).toBe(false);
  });

  it("hold every operation's answer, and each operation finds its own", () => {
    const plans = operationPlans();
    for (const op of operations) {
      expect(plans[operationKey(op)]?.response).toBeDefined();
      expect(op.plans).toEqual(JSON.parse(written[operationKey(op)]!));
    }
  });

  it("reports a file that no longer says the schemas", () => {
    const text = plansText();
    expect(outOfDate(text.replace('"type":"number"', '"type":"string"'))).toBe(true);
    expect(fs.readFileSync(PLANS_FILE, "utf8")).toBe(text);
  });
});
