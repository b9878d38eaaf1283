/**
 * StreamStatus lifecycle through the real CLI against the emulator: up, empty preview, update in
 * place, replace, drift found by refresh, reconverge, adoption (import), destroy. The key reaches
 * the provider through CDNSTREAM_API_KEY, the way CI pipelines pass it.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TestStack } from "../../test/helpers/engine";
import type { TestEmulator } from "../../test/helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../../test/helpers/emulated-stack";
import { changedProperties, expectCleanState } from "../../test/helpers/state";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();

describe("StreamStatus", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let declared: { streamId: number; disabled: boolean; adoptId?: string; adoptDisabled?: boolean };

  const program = async () => {
    const status = new cdn.StreamStatus("live", {
      streamKind: "push",
      streamId: declared.streamId,
      disabled: declared.disabled,
    });
    const outputs: Record<string, pulumi.Output<unknown>> = {
      id: status.id,
      status: status.status,
      hls: status.playbackUrls,
    };
    if (declared.adoptId) {
      const adopted = new cdn.StreamStatus("adopted", {
        streamKind: "push",
        streamId: 3001,
        disabled: declared.adoptDisabled ?? false,
        adoptId: declared.adoptId,
      });
      outputs.adoptedId = adopted.id;
    }
    return outputs;
  };

  beforeAll(async () => ({ emulator, test } = await startEmulatedStack(program)));
  afterAll(() => stopEmulatedStack(test, emulator));

  it("creates, then previews no changes with zero API calls", async () => {
    declared = { streamId: 3001, disabled: true };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.id.value).toBe("push/3001");
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");

    await emulator.clearRequests();
    const preview = await test.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await emulator.requestCounts()).toEqual({});
  });

  it("keeps a small serialized provider, and the key out of state even with secrets shown", async () => {
    const state = await test.stack.exportStack(); // `pulumi stack export --show-secrets`
    expectCleanState(state, emulator.apiKey);
  });

  it("updates in place and replaces on a new stream id", async () => {
    declared = { streamId: 3001, disabled: false };
    const update = await test.stack.up();
    expect(update.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    expect((await emulator.object("pushStreams", 3001)).disabled).toBe("0");

    declared = { streamId: 3002, disabled: false };
    const replace = await test.stack.up();
    expect(replace.summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    expect(replace.outputs.id.value).toBe("push/3002");
  });

  it("finds drift on refresh, shows exactly that property, and reconverges", async () => {
    await emulator.mutate("pushStreams", 3002, { disabled: "1" });
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ update: 1, same: 1 });

    const events: any[] = [];
    const preview = await test.stack.preview({ onEvent: (e) => events.push(e) });
    expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
    expect(changedProperties(events)).toEqual({ live: ["disabled"] });

    await test.stack.up();
    expect((await emulator.object("pushStreams", 3002)).disabled).toBe("0");
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("refuses to adopt a stream whose live status differs from the declared one, changing nothing", async () => {
    // push/3001 was left enabled when the resource moved to 3002.
    declared = { streamId: 3002, disabled: false, adoptId: "push/3001", adoptDisabled: true };
    await emulator.clearRequests();
    await expect(test.stack.up()).rejects.toThrow(/disabled is false live but declared true/);
    expect((await emulator.requestCounts())["POST /v2/streams/push/{streamid}/status"]).toBeUndefined();
  });

  it("adopts an existing stream by id, reading it and writing nothing", async () => {
    declared = { streamId: 3002, disabled: false, adoptId: "push/3001", adoptDisabled: false };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 2 });
    expect(up.outputs.adoptedId.value).toBe("push/3001");
    const counts = await emulator.requestCounts();
    expect(counts["POST /v2/streams/push/{streamid}/status"]).toBeUndefined();
    expect(counts["GET /v2/streams/push/{streamid}"]).toBe(1);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 3 });
  });

  it("destroys by releasing the streams as they are, and says so", async () => {
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(destroy.stdout).toMatch(/released from the stack; the stream stays enabled/);
    expect((await emulator.object("pushStreams", 3002)).disabled).toBe("0");
  });
});
