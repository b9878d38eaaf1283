/**
 * PushZoneSettings lifecycle through the real CLI against the emulator: up, empty preview with
 * zero API calls, no false diff for domains the API holds in another order and case, update in
 * place, replace, drift found by refresh, reconverge, adoption, destroy.
 */
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import type { TestStack } from "../../test/helpers/engine";
import type { TestEmulator } from "../../test/helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../../test/helpers/emulated-stack";
import { changedProperties, expectCleanState, filesUnder } from "../../test/helpers/state";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();

const WRITE = "POST /v2/zones/http/push/{zoneid}";
const READ = "GET /v2/zones/http/push/{zoneid}";
const WEBHOOK = "https://hooks.northwind.example/transcoded";
/** Pulumi's marker of a secret value in an exported deployment. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

describe("PushZoneSettings", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let declared: { zoneId: number; profiles: number[]; adoptProfiles?: number[] };

  const program = async () => {
    const settings = new cdn.PushZoneSettings("settings", {
      zoneId: declared.zoneId,
      customDomains: ["assets.northwind.example", "media.northwind.example"],
      transcodingProfiles: declared.profiles,
      transcodeWebhook: WEBHOOK,
    });
    const outputs: Record<string, pulumi.Output<unknown>> = {
      id: settings.id,
      fqdn: settings.fqdn,
      warnings: settings.warnings,
    };
    if (declared.adoptProfiles) {
      // Zone 102 holds video.bluefin.example,video2.bluefin.example and profiles "12","14".
      const adopted = new cdn.PushZoneSettings("adopted", {
        zoneId: 102,
        customDomains: ["VIDEO2.bluefin.example", "video.bluefin.example"],
        transcodingProfiles: declared.adoptProfiles,
        adoptId: "102",
      });
      outputs.adoptedId = adopted.id;
    }
    return outputs;
  };

  beforeAll(async () => ({ emulator, test } = await startEmulatedStack(program)));
  afterAll(() => stopEmulatedStack(test, emulator));

  it("creates, then previews no changes with zero API calls", async () => {
    declared = { zoneId: 101, profiles: [12] };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.id.value).toBe("101");
    const zone = await emulator.object("httpPushZones", 101);
    expect(zone.cnames).toBe("assets.northwind.example,media.northwind.example");
    expect(zone.transcodefile).toMatchObject({ profiles: ["12"], webhooks: [WEBHOOK] });
    // §4.1 warns about the new domain until its CNAME resolves.
    expect(up.outputs.warnings.value).toEqual([expect.stringContaining("media.northwind.example")]);

    await emulator.clearRequests();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
    expect(await emulator.requestCounts()).toEqual({});
  });

  it("keeps the FTP password and the service's auth token secret in state, the key out of it, and the provider small", async () => {
    const state = await test.stack.exportStack();
    const resource = state.deployment.resources.find((r: any) => r.type.endsWith("cdnstream:PushZoneSettings"));
    expect(resource.outputs.ftpPassword[SECRET_SIG]).toBeDefined();
    // §2.3 cdnservice: the auth token is a credential (secret); the service addresses are not.
    const zone = await emulator.object("httpPushZones", 101);
    expect(resource.outputs.authToken[SECRET_SIG]).toBeDefined();
    expect(
      filesUnder(path.join(test.dir, "backend")).filter(([, text]) => text.includes(zone.cdnservice.authtoken)),
    ).toEqual([]);
    expect(resource.outputs.hashId).toBe(zone.hashid);
    expect(resource.outputs.serviceAddresses).toEqual({
      info: zone.cdnservice.infourl,
      list: zone.cdnservice.listurl,
      rawList: zone.cdnservice.rawlisturl,
      transcodeList: zone.cdnservice.transcodelisturl,
      add: zone.cdnservice.addurl,
      edit: zone.cdnservice.editurl,
      delete: zone.cdnservice.deleteurl,
      upload: zone.cdnservice.uploadurl,
      playlist: zone.cdnservice.playlisturl,
    });
    expectCleanState(state, emulator.apiKey);
  });

  it("shows no difference when the API holds the same domains in another order and case", async () => {
    const cnamesArr = ["MEDIA.northwind.example", "Assets.Northwind.example"];
    await emulator.mutate("httpPushZones", 101, { cnames: cnamesArr.join(","), cnamesArr });
    await test.stack.refresh();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("updates in place, and replaces on a new zone, releasing the old one", async () => {
    declared = { zoneId: 101, profiles: [12, 14] };
    const update = await test.stack.up();
    expect(update.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    expect((await emulator.object("httpPushZones", 101)).transcodefile.profiles).toEqual(["12", "14"]);

    declared = { zoneId: 103, profiles: [12, 14] };
    const replace = await test.stack.up();
    expect(replace.summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    expect(replace.outputs.id.value).toBe("103");
    expect((await emulator.object("httpPushZones", 103)).cnames).toBe(
      "assets.northwind.example,media.northwind.example",
    );
    expect(replace.stdout).toMatch(/PushZoneSettings 101: released from the stack; the zone keeps its custom domains/);
  });

  it("finds drift on refresh, shows exactly that property, and reconverges", async () => {
    await emulator.mutate("httpPushZones", 103, { transcodefile: { webhooks: ["https://elsewhere.example/hook"] } });
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ update: 1, same: 1 });

    const events: any[] = [];
    const preview = await test.stack.preview({ onEvent: (e) => events.push(e) });
    expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
    expect(changedProperties(events)).toEqual({ settings: ["transcodeWebhook"] });

    await test.stack.up();
    expect((await emulator.object("httpPushZones", 103)).transcodefile.webhooks).toEqual([WEBHOOK]);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("refuses to adopt a zone whose live profiles differ from the declared ones, writing nothing", async () => {
    declared = { zoneId: 103, profiles: [12, 14], adoptProfiles: [12] };
    await emulator.clearRequests();
    await expect(test.stack.up()).rejects.toThrow(/transcodingProfiles is \["12","14"\] live but declared \[12\]/);
    expect((await emulator.requestCounts())[WRITE]).toBeUndefined();
  });

  it("adopts an existing zone's settings by id, reading it and writing nothing", async () => {
    declared = { zoneId: 103, profiles: [12, 14], adoptProfiles: [14, 12] };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 2 });
    expect(up.outputs.adoptedId.value).toBe("102");
    const counts = await emulator.requestCounts();
    expect(counts[WRITE]).toBeUndefined();
    expect(counts[READ]).toBe(1);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 3 });
  });

  it("destroys by releasing the zones' settings as they are, and says so", async () => {
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(destroy.stdout).toMatch(/PushZoneSettings 103: released from the stack; the zone keeps its custom domains/);
    expect((await emulator.object("httpPushZones", 103)).transcodefile).toMatchObject({
      profiles: ["12", "14"],
      webhooks: [WEBHOOK],
    });
  });
});
