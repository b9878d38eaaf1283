/**
 * The end-to-end cases every language's program goes through with the provider plugin, on one
 * stack per suite, the key and the retries given only in the environment (CDNSTREAM_*), as the
 * README's configuration section says: up (the API's state changed, the outputs, the key not in
 * the checkpoint file), the exported stack holding neither the key nor a setting the program left
 * unset, CDNSTREAM_MAX_RETRIES=0 honoured,
 * a preview with no changes that writes nothing, an out-of-band change found by refresh, an import
 * of an existing object (the `import` resource option), destroy. The program is a driver under
 * test/plugin-langs/ (see ./languages.ts), run against the real emulator over HTTP.
 */
import * as fs from "node:fs";
import { CONFIG_NAMES } from "../../client/core/config";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { GO_BUILD_SCRIPT_DEADLINE_MS } from "./engine";
import { createDriverStack, type DriverResult, type DriverStack } from "./languages";

/** Writes are every operation but reads: the emulator logs them as "METHOD /v2/path". */
const writes = (counts: Record<string, number>) => Object.keys(counts).filter((op) => !op.startsWith("GET "));

/** A stack as exported (`pulumi stack export`, each language's Automation API `exportStack`). */
export type ExportedDeployment = NonNullable<DriverResult["deployment"]>;

/**
 * Asserts that an exported stack holds the key nowhere, no `apiKey` property at all, and of each
 * provider's settings only those the program gave it: `given` maps each provider of the stack,
 * as `<package>:<name>` (`cdnstream:account`; `cdnstream:default` for a default provider, whose
 * name is `default_<version>`), to the settings it was given. Pulumi-side defaults or the environment read
 * by an SDK would show up as more recorded settings.
 */
export function expectOnlySettingsGiven(
  deployment: ExportedDeployment | undefined,
  apiKey: string,
  given: Record<string, string[]>,
): void {
  const text = JSON.stringify(deployment);
  expect(text).not.toContain(apiKey);
  expect(text).not.toMatch(/"(cdnstream:)?apiKey"/);
  const recorded: Record<string, string[]> = {};
  for (const resource of deployment?.resources ?? []) {
    if (!resource.type.startsWith("pulumi:providers:")) continue;
    const name = resource.urn
      .split("::")
      .pop()!
      .replace(/^default(_.*)?$/, "default");
    const pkg = resource.type.slice("pulumi:providers:".length);
    recorded[`${pkg}:${name}`] = Object.keys(resource.inputs ?? {})
      .map((key) => key.replace(/^cdnstream:/, ""))
      .filter((key) => CONFIG_NAMES.includes(key))
      .sort();
  }
  expect(recorded).toEqual(given);
}

/**
 * Asserts that a refresh of a stack holding a push stream's status (stream 3001) through one
 * provider and a timeshift stream's status (5001) through the other fails on a 503 to each read,
 * each asked once: with the client's default of 4 retries, both would be retried and pass.
 */
export async function expectUnretried(emulator: TestEmulator, refresh: () => Promise<unknown>): Promise<void> {
  const reads = ["GET /v2/streams/push/{streamid}", "GET /v2/streams/timeshift/{streamid}"];
  await emulator.clearRequests();
  for (const operation of reads) await emulator.inject({ status: 503, count: 1, operation });
  await expect(refresh()).rejects.toThrow(/503/);
  expect(await emulator.pendingFaults()).toEqual([]);
  const counts = await emulator.requestCounts();
  expect(reads.map((operation) => counts[operation])).toEqual([1, 1]);
}

export function describePluginProgram(language: string, project: string, command: () => Promise<string[]>): void {
  describe(`the provider plugin from a ${language} program`, () => {
    let emulator: TestEmulator;
    let stack: DriverStack;

    beforeAll(async () => {
      // Fails, saying how to install the language's tools, when there are none: never skipped.
      const driver = await command();
      emulator = await startTestEmulator();
      // The explicit provider is given its address only; the default provider nothing. The key,
      // the default provider's address and no retries come from the environment, which the
      // program, the engine and the plugin share.
      stack = createDriverStack(
        driver,
        { project, baseUrl: emulator.url, stream: { streamKind: "push", streamId: "3001", disabled: true } },
        { CDNSTREAM_API_KEY: emulator.apiKey, CDNSTREAM_BASE_URL: emulator.url, CDNSTREAM_MAX_RETRIES: "0" },
      );
    }, GO_BUILD_SCRIPT_DEADLINE_MS + 60_000);

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

    it("exports a stack that holds neither the key from the environment nor a setting the program left unset", async () => {
      const { deployment } = await stack.run("export");
      expect(JSON.stringify(deployment)).toContain("cdnstream:index:StreamStatus");
      // The explicit provider was given its address, the default one nothing.
      expectOnlySettingsGiven(deployment, emulator.apiKey, {
        "cdnstream:account": ["baseUrl"],
        "cdnstream:default": [],
      });
    });

    it("honours CDNSTREAM_MAX_RETRIES=0: a 503 the client would retry fails the preview at once", async () => {
      await emulator.clearRequests();
      await emulator.inject({ status: 503, count: 1, operation: "GET /v2/dns" });
      // With the client's default of 4 retries the 503 would be retried and the preview pass.
      await expect(stack.run("preview")).rejects.toThrow(/503/);
      expect(await emulator.pendingFaults()).toEqual([]);
      // At most one call per provider (the program stops at the first failure), none asked again.
      expect((await emulator.requestCounts())["GET /v2/dns"]).toBeLessThanOrEqual(2);
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
