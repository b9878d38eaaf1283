/**
 * HttpDomainLockBulk lifecycle through the real CLI against the emulator: `append` up, empty
 * preview with zero API calls, `append` again in place without growing any zone's lists, no
 * false diff for an account default held in another order and case, drift of the account
 * default found and reconverged, drift of one HTTP pull zone's lock found through the §4.10
 * listing (named in `zonesOutOfStep`) and reconverged, `overwrite` replacing every HTTP zone's
 * lists, adoption, destroy.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TestStack } from "../../test/helpers/engine";
import type { TestEmulator } from "../../test/helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../../test/helpers/emulated-stack";
import { changedProperties, expectCleanState } from "../../test/helpers/state";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();

const WRITE = "POST /v2/zones/http/settings/security/domainlock";
const READ = "GET /v2/zones/http/settings/security/domainlock";

type Mode = "save" | "append" | "overwrite";
interface Declared {
  mode: Mode;
  domains: string[];
  ips: string[];
  noreferer: "Y" | "N";
  adopt?: { policy: "Y" | "N"; domains: string[] };
}

describe("HttpDomainLockBulk", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let declared: Declared;

  const program = async () => {
    const { mode, domains, ips, noreferer } = declared;
    const lock = new cdn.HttpDomainLockBulk("lock", { mode, enabled: true, policy: "N", domains, ips, noreferer });
    const outputs: Record<string, pulumi.Output<unknown>> = { id: lock.id, accountDefault: lock.accountDefault };
    if (declared.adopt) {
      const adopted = new cdn.HttpDomainLockBulk("adopted", { mode: "save", ...declared.adopt, adoptId: "account" });
      outputs.adoptedId = adopted.id;
    }
    return outputs;
  };

  /** Every HTTP push and pull zone's domain lock, by kind and id. */
  async function httpZoneLocks(): Promise<Record<string, any>> {
    const state = await emulator.state();
    const locks: Record<string, any> = {};
    for (const kind of ["httpPushZones", "httpPullZones"]) {
      for (const [id, zone] of Object.entries(state[kind])) locks[`${kind}/${id}`] = (zone as any).domainlock;
    }
    return locks;
  }
  const accountDefault = async () => (await emulator.state()).account.domainLockDefault;

  beforeAll(async () => ({ emulator, test } = await startEmulatedStack(program)));
  afterAll(() => stopEmulatedStack(test, emulator));

  let afterFirstAppend: Record<string, any>;

  it("appends to every HTTP zone, then previews no changes with zero API calls", async () => {
    declared = {
      mode: "append",
      domains: ["Partner.example", "cdn.partner.example"],
      ips: ["203.0.113.50"],
      noreferer: "N",
    };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.id.value).toBe("account");
    // What was sent is recorded: no read follows the write (the default's read is not in the spec).
    expect(await emulator.requestCounts()).toEqual({ [WRITE]: 1 });
    expect(await accountDefault()).toEqual({
      enabled: "Y",
      policy: "N",
      list: "Partner.example,cdn.partner.example",
      ips: "203.0.113.50",
      noreferer: "N",
    });
    expect(up.outputs.accountDefault.value).toMatchObject({ list: "Partner.example,cdn.partner.example" });

    afterFirstAppend = await httpZoneLocks();
    expect(Object.keys(afterFirstAppend)).toHaveLength(50);
    // Zone 101 already listed two domains and an IP: the union keeps them first.
    expect(afterFirstAppend["httpPushZones/101"]).toMatchObject({
      list: "northwind.example,www.northwind.example,Partner.example,cdn.partner.example",
      ips: "203.0.113.10,203.0.113.50",
    });
    expect(afterFirstAppend["httpPullZones/247"]).toMatchObject({
      enabled: "Y",
      list: "Partner.example,cdn.partner.example",
      ips: "203.0.113.50",
    });
    // VoD zones are not HTTP zones (§4.11 path).
    expect((await emulator.object("vodPullZones", 401)).domainlock.list).toBe("");

    await emulator.clearRequests();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
    expect(await emulator.requestCounts()).toEqual({});

    const state = await test.stack.exportStack();
    expectCleanState(state, emulator.apiKey);
  });

  it("appends again in place without growing any zone's lists", async () => {
    // Same set in another order and case: only noreferer differs, so this is one in-place write.
    declared = { ...declared, domains: ["CDN.partner.example", "partner.example"], noreferer: "Y" };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    expect((await emulator.requestCounts())[WRITE]).toBe(1);

    const locks = await httpZoneLocks();
    for (const [zone, lock] of Object.entries(locks)) {
      expect({ zone, list: lock.list, ips: lock.ips }).toEqual({
        zone,
        list: afterFirstAppend[zone].list,
        ips: afterFirstAppend[zone].ips,
      });
      expect(lock.noreferer).toBe("Y");
    }
  });

  it("shows no difference when the account default holds the same set in another order and case", async () => {
    await emulator.mutate("account", "account", { domainLockDefault: { list: "partner.example,Cdn.Partner.Example" } });
    await test.stack.refresh();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("finds drift of the account default, shows exactly that property, and reconverges", async () => {
    await emulator.mutate("account", "account", { domainLockDefault: { policy: "Y" } });
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ update: 1, same: 1 });

    const events: any[] = [];
    const preview = await test.stack.preview({ onEvent: (e) => events.push(e) });
    expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
    expect(changedProperties(events)).toEqual({ lock: ["policy"] });

    await test.stack.up();
    expect((await accountDefault()).policy).toBe("N");
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("finds an HTTP pull zone's lock changed out of band through the §4.10 listing, names it, and reconverges", async () => {
    await emulator.mutate("httpPullZones", 201, { domainlock: { list: "" } });
    await emulator.clearRequests();
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    expect(refresh.stdout).toMatch(
      /HttpDomainLockBulk account: 1 HTTP pull zone\(s\) no longer hold the domain lock the last `append` wrote: 201 \(output zonesOutOfStep\)/,
    );
    // One read of the account default and one listing of every pull zone (47 zones, 20 a page).
    const counts = await emulator.requestCounts();
    expect(counts[READ]).toBe(1);
    expect(counts["GET /v2/zones/http/pull"]).toBeGreaterThanOrEqual(3);
    const recorded = (await test.stack.exportStack()).deployment.resources?.find((r: any) =>
      String(r.urn).endsWith("::lock"),
    );
    expect(recorded.outputs.zonesOutOfStep).toEqual([201]);

    const events: any[] = [];
    expect((await test.stack.preview({ onEvent: (e) => events.push(e) })).changeSummary).toEqual({
      update: 1,
      same: 1,
    });
    expect(changedProperties(events)).toEqual({ lock: ["domains"] });
    await test.stack.up();
    expect((await emulator.object("httpPullZones", 201)).domainlock.list).toBe("CDN.partner.example,partner.example");
    expect((await test.stack.refresh()).summary.resourceChanges).toEqual({ same: 2 });
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("overwrites every HTTP zone's lists when the mode changes, in place", async () => {
    declared = { ...declared, mode: "overwrite", domains: ["only.partner.example"], ips: ["198.51.100.0/24"] };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    const locks = await httpZoneLocks();
    for (const [zone, lock] of Object.entries(locks)) {
      expect({ zone, list: lock.list, ips: lock.ips }).toEqual({
        zone,
        list: "only.partner.example",
        ips: "198.51.100.0/24",
      });
    }
    expect((await emulator.object("vodPullZones", 401)).domainlock.list).toBe("");
  });

  it("refuses to adopt an account default that differs from the declared one, writing nothing", async () => {
    declared = { ...declared, adopt: { policy: "Y", domains: ["ONLY.partner.example"] } };
    await emulator.clearRequests();
    // Only the difference is named: `mode` is not kept by the API, so it is never one.
    await expect(test.stack.up()).rejects.toThrow(
      /match the live object: policy is "N" live but declared "Y"\. Declare/,
    );
    expect((await emulator.requestCounts())[WRITE]).toBeUndefined();
  });

  it("adopts the account default by `account`, reading it and writing nothing", async () => {
    declared = { ...declared, adopt: { policy: "N", domains: ["ONLY.partner.example"] } };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 2 });
    expect(up.outputs.adoptedId.value).toBe("account");
    expect(await emulator.requestCounts()).toEqual({ [READ]: 1 });
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 3 });
  });

  it("destroys by releasing management; zones keep their locks, and it says so", async () => {
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(destroy.stdout).toMatch(
      /HttpDomainLockBulk account: released from the stack; .*zones keep their domain locks/,
    );
    expect((await emulator.object("httpPushZones", 101)).domainlock.list).toBe("only.partner.example");
  });
});
