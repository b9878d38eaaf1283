/**
 * A create that made its stream but could not finish it (the disable after it failed) is a
 * ResourceInitError: on both paths, the dynamic provider and the provider plugin, the engine
 * records the stream with its id, and the next `up` disables it in place, creating nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import { createTestStack, type TestStack } from "../../test/helpers/engine";
import { startTestEmulator, type TestEmulator } from "../../test/helpers/emulator";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();
const STATUS = "POST /v2/streams/timeshift/{streamid}/status";

describe.each(["dynamic", "plugin"] as const)(
  "a TimeshiftStream whose disable failed after its create (%s path)",
  (path) => {
    let emulator: TestEmulator;
    let test: TestStack;
    const streams = async () => (await emulator.state()).timeshiftStreams ?? {};

    beforeAll(async () => {
      emulator = await startTestEmulator();
      test = await createTestStack({
        stackName: path,
        program: async () => {
          const provider =
            path === "plugin"
              ? new cdn.Provider("account", { apiKey: pulumi.secret(emulator.apiKey), baseUrl: emulator.url })
              : undefined;
          const stream = new cdn.TimeshiftStream(
            "late",
            { name: "e2e-late", parent: 3001, timeshift: 60, disabled: true },
            { provider },
          );
          return { id: stream.id };
        },
        config: { "cdnstream:baseUrl": { value: emulator.url } },
        env: { CDNSTREAM_API_KEY: emulator.apiKey },
      });
    });
    afterAll(async () => {
      await test?.cleanup();
      await emulator?.close();
    });

    it("is recorded with its id, and the next up disables it in place", async () => {
      const before = Object.keys(await streams()).length;
      await emulator.inject({ status: 500, operation: STATUS, count: 1 });
      await expect(test.stack.up()).rejects.toThrow(
        /created, but disabling it failed.*run `pulumi up` again to disable it/s,
      );
      expect(Object.keys(await streams())).toHaveLength(before + 1);

      const up = await test.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      const id = up.outputs.id.value as string;
      const after = await streams();
      expect(Object.keys(after)).toHaveLength(before + 1);
      expect(after[id]).toMatchObject({ disabled: "1" });
    });
  },
);
