/** --state FILE: every change survives a restart; writes are atomic (temp file + rename). */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { harness } from "./helpers";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "emu-state-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it("keeps every kind of change across a restart", async () => {
  const stateFile = path.join(dir, "state.json");
  const a = await harness({ stateFile });
  expect(fs.existsSync(stateFile)).toBe(true);
  await a.api("POST", "/v2/streams/push/3001/status", { disabled: 1 });
  await a.api("POST", "/v2/zones/vod/push/301/adinsertion/schedule", {
    _METHOD: "PUT",
    type: "midroll",
    offset: 120,
    maxDurationS: 60,
  });
  await a.api("POST", "/v2/zones/vod/pull/401/domainlock", { enabled: "Y", list: "juniper.example" });
  await a.api("POST", "/v2/zones/http/settings/security/domainlock", { list: "all.example", mode: "append" });
  await a.api("POST", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/archive");
  const created = await a.api("POST", "/v2/streams/timeshift/new", {
    _METHOD: "PUT",
    name: "kept",
    timeshift: 30,
    parent: 3001,
  });
  await a.admin("POST", "/__emulator/mutate", { kind: "dnsZones", id: 8801, patch: { stats: { queries: 1 } } });
  await a.close();
  expect(fs.readdirSync(dir)).toEqual(["state.json"]); // no temp file left behind

  const b = await harness({ stateFile });
  try {
    expect((await b.api("GET", "/v2/streams/push/3001")).body.stream.disabled).toBe("1");
    expect((await b.api("GET", "/v2/zones/vod/push/301/adinsertion")).body.vodAdBreakPolicy.midRolls).toEqual([
      { offsetS: 120, maxDurationS: 60 },
    ]);
    expect((await b.api("GET", "/v2/zones/vod/pull/401")).body.zone.domainlock).toMatchObject({
      enabled: "Y",
      list: "juniper.example",
    });
    expect((await b.api("GET", "/v2/zones/http/pull")).body.zones[0].domainlock.list).toBe("all.example");
    expect((await b.api("GET", "/v2/ad-manager")).body.projects[0].active_campaigns_count).toBe(0);
    expect((await b.api("GET", `/v2/streams/timeshift/${created.body.stream.id}`)).body.stream.parts.sn).toBe("kept");
    expect((await b.api("GET", "/v2/dns")).body.domains[0].stats.queries).toBe(1);
    // Reset restores the fixture and persists that too.
    await b.admin("POST", "/__emulator/reset");
  } finally {
    await b.close();
  }
  const c = await harness({ stateFile });
  try {
    expect((await c.api("GET", "/v2/streams/push/3001")).body.stream.disabled).toBe("0");
  } finally {
    await c.close();
  }
});

it("writes the state file in the fixture format, so it can be loaded as a fixture", async () => {
  const stateFile = path.join(dir, "state.json");
  const a = await harness({ stateFile });
  await a.api("POST", "/v2/streams/push/3002/status", { disabled: 1 });
  await a.close();
  const b = await harness({ fixture: stateFile });
  try {
    expect((await b.api("GET", "/v2/streams/push/3002")).body.stream.disabled).toBe("1");
  } finally {
    await b.close();
  }
});

it("refuses a corrupt state file with a message naming it", async () => {
  const stateFile = path.join(dir, "state.json");
  fs.writeFileSync(stateFile, JSON.stringify({ pushStreams: { "1": { id: 2 } } }));
  await expect(harness({ stateFile })).rejects.toThrow(/state\.json: pushStreams\.1: key must equal/);
});
