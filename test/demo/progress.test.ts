/** The demo's progress: a step's heading is printed when the step starts, not after it. */
import { Progress, StepFailed } from "../../scripts/demo/progress";

describe("demo progress", () => {
  it("prints each heading before the step runs, details as they come, the outcome with its time last", async () => {
    const lines: string[] = [];
    const progress = new Progress(
      2,
      () => ["s3cret-key"],
      Date.now(),
      (t) => lines.push(t.trimEnd()),
    );
    let seenAtStart: string[] = [];
    await progress.step("engine", async (s) => {
      seenAtStart = [...lines];
      s.detail("ensure-pulumi [3s]: building, key s3cret-key");
      s.summary = "pulumi v3";
    });
    expect(seenAtStart).toEqual(["[1/2] engine"]);
    expect(lines[1]).toBe("      ensure-pulumi [3s]: building, key [REDACTED]");
    expect(lines[2]).toMatch(/^ {6}-> pulumi v3 \(\d+\.\ds\)$/);

    lines.length = 0;
    await expect(
      progress.step("stack", async () => {
        expect(lines).toEqual(["[2/2] stack"]);
        throw new Error("no backend");
      }),
    ).rejects.toBeInstanceOf(StepFailed);
    expect(lines[1]).toMatch(/^ {6}FAILED after \d+\.\ds: no backend$/);
  });
});
