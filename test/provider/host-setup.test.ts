/**
 * A provider host is set up once, before its first handler loads (provider/host-setup.ts): Node's
 * compile cache on, zod's locales deferred, zod parsing without generating
 * code, and WebAssembly kept at V8's baseline compiler where the running V8 honours that at run
 * time. What each saves is measured by `npm run bench` (a host's CPU and peak memory); this suite
 * checks when and where each is done.
 */
import * as v8 from "node:v8";

// Setting V8's flags is recorded, not done: the flag would stay set in this test process.
jest.mock("node:v8", () => ({ ...jest.requireActual("node:v8"), setFlagsFromString: jest.fn() }));
const setFlags = jest.mocked(v8.setFlagsFromString);
afterEach(() => setFlags.mockReset());

describe("keeping WebAssembly at the baseline compiler", () => {
  it("sets V8's --liftoff-only on the Node majors that honour it at run time", () => {
    const { keepWasmAtBaseline } = jest.requireActual("../../provider/host-setup");
    expect(keepWasmAtBaseline(20)).toBe(true);
    expect(keepWasmAtBaseline(22)).toBe(true);
    expect(setFlags.mock.calls).toEqual([["--liftoff-only"], ["--liftoff-only"]]);
  });

  it("leaves V8's flags alone where it would not take effect", () => {
    const { keepWasmAtBaseline } = jest.requireActual("../../provider/host-setup");
    for (const major of [18, 21, 23, 24, 26]) expect(keepWasmAtBaseline(major)).toBe(false);
    expect(setFlags).not.toHaveBeenCalled();
  });
});

describe("Node's compile cache", () => {
  it("is turned on by a host's setup, once per process", () => {
    const enableCompileCache = jest.fn();
    jest.isolateModules(() => {
      jest.doMock("node:module", () => ({ ...jest.requireActual("node:module"), enableCompileCache }));
      jest.doMock("../../client/core/zod-locales", () => ({ deferZodLocales: () => {} }));
      jest.doMock("zod", () => ({ z: { config: () => ({}) } }));
      const { setUpProviderHost } = jest.requireActual("../../provider/host-setup");
      setUpProviderHost();
      setUpProviderHost();
    });
    jest.dontMock("node:module");
    jest.dontMock("../../client/core/zod-locales");
    jest.dontMock("zod");
    expect(enableCompileCache).toHaveBeenCalledTimes(1);
  });
});

describe("zod in a provider host", () => {
  it("parses without generating code, with the same answers and messages", () => {
    jest.isolateModules(() => {
      const { parseWithoutCodegen } = jest.requireActual("../../provider/host-setup");
      const { z } = jest.requireActual("zod") as typeof import("zod");
      const schema = z.strictObject({ id: z.number().int("must be a whole number"), name: z.string().optional() });
      const before = [schema.safeParse({ id: 1, name: "a" }), schema.safeParse({ id: 1.5, extra: true })];
      expect(z.config().jitless).toBeFalsy();
      parseWithoutCodegen();
      expect(z.config().jitless).toBe(true);
      const fresh = z.strictObject({ id: z.number().int("must be a whole number"), name: z.string().optional() });
      expect([fresh.safeParse({ id: 1, name: "a" }), fresh.safeParse({ id: 1.5, extra: true })]).toEqual(before);
    });
  });
});

describe("a dynamic-provider host's shims", () => {
  it("set the host up once, before the first handler loads", async () => {
    const order: string[] = [];
    setFlags.mockImplementation((flags) => void order.push(`v8 ${flags}`));
    const handlerOf = (kind: string) => () => {
      order.push(`${kind} handler loaded`);
      return { handler: () => ({ check: async (_olds: unknown, news: unknown) => ({ inputs: news }) }) };
    };
    await jest.isolateModulesAsync(async () => {
      jest.doMock("../../client/core/zod-locales", () => ({
        deferZodLocales: () => void order.push("zod locales deferred"),
      }));
      jest.doMock("../../kinds/stream-status/handler", handlerOf("stream-status"));
      jest.doMock("../../kinds/campaign-archive/handler", handlerOf("campaign-archive"));
      const { shimFor } = await import("../../provider/shim");
      const streamStatus = shimFor("stream-status");
      const campaignArchive = shimFor("campaign-archive");
      expect(order).toEqual([]); // nothing before a first call
      await streamStatus.check!({}, { streamId: 1 });
      await campaignArchive.check!({}, { campaignId: "c" });
      await streamStatus.check!({}, { streamId: 2 });
    });
    const setUp = [20, 22].includes(Number(process.versions.node.split(".")[0])) ? ["v8 --liftoff-only"] : [];
    expect(order).toEqual([
      "zod locales deferred",
      ...setUp,
      "stream-status handler loaded",
      "campaign-archive handler loaded",
    ]);
  });
});
