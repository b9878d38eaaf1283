/**
 * Emulator fixtures for the bench (emulator/README.md, "Fixture format"): the default account
 * plus one distinct target object per resource, so a stack of N resources makes N real changes.
 *
 * Each object is a copy of a default one with a new id (the README requires key = id), so every
 * shape stays the §2 shape the default fixture has. Id ranges sit far from the default ids and
 * from one another; push streams stay below 5000, where §4.19 creates start numbering.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./engine";

type Obj = Record<string, any>;
type Fixture = Record<string, any>;

/** First id of each generated kind. */
export const BASE = {
  pushStream: 3100, // StreamStatus targets and TimeshiftStream parents
  httpPushZone: 10001, // PushZoneSettings
  vodPushZone: 30001, // AdBreakSlot (ad insertion on, no slots)
  vodPullZone: 40001, // VodPullDomainLock
  httpPullZone: 20001, // getHttpPullZones
} as const;

/** Campaign ids of CampaignArchive targets (active campaigns of project 1). */
export const campaignId = (j: number): string => `cmp_bench${String(j).padStart(4, "0")}`;

function defaultFixture(): Fixture {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "emulator", "fixtures", "default.json"), "utf8"));
}

/** A generated family: the default object copied, the copies' ids and what each copy changes. */
type Family = [template: string, idOf: (j: number) => number | string, edit: (o: Obj, j: number) => void];

/** `count` copies of `objects[template]`, keyed by the ids `idOf(j)`, each passed through `edit`. */
function copies(objects: Obj, [template, idOf, edit]: Family, count: number): Obj {
  const out: Obj = {};
  for (let j = 0; j < count; j++) {
    const o = structuredClone(objects[template]);
    o.id = idOf(j);
    edit(o, j);
    out[String(o.id)] = o;
  }
  return out;
}

/** How many objects of each target family a stack needs (`targetCounts` of mix.ts). */
export type TargetCounts = Record<keyof typeof TARGETS, number>;

/** The target families of a stack, by the fixture's key. */
const TARGETS = {
  pushStreams: [
    "3001",
    (j) => BASE.pushStream + j,
    (o, j) => {
      o.name = `${o.parts.pp}-bench-${j}`;
      o.parts = { ...o.parts, sn: `bench-${j}`, full: o.name };
    },
  ],
  httpPushZones: [
    "101",
    (j) => BASE.httpPushZone + j,
    (o, j) => Object.assign(o, { name: `bench-${j}`, cnames: "", cnamesArr: [], cnamesArrFqdn: [] }),
  ],
  vodPushZones: ["301", (j) => BASE.vodPushZone + j, (o, j) => (o.name = `bench-vod-${j}`)],
  vodPullZones: ["401", (j) => BASE.vodPullZone + j, (o, j) => (o.name = `bench-pull-${j}`)],
  campaigns: [
    "cmp_7Hq2xK9d",
    campaignId,
    (o, j) => Object.assign(o, { name: `Bench campaign ${j}`, status: "active" }),
  ],
} satisfies Record<string, Family>;

/** The default fixture plus the targets a bench stack declares (families not given: none). */
export function stackFixture(counts: Partial<TargetCounts>): Fixture {
  const f = defaultFixture();
  for (const [family, target] of Object.entries(TARGETS))
    Object.assign(f[family], copies(f[family], target, counts[family as keyof TargetCounts] ?? 0));
  return f;
}

const PULL_ZONES: Family = ["201", (j) => BASE.httpPullZone + j, (o, j) => (o.name = `bench-${j}`)];

/** The default fixture with exactly `count` HTTP pull zones instead of its 47. */
export function pullZonesFixture(count: number): Fixture {
  const f = defaultFixture();
  f.httpPullZones = copies(f.httpPullZones, PULL_ZONES, count);
  return f;
}
