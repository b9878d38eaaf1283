/**
 * CampaignArchive lifecycle through the real CLI against the emulator: archive project 1's active
 * campaign (its project's `active_campaigns_count` drops), empty preview, replace on another
 * campaign (the first stays archived), drift, adoption, destroy (campaigns stay archived).
 * CampaignArchive has no in-place update: both inputs are its identity.
 *
 * Drift it detects: a campaign no longer `archived` (un-archived outside the stack) is dropped on
 * refresh and archived again by the next `up`. It cannot detect a deleted campaign (the read's 404
 * keeps the last state, see context.ts `readLive`), and other campaign fields are outputs only.
 */
import { adManager, CdnstreamClient } from "../../client";
import type { TestStack } from "../../test/helpers/engine";
import type { TestEmulator } from "../../test/helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../../test/helpers/emulated-stack";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();
const ARCHIVE = "POST /v2/ad-manager/{pid}/campaigns/{cid}/archive";

type ArchiveArgs = ConstructorParameters<typeof cdn.CampaignArchive>[1];

describe("CampaignArchive", () => {
  let emulator: TestEmulator;
  let client: CdnstreamClient;
  let test: TestStack;
  let archives: Record<string, ArchiveArgs>;

  const program = async () =>
    Object.fromEntries(Object.entries(archives).map(([name, args]) => [name, new cdn.CampaignArchive(name, args).id]));
  const status = async (id: string) => (await emulator.object("campaigns", id)).status;
  /** §4.15, as users see it: the count is derived from the campaigns. */
  const activeCount = async (projectId: number) =>
    (await adManager.listProjects(client)).projects?.find((p) => p.id === projectId)?.active_campaigns_count;

  beforeAll(async () => {
    ({ emulator, test } = await startEmulatedStack(program));
    client = new CdnstreamClient({ apiKey: emulator.apiKey, baseUrl: emulator.url, env: {} });
  });
  afterAll(async () => {
    await client?.close();
    await stopEmulatedStack(test, emulator);
  });

  it("archives the active campaign, the project's active count drops, and a preview changes nothing", async () => {
    expect(await activeCount(1)).toBe(1);
    archives = { archive: { projectId: 1, campaignId: "cmp_7Hq2xK9d" } };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.archive.value).toBe("1/cmp_7Hq2xK9d");
    expect(await status("cmp_7Hq2xK9d")).toBe("archived");
    expect(await activeCount(1)).toBe(0);

    await emulator.clearRequests();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
    expect(await emulator.requestCounts()).toEqual({});
  });

  it("replaces on another campaign, leaving the first archived, and says so", async () => {
    archives.archive = { projectId: 1, campaignId: "cmp_3Lm8vR2p" };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    expect(up.outputs.archive.value).toBe("1/cmp_3Lm8vR2p");
    expect(up.stdout).toMatch(/CampaignArchive 1\/cmp_7Hq2xK9d: released from the stack; the campaign stays archived/);
    expect([await status("cmp_7Hq2xK9d"), await status("cmp_3Lm8vR2p")]).toEqual(["archived", "archived"]);
  });

  it("drops a campaign un-archived out of band on refresh, and the next up archives it again", async () => {
    await emulator.mutate("campaigns", "cmp_3Lm8vR2p", { status: "active" });
    expect(await activeCount(1)).toBe(1);
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ delete: 1, same: 1 });
    expect((await test.stack.preview()).changeSummary).toEqual({ create: 1, same: 1 });

    await emulator.clearRequests();
    await test.stack.up();
    expect((await emulator.requestCounts())[ARCHIVE]).toBe(1);
    expect(await status("cmp_3Lm8vR2p")).toBe("archived");
    expect(await activeCount(1)).toBe(0);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("refuses to adopt a campaign that is not archived, archiving nothing", async () => {
    archives.adopted = { projectId: 2, campaignId: "cmp_9Tz4wN6c", adoptId: "2/cmp_9Tz4wN6c" };
    await emulator.clearRequests();
    await expect(test.stack.up()).rejects.toThrow(
      /adoptId "2\/cmp_9Tz4wN6c": cannot adopt: it is not in the state this kind manages/,
    );
    expect((await emulator.requestCounts())[ARCHIVE]).toBeUndefined();
    expect(await status("cmp_9Tz4wN6c")).toBe("active");
  });

  it("adopts an archived campaign, reading it and writing nothing", async () => {
    archives.adopted = { projectId: 1, campaignId: "cmp_7Hq2xK9d", adoptId: "1/cmp_7Hq2xK9d" };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 2 });
    const counts = await emulator.requestCounts();
    expect([counts[ARCHIVE], counts["GET /v2/ad-manager/{pid}/campaigns/{cid}"]]).toEqual([undefined, 1]);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 3 });
  });

  it("destroys by releasing the campaigns, which stay archived, and says so", async () => {
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(destroy.stdout).toMatch(/the campaign stays archived \(the API has no unarchive\)/);
    expect([await status("cmp_7Hq2xK9d"), await status("cmp_3Lm8vR2p")]).toEqual(["archived", "archived"]);
    expect(await activeCount(1)).toBe(0);
  });
});
