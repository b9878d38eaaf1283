/**
 * The stacks the bench declares and the programs declaring them, the same N resources with the same
 * inputs on each side: ours and the engine floor (docs/benchmarks.md, "What is measured").
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { benchRoot, loadInstalledSdk } from "./engine";
import { BASE, campaignId, type TargetCounts } from "./fixture";
import { read } from "./host";

/** The `cycle` mix's kinds, in turn. */
const CYCLE = [
  "StreamStatus",
  "TimeshiftStream",
  "PushZoneSettings",
  "VodPullDomainLock",
  "AdBreakSlot",
  "CampaignArchive",
] as const;
type Kind = (typeof CYCLE)[number] | "HttpDomainLockBulk";

export type Declaration = ReturnType<typeof declarations>[number];

/**
 * The stack shapes the bench can declare (`--mix`, docs/benchmarks.md): `cycle`, each kind in turn
 * on an object of its own (unchanged across releases so figures stay comparable), and `account`,
 * where many resources share few objects. Both hold one HttpDomainLockBulk (account-wide, §4.11), 7th.
 */
export const MIXES = ["cycle", "account"] as const;
export type Mix = (typeof MIXES)[number];

const SLOTS_PER_ZONE = 8;
/** A VoD push zone's AdBreakSlots, then `streams` StreamStatus, then `kinds`. */
const zone = (streams: number, ...kinds: Kind[]): Kind[] => [
  ...Array<Kind>(SLOTS_PER_ZONE).fill("AdBreakSlot"),
  ...Array<Kind>(streams).fill("StreamStatus"),
  ...kinds,
];
/** One unit of the account mix (49 resources), interleaved so that a small N still holds every kind. */
const ACCOUNT_UNIT: Kind[] = [
  ...zone(3, "TimeshiftStream", "PushZoneSettings"),
  ...zone(3, "VodPullDomainLock", "CampaignArchive"),
  ...zone(2, "TimeshiftStream", "PushZoneSettings"),
  ...zone(2, "VodPullDomainLock"),
];
const BULK_AT = 6;

/**
 * The j-th AdBreakSlot: zone j / 8 of the bench zones, and on it preroll, postroll, then
 * midrolls at 60 s steps (one of each identity per zone, §4.2).
 */
function slotArgs(j: number, perZone: number): Record<string, unknown> {
  const zoneId = BASE.vodPushZone + Math.floor(j / perZone);
  const k = j % perZone;
  if (perZone === 1 || k === 0) return { zoneId, type: "preroll", maxDurationS: 30 };
  if (k === 1) return { zoneId, type: "postroll", maxDurationS: 30 };
  return { zoneId, type: "midroll", offset: 60 * (k - 1), maxDurationS: 30 };
}

/** The j-th resource of a kind, on the j-th generated object of its family (fixture.ts). */
const ARGS: Record<Kind, (j: number, mix: Mix) => Record<string, unknown>> = {
  StreamStatus: (j) => ({ streamKind: "push", streamId: BASE.pushStream + j, disabled: j % 2 === 0 }),
  TimeshiftStream: (j) => ({ name: `bench-delayed-${j}`, parent: BASE.pushStream + j, timeshift: 60 }),
  PushZoneSettings: (j) => ({
    zoneId: BASE.httpPushZone + j,
    customDomains: [`media-${j}.bench.example`],
    transcodeWebhook: "https://hooks.bench.example/transcoded",
  }),
  VodPullDomainLock: (j) => ({
    zoneId: BASE.vodPullZone + j,
    enabled: true,
    policy: "Y",
    domains: [`player-${j}.bench.example`, "bench.example"],
    ips: ["203.0.113.7"],
  }),
  AdBreakSlot: (j, mix) => slotArgs(j, mix === "account" ? SLOTS_PER_ZONE : 1),
  CampaignArchive: (j) => ({ projectId: 1, campaignId: campaignId(j) }),
  HttpDomainLockBulk: () => ({ mode: "save", enabled: true, domains: ["bench.example"] }),
};

/** The N resources of a stack of `mix`, in declaration order. */
export function declarations(n: number, mix: Mix = "cycle") {
  const seen = new Map<Kind, number>();
  let cycled = 0;
  return Array.from({ length: n }, (_, i) => {
    const kind: Kind =
      i === BULK_AT
        ? "HttpDomainLockBulk"
        : mix === "account"
          ? ACCOUNT_UNIT[cycled++ % ACCOUNT_UNIT.length]
          : CYCLE[cycled++ % CYCLE.length];
    const j = seen.get(kind) ?? 0;
    seen.set(kind, j + 1);
    return { kind, name: `${kind}-${j}`, args: ARGS[kind](j, mix) };
  });
}

/**
 * How many distinct API objects the declarations manage: each resource its own (a TimeshiftStream
 * creates a stream of its own), but the AdBreakSlots of a zone share its roster.
 */
export const distinctObjects = (decls: Declaration[]): number =>
  decls.filter((d) => d.kind !== "AdBreakSlot").length + targetCounts(decls).vodPushZones;

/** How many emulator objects of each family the declarations target. */
export function targetCounts(decls: Declaration[]): TargetCounts {
  const count = (...kinds: Kind[]) => decls.filter((d) => kinds.includes(d.kind)).length;
  return {
    // A TimeshiftStream's parent is its own push stream, so both kinds index the same range.
    pushStreams: Math.max(count("StreamStatus"), count("TimeshiftStream")),
    httpPushZones: count("PushZoneSettings"),
    vodPushZones: new Set(decls.filter((d) => d.kind === "AdBreakSlot").map((d) => d.args.zoneId)).size,
    vodPullZones: count("VodPullDomainLock"),
    campaigns: count("CampaignArchive"),
  };
}

/**
 * Ours: the packed SDK's resource classes, as a user's program declares them; with `pluginBaseUrl`,
 * each given a cdnstream Provider (the provider plugin's path), as a program managing an account
 * through an explicit provider does (the key comes from the environment).
 */
export function oursProgram(decls: Declaration[], pluginBaseUrl?: string): PulumiFn {
  const sdk = loadInstalledSdk();
  const kinds = sdk as unknown as Record<
    Kind,
    new (name: string, args: unknown, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource
  >;
  return async () => {
    const provider = pluginBaseUrl && new sdk.Provider("account", { baseUrl: pluginBaseUrl });
    for (const d of decls) new kinds[d.kind](d.name, d.args, provider ? { provider } : undefined);
    return {};
  };
}

const FLOOR_PACKAGE = "cdnstream-bench-floor";
export const floorPackageDir = path.join(benchRoot, "node_modules", FLOOR_PACKAGE);

/** The floor package's files: every method of the dynamic-provider contract, returning at once (no I/O, no validation). */
const FLOOR_FILES = {
  "package.json": JSON.stringify({ name: FLOOR_PACKAGE, version: "0.0.0", private: true, main: "index.js" }, null, 2),
  "index.js": `"use strict";
// The engine floor of \`npm run bench\` (written by scripts/bench/mix.ts): a dynamic provider
// that does nothing, so a stack of it costs what the Pulumi engine itself costs.
let next = 0;
module.exports = {
  async configure() {},
  async check(_olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create(inputs) { return { id: String(process.pid) + "-" + String(++next), outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async update(_id, _olds, news) { return { outs: news }; },
  async delete() {},
};
`,
};

/** Writes the floor package unless it is there already (renamed into place: a concurrent run never sees half of it). */
export function writeFloorPackage(): void {
  const files = Object.entries(FLOOR_FILES);
  if (files.every(([name, text]) => read(path.join(floorPackageDir, name)) === text)) return;
  const scratch = `${floorPackageDir}.${process.pid}`;
  fs.mkdirSync(scratch, { recursive: true });
  for (const [name, text] of files) fs.writeFileSync(path.join(scratch, name), text);
  fs.rmSync(floorPackageDir, { recursive: true, force: true });
  fs.renameSync(scratch, floorPackageDir);
}

/** A dynamic resource of a bench program (the base class is abstract). */
export class BenchResource extends pulumi.dynamic.Resource {}

/** The floor: the same names, kinds (as type names) and inputs, on the do-nothing provider. */
export function floorProgram(decls: Declaration[]): PulumiFn {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- its exports, serialized as one require()
  const provider = require(floorPackageDir) as pulumi.dynamic.ResourceProvider;
  return async () => {
    // A copy of the inputs: the base class adds `__provider` to the object it is given, and the declarations are reused.
    for (const d of decls) new BenchResource(provider, d.name, { ...d.args }, {}, "cdnstream-floor", d.kind);
    return {};
  };
}
