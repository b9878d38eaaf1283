/**
 * VodPullDomainLock lifecycle through the real CLI against the emulator: up, empty preview with
 * zero API calls, no false diff for a list the API holds in another order and case, update in
 * place, replace, drift found by refresh, reconverge, adoption, destroy.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TestStack } from "../../test/helpers/engine";
import type { TestEmulator } from "../../test/helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../../test/helpers/emulated-stack";
import { changedProperties, expectCleanState } from "../../test/helpers/state";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();

const WRITE = "POST /v2/zones/vod/pull/{zoneid}/domainlock";
const READ = "GET /v2/zones/vod/pull/{zoneid}";

describe("VodPullDomainLock", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let declared: { zoneId: number; policy: "Y" | "N"; adopt?: { policy: "Y" | "N" } };

  const program = async () => {
    const lock = new cdn.VodPullDomainLock("lock", {
      zoneId: declared.zoneId,
      enabled: true,
      policy: declared.policy,
      domains: ["www.Northwind.example", "northwind.example"],
      ips: ["203.0.113.7", "198.51.100.0/24"],
      noreferer: "N",
      active: true,
    });
    const outputs: Record<string, pulumi.Output<unknown>> = {
      id: lock.id,
      liveLock: lock.liveLock,
      fqdnVoD: lock.fqdnVoD,
    };
    if (declared.adopt) {
      // Zone 401 as the lock left it, declared in another order and case than the API holds.
      const adopted = new cdn.VodPullDomainLock("adopted", {
        zoneId: 401,
        policy: declared.adopt.policy,
        domains: ["WWW.northwind.example", "Northwind.Example"],
        ips: ["203.0.113.7", "198.51.100.0/24"],
        adoptId: "401",
      });
      outputs.adoptedId = adopted.id;
    }
    return outputs;
  };

  beforeAll(async () => ({ emulator, test } = await startEmulatedStack(program)));
  afterAll(() => stopEmulatedStack(test, emulator));

  it("creates, then previews no changes with zero API calls", async () => {
    declared = { zoneId: 401, policy: "Y" };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.id.value).toBe("401");
    expect(up.outputs.fqdnVoD.value).toBe("vod-catalog-5c7e1a.vod.cdnstream.example");
    expect((await emulator.object("vodPullZones", 401)).domainlock).toEqual({
      enabled: "Y",
      policy: "Y",
      noreferer: "N",
      active: "Y",
      list: "www.Northwind.example,northwind.example",
      ips: "203.0.113.7,198.51.100.0/24",
    });
    expect(up.outputs.liveLock.value).toMatchObject({ list: "www.Northwind.example,northwind.example", policy: "Y" });

    await emulator.clearRequests();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
    expect(await emulator.requestCounts()).toEqual({});

    const state = await test.stack.exportStack();
    expectCleanState(state, emulator.apiKey);
  });

  it("shows no difference when the API holds the same domains and IPs in another order and case", async () => {
    await emulator.mutate("vodPullZones", 401, {
      domainlock: { list: "NORTHWIND.EXAMPLE,www.northwind.example", ips: "198.51.100.0/24,203.0.113.7" },
    });
    await test.stack.refresh();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("updates in place, and replaces on a new zone, releasing the old one", async () => {
    declared = { zoneId: 401, policy: "N" };
    const update = await test.stack.up();
    expect(update.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    expect((await emulator.object("vodPullZones", 401)).domainlock.policy).toBe("N");

    declared = { zoneId: 402, policy: "N" };
    const replace = await test.stack.up();
    expect(replace.summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    expect(replace.outputs.id.value).toBe("402");
    expect((await emulator.object("vodPullZones", 402)).domainlock).toMatchObject({
      enabled: "Y",
      policy: "N",
      list: "www.Northwind.example,northwind.example",
    });
    expect(replace.stdout).toMatch(
      /VodPullDomainLock 401: released from the stack; the zone's domain lock stays as it is/,
    );
    expect((await emulator.object("vodPullZones", 401)).domainlock.enabled).toBe("Y");
  });

  it("finds drift on refresh, shows exactly that property, and reconverges", async () => {
    await emulator.mutate("vodPullZones", 402, { domainlock: { enabled: "N" } });
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ update: 1, same: 1 });

    const events: any[] = [];
    const preview = await test.stack.preview({ onEvent: (e) => events.push(e) });
    expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
    expect(changedProperties(events)).toEqual({ lock: ["enabled"] });

    await test.stack.up();
    expect((await emulator.object("vodPullZones", 402)).domainlock.enabled).toBe("Y");
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("refuses to adopt a lock whose live policy differs from the declared one, writing nothing", async () => {
    declared = { zoneId: 402, policy: "N", adopt: { policy: "Y" } };
    await emulator.clearRequests();
    await expect(test.stack.up()).rejects.toThrow(/policy is "N" live but declared "Y"/);
    expect((await emulator.requestCounts())[WRITE]).toBeUndefined();
  });

  it("adopts an existing lock by zone id, reading it and writing nothing", async () => {
    declared = { zoneId: 402, policy: "N", adopt: { policy: "N" } };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 2 });
    expect(up.outputs.adoptedId.value).toBe("401");
    const counts = await emulator.requestCounts();
    expect(counts[WRITE]).toBeUndefined();
    expect(counts[READ]).toBe(1);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 3 });
  });

  it("destroys by releasing the locks as they are, and says so", async () => {
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(destroy.stdout).toMatch(
      /VodPullDomainLock 402: released from the stack; the zone's domain lock stays as it is/,
    );
    expect((await emulator.object("vodPullZones", 402)).domainlock).toMatchObject({ enabled: "Y", policy: "N" });
  });
});
