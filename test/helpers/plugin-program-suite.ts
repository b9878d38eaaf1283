/**
 * The end-to-end cases every language's program goes through with the provider plugin, on one
 * stack per suite: up (the API's state changed, the outputs, the key not in the checkpoint file),
 * a preview with no changes that writes nothing, an out-of-band change found by refresh, an import
 * of an existing object (the `import` resource option), destroy. The program is a driver under
 * test/plugin-langs/ (see ./languages.ts), run against the real emulator over HTTP.
 */
import * as fs from "node:fs";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { createDriverStack, type DriverStack } from "./languages";

/** Writes are every operation but reads: the emulator logs them as "METHOD /v2/path". */
const writes = (counts: Record<string, number>) => Object.keys(counts).filter((op) => !op.startsWith("GET "));

export function describePluginProgram(language: string, project: string, command: () => string[]): void {
  describe(`the provider plugin from a ${language} program`, () => {
    let emulator: TestEmulator;
    let stack: DriverStack;

    beforeAll(async () => {
      // Fails, saying how to install the language's tools, when there are none: never skipped.
      const driver = command();
      emulator = await startTestEmulator();
      stack = createDriverStack(driver, {
        project,
        apiKey: emulator.apiKey,
        baseUrl: emulator.url,
        stream: { streamKind: "push", streamId: "3001", disabled: true },
      });
    }, 600_000);

    afterAll(async () => {
      try {
        await stack?.cleanup();
      } finally {
        await emulator?.close();
      }
    });

    it("up creates the declared state in the API, calls the data source, and keeps the key out of the checkpoint", async () => {
      expect((await emulator.object("pushStreams", 3001)).disabled).toBe("0");
      await emulator.clearRequests();
      const up = await stack.run("up");
      // The stack, the explicit provider and the stream status.
      expect(up.changes).toEqual({ create: 3 });
      expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
      expect(up.outputs).toMatchObject({ id: "push/3001", disabled: true });
      expect(up.outputs!.status).toEqual(expect.any(String));
      // getDnsZones reached the API (§4.14) through the program's provider.
      expect(up.outputs!.dnsZoneDomains).toContain("northwind.example");
      expect((await emulator.requestCounts())["GET /v2/dns"]).toBeGreaterThanOrEqual(1);

      const checkpoint = fs.readFileSync(stack.checkpointFile(), "utf8");
      expect(checkpoint).toContain("cdnstream:index:StreamStatus");
      expect(checkpoint).not.toContain(emulator.apiKey);
    });

    it("previews no changes without writing to the API", async () => {
      await emulator.clearRequests();
      const preview = await stack.run("preview");
      expect(preview.changes).toEqual({ same: 3 });
      expect(writes(await emulator.requestCounts())).toEqual([]);
    });

    it("finds an out-of-band change on refresh", async () => {
      await emulator.mutate("pushStreams", 3001, { disabled: "0" });
      const refresh = await stack.run("refresh");
      expect(refresh.changes).toMatchObject({ update: 1 });
      expect(refresh.resources!.live).toMatchObject({ disabled: false });
    });

    it("imports an existing stream's status, and converges the drifted one", async () => {
      const live = await emulator.object("pushStreams", 3002);
      stack.spec.import = { id: "push/3002", streamKind: "push", streamId: "3002", disabled: live.disabled === "1" };
      const imported = await stack.run("import");
      expect(imported.changes).toEqual({ import: 1, update: 1, same: 2 });
      expect(imported.outputs).toMatchObject({ adoptedId: "push/3002", adoptedDisabled: live.disabled === "1" });
      expect((await emulator.object("pushStreams", 3002)).disabled).toBe(live.disabled);
      expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
    });

    it("destroys everything it manages, the settings staying live", async () => {
      const destroy = await stack.run("destroy");
      expect(destroy.changes).toEqual({ delete: 4 });
      expect(destroy.resources).toEqual({});
      // StreamStatus manages a setting of a stream the stack did not create: destroy releases it.
      expect((await emulator.object("pushStreams", 3001)).disabled).toBe("1");
    });
  });
}
