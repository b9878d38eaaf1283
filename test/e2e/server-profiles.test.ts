/**
 * Every resource kind under each reading of the spec's silences that touches resources (the
 * emulator's server profiles; the default reading is covered by each kind's lifecycle suite, kinds/<kind>/lifecycle.e2e.test.ts): one stack
 * holding every kind, one emulator switched from profile to profile through its admin door, and
 * each kind's whole lifecycle through the real CLI: up, empty preview, out-of-band changes,
 * drift found by `preview --refresh`, converge with `up --refresh`, change, destroy.
 *
 * Where a profile makes an outcome impossible, the test asserts the exact message and that
 * nothing in the account or the state was lost or duplicated:
 * - add-only slots (§4.2 "adds"): a changed slot is refused (the slot exists, what it holds, what
 *   to do); the user then does what the message says (removes the slot in the dashboard) and
 *   the next `up` converges. A create that finds its slot already there (an interrupted run)
 *   succeeds where the roster shows the declared values, and otherwise says to adopt it;
 * - no reads (every path the spec does not list answers 404): drift of a kind nothing can read
 *   is reported once per kind as undetectable, the state is kept; HttpDomainLockBulk still finds
 *   its pull zones' drift through the §4.10 listing. The API calls of each `up` and refresh are
 *   counted from the request log;
 * - other words (status after archive, Unix `deleted`, null warnings, `message`/`warnings`/
 *   `errors` on every write): campaigns compare with the word the archive returned, and what the
 *   API says beside a success reaches the CLI and the `warnings` outputs.
 */
import * as fs from "node:fs";
import { request } from "undici";
import { PROFILES } from "../../emulator";
import { createTestStack, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";
import { changedProperties } from "../helpers/state";

const cdn = loadSdk();

/** What the program declares; each profile starts from FIRST and changes to SECOND. */
interface Declared {
  zoneDomains: string[];
  lockDomains: string[];
  bulkDomains: string[];
  statusDisabled: boolean;
  preMax: number;
  preAdopt?: string;
  campaign: string;
  streamDisabled: boolean;
}
const FIRST: Declared = {
  zoneDomains: ["media.example.com"],
  lockDomains: ["player.example.com"],
  bulkDomains: ["partner.example"],
  statusDisabled: true,
  preMax: 30,
  campaign: "cmp_7Hq2xK9d",
  streamDisabled: false,
};
const SECOND: Declared = {
  zoneDomains: ["media.example.com", "cdn.example.com"],
  lockDomains: ["player.example.com", "embed.example.com"],
  bulkDomains: ["partner.example", "cdn.partner.example"],
  statusDisabled: false,
  preMax: 45,
  campaign: "cmp_3Lm8vR2p",
  streamDisabled: true,
};
let declared: Declared;

const program = async () => {
  const zone = new cdn.PushZoneSettings("zone", { zoneId: 101, customDomains: declared.zoneDomains });
  new cdn.VodPullDomainLock("lock", { zoneId: 401, enabled: true, domains: declared.lockDomains });
  new cdn.HttpDomainLockBulk("bulk", { mode: "append", enabled: true, domains: declared.bulkDomains });
  const status = new cdn.StreamStatus("status", {
    streamKind: "push",
    streamId: 3002,
    disabled: declared.statusDisabled,
  });
  new cdn.AdBreakSlot("pre", {
    zoneId: 301,
    type: "preroll",
    maxDurationS: declared.preMax,
    adoptId: declared.preAdopt,
  });
  new cdn.AdBreakSlot("mid", { zoneId: 301, type: "midroll", offset: 600, maxDurationS: 20 });
  const archive = new cdn.CampaignArchive("archive", { projectId: 1, campaignId: declared.campaign });
  const delayed = new cdn.TimeshiftStream("delayed", {
    name: "sp-delayed",
    parent: 3001,
    timeshift: 60,
    protocols: ["HLS", "RTMP", "RTSP"],
    disabled: declared.streamDisabled,
  });
  return {
    zoneWarnings: zone.warnings,
    hashId: zone.hashId,
    statusWarnings: status.warnings,
    archiveStatus: archive.status,
    playback: delayed.playbackUrls,
  };
};
/** The stack's resources and the stack itself. */
const ALL = 9;

/** The kinds a read extension serves, and their read paths (their drift is invisible without reads). */
const EXTENSION_READS: Record<string, string> = {
  PushZoneSettings: "GET /v2/zones/http/push/{zoneid}",
  VodPullDomainLock: "GET /v2/zones/vod/pull/{zoneid}",
  StreamStatus: "GET /v2/streams/push/{streamid}",
  AdBreakSlot: "GET /v2/zones/vod/push/{zoneid}/adinsertion",
  CampaignArchive: "GET /v2/ad-manager/{pid}/campaigns/{cid}",
  TimeshiftStream: "GET /v2/streams/timeshift/{streamid}",
};
const BULK_DEFAULT_READ = "GET /v2/zones/http/settings/security/domainlock";
const PULL_LIST = "GET /v2/zones/http/pull";
const SCHEDULE = "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule";

/** Each profile that touches resources, and what it means for the expectations below. */
const READINGS = [
  { profile: "add-only-slots", reads: true, addOnly: true, archivedWord: "archived", notes: false },
  { profile: "no-reads", reads: false, addOnly: false, archivedWord: "archived", notes: false },
  { profile: "other-words", reads: true, addOnly: false, archivedWord: "ARCHIVED", notes: true },
  { profile: "strict-server", reads: false, addOnly: true, archivedWord: "Archived", notes: true },
] as const;

/** The add-only refusal's first sentence, as the API words it in the emulator. */
const EXISTS =
  "AdBreakSlot 301/preroll: the slot already exists on VoD push zone 301, and the API has no operation that updates or removes a slot " +
  '(the API only adds slots; it answered: "zone already has a preroll slot (at most one per zone): VoD push zone 301 keeps its slot; slots are ' +
  'only added, never updated or removed").';
const REMOVE = "remove the slot in the dashboard and run `pulumi up` again to add it with the declared values.";

/** API calls measured under the profiles without reads, printed at the end for the README. */
const measured: Record<string, Record<string, Record<string, number>>> = {};

describe("every kind under each server profile", () => {
  let emulator: TestEmulator;
  let test: TestStack;

  const admin = async (method: "POST" | "DELETE", path: string) => {
    const res = await request(`${emulator.url}/__emulator/${path}`, { method });
    expect(res.statusCode).toBe(200);
    await res.body.text();
  };
  const roster = async () => (await emulator.object("vodPushZones", 301)).adinsertion.vodAdBreakPolicy;
  const resource = async (name: string) =>
    ((await test.stack.exportStack()).deployment.resources ?? []).find((r: any) => String(r.urn).endsWith(`::${name}`));
  const delayedStreams = async () =>
    Object.values((await emulator.state()).timeshiftStreams as Record<string, any>).filter(
      (s) => s.parts?.sn === "sp-delayed",
    );
  /** Runs `op`, returning what the CLI printed and the failure (if any) as one text. */
  const run = async (op: (onOutput: (text: string) => void) => Promise<unknown>) => {
    let output = "";
    const failure = await op((text) => void (output += text)).then(
      () => undefined,
      (err: Error) => err,
    );
    return { failure, said: `${output}\n${failure?.message ?? ""}` };
  };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    test = await createTestStack({
      program,
      config: { "cdnstream:baseUrl": { value: emulator.url } },
      env: { CDNSTREAM_API_KEY: emulator.apiKey },
    });
  });
  afterAll(async () => {
    if (test) fs.rmSync(test.dir, { recursive: true, force: true });
    await emulator?.close();
    // The figures the README's no-reads table comes from.
    process.stdout.write(`API calls without reads: ${JSON.stringify(measured, null, 1)}\n`);
  });

  describe.each(READINGS)("under $profile", (reading) => {
    const { profile, reads, addOnly, archivedWord, notes } = reading;
    const count = (step: string, counts: Record<string, number>) => {
      if (!reads) (measured[profile] ??= {})[step] = counts;
    };

    beforeAll(async () => {
      // A fresh account under this profile alone; the stack is empty (the last profile destroyed it).
      await admin("POST", "reset");
      await admin("DELETE", "profile");
      expect(await emulator.setProfile(PROFILES[profile])).toMatchObject(PROFILES[profile]);
      declared = { ...FIRST };
    });

    it("up creates every kind once (an add-only API's slot left by an interrupted run is taken over)", async () => {
      if (addOnly) {
        // An interrupted run added the preroll but never recorded it.
        await emulator.mutate("vodPushZones", 301, {
          adinsertion: { vodAdBreakPolicy: { preRoll: { maxDurationS: 30, minAdLengthS: 0 } } },
        });
      }
      await emulator.clearRequests();
      const first = await run((onOutput) => test.stack.up({ onOutput, continueOnError: true }));
      if (addOnly && !reads) {
        // Nothing shows the roster: the user is told to take it over, and does.
        expect(first.failure).toBeDefined();
        expect(first.said).toContain(
          `${EXISTS} Whether it holds the declared values cannot be checked (the API has no read for a zone's slots). If it does ` +
            '(say, an interrupted run added it), take it over: set adoptId: "301/preroll" and run `pulumi up` again. Otherwise ' +
            REMOVE,
        );
        expect(first.said).not.toMatch(/[Cc]orrect the value/);
        count("first up (the taken slot refused)", await emulator.requestCounts());
        declared.preAdopt = "301/preroll";
        await emulator.clearRequests();
        const adopted = await test.stack.up();
        expect(adopted.summary.resourceChanges).toEqual({ create: 1, same: ALL - 1 });
        expect(adopted.stdout).toMatch(
          /warning: AdBreakSlot 301\/preroll: adopted on the declared values without reading it/,
        );
        // Adoption writes nothing: it tries the roster's read once, which answers 404.
        expect(await emulator.requestCounts()).toEqual({ [EXTENSION_READS.AdBreakSlot]: 1 });
        count("up adopting the slot", await emulator.requestCounts());
      } else {
        expect(first.failure).toBeUndefined();
        if (addOnly)
          expect(first.said).toMatch(
            /AdBreakSlot 301\/preroll: already on the zone with the declared values \(the API refused a second one\)/,
          );
        if (!reads) {
          // One write per object, and not one read.
          expect(await emulator.requestCounts()).toEqual({
            "POST /v2/zones/http/push/{zoneid}": 1,
            "POST /v2/zones/vod/pull/{zoneid}/domainlock": 1,
            "POST /v2/zones/http/settings/security/domainlock": 1,
            "POST /v2/streams/push/{streamid}/status": 1,
            [SCHEDULE]: 2,
            "POST /v2/ad-manager/{pid}/campaigns/{cid}/archive": 1,
            "POST /v2/streams/timeshift/new": 1,
          });
          count("up", await emulator.requestCounts());
        }
      }
      const outputs = await test.stack.outputs();
      expect(outputs.archiveStatus.value).toBe(archivedWord);
      expect(outputs.playback.value).toMatchObject({
        rtmp: expect.stringMatching(/^rtmp:\/\//),
        rtsp: expect.stringMatching(/^rtsp:\/\//),
      });
      expect(outputs.hashId.value).toMatch(/^[0-9a-f]{12}$/);
      if (notes) {
        const beside = [
          "Changes may take up to 5 minutes to reach every edge server",
          "error: edge server ams2 has not confirmed the change yet; it retries automatically",
          "error: configuration sync to edge server ams2 is delayed; it retries automatically (code 1001)",
        ];
        expect(outputs.zoneWarnings.value).toEqual([
          expect.stringMatching(/^add a CNAME record for media\.example\.com/),
          ...beside,
        ]);
        expect(outputs.statusWarnings.value).toEqual(expect.arrayContaining(beside));
        const printed = first.said;
        for (const note of beside) expect(printed).toContain(`warning: PushZoneSettings 101: the API said: ${note}`);
        // Each kind's message, once per wording (two slots, one line).
        expect(printed).toContain("PushZoneSettings 101: the API said: Zone updated successfully");
        const slotsSaying = new Set(
          [...printed.matchAll(/AdBreakSlot (301\/[a-z0-9/]+): the API said: Ad break slot added/g)].map((m) => m[1]),
        );
        expect(slotsSaying.size).toBe(1);
      } else {
        expect(outputs.zoneWarnings.value).toEqual([
          expect.stringMatching(/^add a CNAME record for media\.example\.com/),
        ]);
      }

      // Exactly one of everything: one preroll, one midroll, one stream of this name.
      expect(await roster()).toMatchObject({
        preRoll: { maxDurationS: 30 },
        midRolls: [{ offsetS: 600, maxDurationS: 20 }],
      });
      expect(await delayedStreams()).toHaveLength(1);
      expect((await emulator.object("campaigns", "cmp_7Hq2xK9d")).status).toBe(archivedWord);
    });

    it("previews no change, calling nothing", async () => {
      await emulator.clearRequests();
      expect((await test.stack.preview()).changeSummary).toEqual({ same: ALL });
      expect(await emulator.requestCounts()).toEqual({});
    });

    it("preview --refresh finds every out-of-band change something can read, and says which kinds nothing can", async () => {
      const stream = (await delayedStreams())[0];
      await emulator.mutate("httpPushZones", 101, { cnames: "intruder.example", cnamesArr: ["intruder.example"] });
      await emulator.mutate("vodPullZones", 401, { domainlock: { list: "intruder.example" } });
      await emulator.mutate("httpPullZones", 201, { domainlock: { list: "" } });
      await emulator.mutate("pushStreams", 3002, { disabled: "0" });
      await emulator.mutate("vodPushZones", 301, {
        adinsertion: { vodAdBreakPolicy: { preRoll: { maxDurationS: 99 } } },
      });
      await emulator.mutate("campaigns", "cmp_7Hq2xK9d", { status: "active" });
      await emulator.mutate("timeshiftStreams", stream.id, { disabled: "1" });
      const before = await test.stack.exportStack();

      await emulator.clearRequests();
      const events: any[] = [];
      let said = "";
      const preview = await test.stack.preview({
        refresh: true,
        onEvent: (e) => events.push(e),
        onOutput: (text) => void (said += text),
      });
      // The resources the preview would update, and the properties that drifted.
      const drifted = Object.fromEntries(
        Object.entries(changedProperties(events.filter((e) => e.resourcePreEvent?.metadata?.op === "update"))).filter(
          ([, keys]) => keys.length,
        ),
      );
      expect(said).toMatch(
        /HttpDomainLockBulk account: 1 HTTP pull zone\(s\) no longer hold the domain lock the last `append` wrote: 201 \(output zonesOutOfStep\)/,
      );
      if (reads) {
        expect(preview.changeSummary).toEqual({ update: 6, create: 1, same: 2 });
        expect(drifted).toEqual({
          zone: ["customDomains"],
          lock: ["domains"],
          bulk: ["domains"],
          status: ["disabled"],
          pre: ["maxDurationS"],
          delayed: ["disabled"],
        });
      } else {
        // Only the pull zones' locks can be read (§4.10); each other kind is said once to be unreadable.
        expect(preview.changeSummary).toEqual({ update: 1, same: ALL - 1 });
        expect(drifted).toEqual({ bulk: ["domains"] });
        // Counted in the engine's diagnostics (the CLI's text shows each twice: as it happens and in the summary).
        const diagnostics = events.map((e) => String(e.diagnosticEvent?.message ?? "").trim());
        for (const [kind, path] of Object.entries(EXTENSION_READS)) {
          const line = `warning: ${kind}: the API has no read for this object (404 on ${path}); refresh keeps the last applied state and cannot detect drift for ${kind} resources.`;
          expect([kind, diagnostics.filter((message) => message === line).length]).toEqual([kind, 1]);
        }
        expect(said).toContain(
          `warning: HttpDomainLockBulk: the API has no read for this object (404 on ${BULK_DEFAULT_READ}); refresh cannot see the account ` +
            "default, and compares each HTTP pull zone's lock with what `append` wrote instead.",
        );
        // Each guessed path tried once (two slots, one read), then the listing's pages.
        const counts = await emulator.requestCounts();
        const { [PULL_LIST]: pages, ...guessed } = counts;
        expect(guessed).toEqual(
          Object.fromEntries([...Object.values(EXTENSION_READS), BULK_DEFAULT_READ].map((path) => [path, 1])),
        );
        expect(pages).toBeGreaterThanOrEqual(3);
        count("preview --refresh", counts);
      }
      // A preview writes nothing.
      expect(await test.stack.exportStack()).toEqual(before);
    });

    it("up --refresh converges every kind it can see; a changed slot on an add-only API is refused exactly, losing nothing", async () => {
      await emulator.clearRequests();
      const converge = await run((onOutput) => test.stack.up({ refresh: true, onOutput, continueOnError: true }));
      if (!reads) count("up --refresh", await emulator.requestCounts());
      if (addOnly && reads) {
        expect(converge.said).toContain(
          `${EXISTS} It holds maxDurationS: 99 live (read from the zone's ad insertion settings), where the program declares ` +
            `maxDurationS: 30. Either keep the live value (declare maxDurationS: 99), or ${REMOVE}`,
        );
        expect(converge.said).not.toMatch(/[Cc]orrect the value/);
        // Nothing lost or duplicated: one preroll, as it was; the state records what the refresh read.
        expect(await roster()).toMatchObject({
          preRoll: { maxDurationS: 99 },
          midRolls: [{ offsetS: 600, maxDurationS: 20 }],
        });
        expect((await resource("pre")).outputs).toMatchObject({ maxDurationS: 99, live: { maxDurationS: 99 } });
        // The user does what the message says: removes the slot in the dashboard, and runs up again.
        await emulator.mutate("vodPushZones", 301, { adinsertion: { vodAdBreakPolicy: { preRoll: null } } });
        expect((await test.stack.up()).summary.resourceChanges).toEqual({ update: 1, same: ALL - 1 });
      } else {
        expect(converge.failure).toBeUndefined();
      }
      const account = await emulator.state();
      // The pull zones' drift is seen and undone under every profile.
      expect(account.httpPullZones["201"].domainlock.list).toBe("partner.example");
      if (reads) {
        expect(account.httpPushZones["101"].cnames).toBe("media.example.com");
        expect(account.vodPullZones["401"].domainlock.list).toBe("player.example.com");
        expect(account.pushStreams["3002"].disabled).toBe("1");
        expect(account.vodPushZones["301"].adinsertion.vodAdBreakPolicy.preRoll).toMatchObject({ maxDurationS: 30 });
        expect(account.campaigns.cmp_7Hq2xK9d.status).toBe(archivedWord);
        expect((await delayedStreams())[0].disabled).toBe("0");
      } else {
        // Nothing could see the other changes: the account keeps them, the state its last applied values.
        expect(account.httpPushZones["101"].cnames).toBe("intruder.example");
        expect(account.pushStreams["3002"].disabled).toBe("0");
        expect(account.vodPushZones["301"].adinsertion.vodAdBreakPolicy.preRoll).toMatchObject({ maxDurationS: 99 });
        expect(account.campaigns.cmp_7Hq2xK9d.status).toBe("active");
        expect((await resource("pre")).outputs).toMatchObject({ maxDurationS: 30 });
        expect((await resource("archive")).outputs).toMatchObject({ status: archivedWord });
      }
      expect(await delayedStreams()).toHaveLength(1);
      expect((await test.stack.preview()).changeSummary).toEqual({ same: ALL });
    });

    it("applies a change to every kind; on an add-only API the slot's change is refused exactly, then applied after the dashboard removal", async () => {
      declared = { ...SECOND, preAdopt: declared.preAdopt };
      const rosterBefore = await roster();
      const preBefore = await resource("pre");
      await emulator.clearRequests();
      const change = await run((onOutput) => test.stack.up({ onOutput, continueOnError: true }));
      if (!reads) count("up (a change to every kind)", await emulator.requestCounts());
      if (addOnly) {
        expect(change.said).toContain(
          reads
            ? `${EXISTS} It holds maxDurationS: 30 live (read from the zone's ad insertion settings), where the program declares ` +
                `maxDurationS: 45. Either keep the live value (declare maxDurationS: 30), or ${REMOVE}`
            : // The slot still holds the 99 set in the dashboard, which nothing could read.
              `${EXISTS} What it holds now cannot be shown (the API has no read for a zone's slots); the stack last recorded ` +
                `maxDurationS: 30, and the program declares maxDurationS: 45. Either keep the value it holds (declare it again), or ${REMOVE}`,
        );
        expect(change.said).not.toMatch(/[Cc]orrect the value/);
        // Nothing lost or duplicated: the roster and the slot's state are as they were.
        expect(await roster()).toEqual(rosterBefore);
        expect(await resource("pre")).toEqual(preBefore);
        await emulator.mutate("vodPushZones", 301, { adinsertion: { vodAdBreakPolicy: { preRoll: null } } });
        expect((await test.stack.up()).summary.resourceChanges).toEqual({ update: 1, same: ALL - 1 });
      } else {
        expect(change.failure).toBeUndefined();
      }
      const account = await emulator.state();
      expect(account.httpPushZones["101"].cnamesArr).toEqual(SECOND.zoneDomains);
      expect(account.vodPullZones["401"].domainlock.list).toBe(SECOND.lockDomains.join(","));
      expect(account.httpPullZones["201"].domainlock.list).toBe(SECOND.bulkDomains.join(","));
      expect(account.pushStreams["3002"].disabled).toBe("0");
      expect((await roster()).preRoll).toMatchObject({ maxDurationS: 45 });
      expect((await roster()).midRolls).toEqual([{ offsetS: 600, maxDurationS: 20 }]);
      // The archive moved to another campaign (a replace); the first stays archived.
      expect([account.campaigns.cmp_3Lm8vR2p.status, (await resource("archive")).outputs.status]).toEqual([
        archivedWord,
        archivedWord,
      ]);
      expect(await delayedStreams()).toEqual([expect.objectContaining({ disabled: "1" })]);
      expect((await test.stack.preview()).changeSummary).toEqual({ same: ALL });
    });

    it("destroys every kind: settings released, slots and archives stay, the stream disabled", async () => {
      await emulator.clearRequests();
      const destroy = await test.stack.destroy();
      expect(destroy.summary.resourceChanges).toEqual({ delete: ALL });
      expect(await emulator.requestCounts()).toEqual({ "POST /v2/streams/timeshift/{streamid}/status": 1 });
      expect((await roster()).preRoll).toMatchObject({ maxDurationS: 45 });
      expect((await emulator.object("campaigns", "cmp_3Lm8vR2p")).status).toBe(archivedWord);
      expect(await delayedStreams()).toEqual([expect.objectContaining({ disabled: "1" })]);
      expect((await test.stack.exportStack()).deployment.resources ?? []).toEqual([]);
    });
  });
});
