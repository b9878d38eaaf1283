/**
 * Resource options and credentials, end to end: what users expect of `protect`,
 * `retainOnDelete`, `ignoreChanges` and `dependsOn` holds for our dynamic resources, and a key
 * given as secret stack config stays encrypted at rest.
 */
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { createTestStack, TestStack } from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";
import { filesUnder } from "../helpers/state";

const cdn = loadSdk();

describe("resource options and credentials", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let options: { protect?: boolean; retainOnDelete?: boolean; ignoreChanges?: string[] } = {};
  let declareZone = true;

  const program = async () => {
    const outputs: Record<string, pulumi.Output<unknown>> = {};
    if (declareZone) {
      const zone = new cdn.PushZoneSettings("zone", { zoneId: 101, customDomains: ["media.example.com"] }, options);
      // dependsOn: the status is applied after the zone settings.
      const status = new cdn.StreamStatus(
        "status",
        { streamKind: "push", streamId: 3001, disabled: false },
        { dependsOn: [zone] },
      );
      outputs.fqdn = zone.fqdn;
      outputs.status = status.status;
    }
    return outputs;
  };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // The key as users set it with `pulumi config set --secret cdnstream:apiKey`.
    test = await createTestStack({ program, config: emulator.stackConfig() });
  });
  afterAll(async () => {
    options = {};
    declareZone = true;
    await test?.cleanup();
    await emulator?.close();
  });

  it("keeps a secret-config key encrypted at rest and out of every resource", async () => {
    const up = await test.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.stdout).not.toContain(emulator.apiKey);
    expect(
      filesUnder(path.join(test.dir, "backend"))
        .map(([, text]) => text)
        .join("\n"),
    ).not.toContain(emulator.apiKey);
    // Decrypted, the engine's record of the stack config for the default dynamic provider holds
    // it (docs/configuration.md, "Where the key lives"); no resource of ours does.
    const state = await test.stack.exportStack();
    for (const resource of state.deployment.resources ?? []) {
      if (String(resource.type).startsWith("pulumi:providers:")) continue;
      expect(JSON.stringify(resource)).not.toContain(emulator.apiKey);
    }
    // Where each resource was declared is recorded whole, though its registration captures no
    // stack for the SDK's promises (kinds/resource.ts, withoutPromiseStacks), and it is the
    // program's line (this file's), not the resource class's (kinds/resource.ts, registration).
    const zone = state.deployment.resources.find((resource: { urn: string }) => resource.urn.endsWith("::zone"));
    expect(zone.sourcePosition).toMatch(/options\.test\.ts#\d+,\d+$/);
    expect(zone.stackTrace[0].sourcePosition).toBe(zone.sourcePosition);
  });

  it("ignoreChanges hides a drifted property from the next update", async () => {
    await emulator.mutate("httpPushZones", 101, { cnames: "other.example.com", cnamesArr: ["other.example.com"] });
    await test.stack.refresh();
    options = { ignoreChanges: ["customDomains"] };
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 3 });
    options = {};
    expect((await test.stack.preview()).changeSummary).toEqual({ update: 1, same: 2 });
    await test.stack.up();
    expect((await emulator.object("httpPushZones", 101)).cnames).toBe("media.example.com");
  });

  it("protect refuses to delete, and retainOnDelete releases without calling delete", async () => {
    options = { protect: true };
    await test.stack.up();
    declareZone = false;
    await expect(test.stack.up()).rejects.toThrow(/protected/);

    declareZone = true;
    options = { retainOnDelete: true };
    await test.stack.up();
    declareZone = false;
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ delete: 2 });
    // The retained zone's delete never ran: no release warning for it; the status's did.
    expect(up.stdout).not.toMatch(/PushZoneSettings 101: released/);
    expect(up.stdout).toMatch(/StreamStatus push\/3001: released/);
  });
});
