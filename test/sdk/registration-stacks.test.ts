/**
 * A resource's registration captures no stack for the SDK's per-property promises (the largest
 * part of a program's CPU per resource), while the stack the SDK takes for the resource's source
 * position is captured whole, and the process's stack limit is left as it was, even when the
 * registration throws. Counted with a V8 `prepareStackTrace` hook: V8 calls it for every stack
 * that is read, with the frames it captured.
 */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "../../sdk";
import { withoutPromiseStacks } from "../../kinds/resource";

beforeAll(() =>
  pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) },
    "project",
    "stack",
  ),
);

const args = { streamKind: "push" as const, streamId: 1234, disabled: true };

/** The first frame's file of every stack read while `construct` runs (`""` for a stack of no frames). */
function stacksReadDuring(construct: () => void): string[] {
  const firstFiles: string[] = [];
  const original = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, frames) => {
    firstFiles.push(frames[0]?.getFileName() ?? "");
    return original ? original(error, frames) : `${error}\n${frames.map((f) => `    at ${f}`).join("\n")}`;
  };
  try {
    construct();
  } finally {
    Error.prepareStackTrace = original;
  }
  return firstFiles;
}

const fromPromiseDebugging = (files: string[]) => files.filter((file) => /[\\/]runtime[\\/]debuggable\.js$/.test(file));
const fromSourcePosition = (files: string[]) =>
  files.filter((file) => /@pulumi[\\/]pulumi[\\/]resource\.js$/.test(file));

describe("a resource's registration", () => {
  afterEach(() => delete process.env.PULUMI_DEBUG_PROMISE_LEAKS);

  it("captures the source position's stack, and none for its promises", () => {
    const read = stacksReadDuring(() => new cdn.StreamStatus("quiet", args));
    expect(fromSourcePosition(read)).toHaveLength(1);
    expect(fromPromiseDebugging(read)).toEqual([]);
    // Every other stack read meanwhile was captured without frames.
    expect(read.filter((file) => file !== "")).toHaveLength(1);
  });

  it("keeps every promise's stack for a user debugging leaked promises", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const read = stacksReadDuring(() => new cdn.StreamStatus("debugged", args));
    expect(fromSourcePosition(read)).toHaveLength(1);
    // Four per property at least: value, known, secret, dependencies.
    expect(fromPromiseDebugging(read).length).toBeGreaterThanOrEqual(4 * Object.keys(args).length);
  });

  it("leaves the stack limit as it was, after a registration and after one that throws", () => {
    const limit = Error.stackTraceLimit;
    new cdn.StreamStatus("restored", args);
    expect(Error.stackTraceLimit).toBe(limit);
    // The SDK refuses an empty name inside the registration.
    expect(() => new cdn.StreamStatus("", args)).toThrow(/name/);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("takes the stack limit away only until it is given back", () => {
    const limit = Error.stackTraceLimit;
    const restore = withoutPromiseStacks();
    expect(Error.stackTraceLimit).toBe(0);
    expect(new Error("inside").stack).toBe("Error: inside");
    restore();
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("after").stack).toMatch(/\n\s+at /);
  });
});
