/** check and diff of StreamStatus: no API call involved. */
import { handler as handlerFor } from "./handler";
import { HandlerContext } from "../common/context";
import { UNKNOWN } from "../common/inputs";

/** The handler as a provider host makes it: one context for the file, as for one run. */
const streamStatus = handlerFor(new HandlerContext());

describe("StreamStatus", () => {
  it("names the property and the rule of each bad input", async () => {
    const result = await streamStatus.check({}, { streamKind: "pull", streamId: "a/b", disabled: "yes" });
    expect(result.failures).toEqual([
      { property: "streamKind", reason: 'must be "push" or "timeshift"' },
      { property: "streamId", reason: expect.stringContaining("without slashes") },
      { property: "disabled", reason: expect.stringContaining("must be true (disable") },
    ]);
  });

  it("says an empty stream id is empty, and what a stream id looks like for another type", async () => {
    const check = async (streamId: unknown) =>
      (await streamStatus.check({}, { streamKind: "push", streamId, disabled: true })).failures;
    expect(await check("")).toEqual([{ property: "streamId", reason: expect.stringMatching(/^must not be empty/) }]);
    expect(await check(true)).toEqual([
      { property: "streamId", reason: 'must be the stream\'s id, e.g. 1234 or "1234"' },
    ]);
  });

  it("requires adoptId to be the id its inputs name", async () => {
    const inputs = { streamKind: "push", streamId: 3001, disabled: false };
    expect((await streamStatus.check({}, { ...inputs, adoptId: "push/3001" })).failures).toBeUndefined();
    expect((await streamStatus.check({}, { ...inputs, adoptId: "push/9" })).failures).toEqual([
      { property: "adoptId", reason: 'must be the id of the object these inputs name ("push/3001"), not "push/9"' },
    ]);
    expect(
      (await streamStatus.check({}, { ...inputs, streamId: UNKNOWN, adoptId: "push/9" })).failures,
    ).toBeUndefined();
  });

  it("compares stream ids as text, replaces on identity, and ignores adoptId", async () => {
    const olds = { streamKind: "push", streamId: "3001", disabled: false };
    expect(await streamStatus.diff("push/3001", olds, { ...olds, streamId: 3001, adoptId: "push/3001" })).toMatchObject(
      { changes: false },
    );
    expect(await streamStatus.diff("push/3001", olds, { ...olds, streamKind: "timeshift" })).toMatchObject({
      replaces: ["streamKind"],
    });
    expect(await streamStatus.diff("push/3001", olds, { ...olds, disabled: true })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});
