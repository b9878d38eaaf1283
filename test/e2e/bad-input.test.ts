/**
 * The bad-input catalogue: invalid inputs of every resource kind and data source, each declared
 * alone in a real `pulumi preview` against the emulator. Each must fail the preview with an error
 * that names the property (or argument) and states the rule on the same line, and must send
 * nothing: the emulator's request log stays empty.
 *
 * One stack and one emulator serve every case: the program declares the current case, and the
 * cases whose value comes from stack config read it with `requireObject`, as programs do. CI's
 * newest leg runs a sample (`sampledOffLock`, below); the floor leg runs the whole catalogue.
 */
import * as pulumi from "@pulumi/pulumi";
import { createTestStack, failedPreviewText, sdkOffLock, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";
import { escapeRegExp as escape } from "../helpers/state";

const cdn = loadSdk();

interface BadInput {
  /** The resource kind or data source under test. */
  target: string;
  /** What is wrong. */
  title: string;
  /** Declares exactly that bad input; `config` is the case's stack config value, when it has one. */
  declare: (config?: any) => unknown;
  /** The value of the case's stack config key (JSON), for inputs a program takes from config. */
  config?: unknown;
  /** The property or argument the error must name. */
  property: string;
  /** The rule the error must state, on the same line after the property. */
  rule: RegExp;
}

// Valid declarations of each kind; a case overrides what it breaks (`as any`: bad on purpose).
const slot = (args: Record<string, unknown>) => () =>
  new cdn.AdBreakSlot("bad", { zoneId: 301, type: "preroll", maxDurationS: 30, ...args } as any);
const stream = (args: Record<string, unknown>) => () =>
  new cdn.TimeshiftStream("bad", { name: "bad-input", parent: 3001, timeshift: 300, ...args } as any);
const status = (args: Record<string, unknown>) => () =>
  new cdn.StreamStatus("bad", { streamKind: "push", streamId: 3001, disabled: true, ...args } as any);
const archive = (args: Record<string, unknown>) => () =>
  new cdn.CampaignArchive("bad", { projectId: 1, campaignId: "cmp_7Hq2xK9d", ...args } as any);
const pushZone = (args: Record<string, unknown>) => () =>
  new cdn.PushZoneSettings("bad", { zoneId: 101, customDomains: ["cdn.example.com"], ...args } as any);
const vodLock = (args: Record<string, unknown>) => () =>
  new cdn.VodPullDomainLock("bad", { zoneId: 401, enabled: true, ...args } as any);
const bulkLock = (args: Record<string, unknown>) => () =>
  new cdn.HttpDomainLockBulk("bad", { mode: "save", enabled: true, ...args } as any);

const cases: BadInput[] = [
  // ---- AdBreakSlot (§4.2, §8) ----
  {
    target: "AdBreakSlot",
    title: "maxDurationS below 1",
    declare: slot({ maxDurationS: 0 }),
    property: "maxDurationS",
    rule: /at least 1/,
  },
  {
    target: "AdBreakSlot",
    title: "maxDurationS above 3600",
    declare: slot({ maxDurationS: 3601 }),
    property: "maxDurationS",
    rule: /at most 3600/,
  },
  {
    target: "AdBreakSlot",
    title: "maxDurationS not whole",
    declare: slot({ maxDurationS: 12.5 }),
    property: "maxDurationS",
    rule: /whole number/,
  },
  {
    target: "AdBreakSlot",
    title: "unknown slot type",
    declare: slot({ type: "bumper" }),
    property: "type",
    rule: /preroll, midroll, postroll, midrollinterval/,
  },
  {
    target: "AdBreakSlot",
    title: "midroll without offset",
    declare: slot({ type: "midroll" }),
    property: "offset",
    rule: /required for a midroll slot/,
  },
  {
    target: "AdBreakSlot",
    title: "midrollinterval without intervalS",
    declare: slot({ type: "midrollinterval" }),
    property: "intervalS",
    rule: /required for a midrollinterval slot/,
  },
  {
    target: "AdBreakSlot",
    title: "negative offset",
    declare: slot({ type: "midroll", offset: -1 }),
    property: "offset",
    rule: /at least 0/,
  },
  {
    target: "AdBreakSlot",
    title: "intervalS of 0",
    declare: slot({ type: "midrollinterval", intervalS: 0 }),
    property: "intervalS",
    rule: /at least 1/,
  },
  {
    target: "AdBreakSlot",
    title: "negative maxBreaks",
    declare: slot({ type: "midrollinterval", intervalS: 300, maxBreaks: -1 }),
    property: "maxBreaks",
    rule: /at least 0/,
  },
  {
    target: "AdBreakSlot",
    title: "maxBreaks on a preroll",
    declare: slot({ maxBreaks: 2 }),
    property: "maxBreaks",
    rule: /only allowed for a midrollinterval slot/,
  },
  {
    target: "AdBreakSlot",
    title: "offset on a postroll",
    declare: slot({ type: "postroll", offset: 60 }),
    property: "offset",
    rule: /only allowed for a midroll slot/,
  },
  {
    target: "AdBreakSlot",
    title: "negative maxAds",
    declare: slot({ maxAds: -1 }),
    property: "maxAds",
    rule: /at least 0/,
  },
  {
    target: "AdBreakSlot",
    title: "negative fillCeilingS",
    declare: slot({ fillCeilingS: -5 }),
    property: "fillCeilingS",
    rule: /at least 0/,
  },
  { target: "AdBreakSlot", title: "zoneId of 0", declare: slot({ zoneId: 0 }), property: "zoneId", rule: /positive/ },
  {
    target: "AdBreakSlot",
    title: "empty breakId",
    declare: slot({ breakId: "" }),
    property: "breakId",
    rule: /must not be empty/,
  },
  {
    target: "AdBreakSlot",
    title: "maxDurationS as a string from stack config",
    config: "30",
    declare: (value) => slot({ maxDurationS: value })(),
    property: "maxDurationS",
    rule: /whole number.*not a string/,
  },

  // ---- TimeshiftStream (§4.19, §8) ----
  {
    target: "TimeshiftStream",
    title: "ndvr retention above 180 days",
    declare: stream({ ndvr: { enabled: true, retentionDays: 181 } }),
    property: "ndvr.retentionDays",
    rule: /at most 180/,
  },
  {
    target: "TimeshiftStream",
    title: "record retention above 90 days",
    declare: stream({ record: { enabled: true, retentionDays: 91 } }),
    property: "record.retentionDays",
    rule: /at most 90/,
  },
  {
    target: "TimeshiftStream",
    title: "unknown codec",
    declare: stream({ codec: "vp9" }),
    property: "codec",
    rule: /"h264" or "h265"/,
  },
  {
    target: "TimeshiftStream",
    title: "unknown protocol",
    declare: stream({ protocols: ["HLS", "SRT"] }),
    property: "protocols[1]",
    rule: /HLS, RTMP, DASH or RTSP/,
  },
  {
    target: "TimeshiftStream",
    title: "no protocols",
    declare: stream({ protocols: [] }),
    property: "protocols",
    rule: /at least one protocol/,
  },
  {
    target: "TimeshiftStream",
    title: "empty name",
    declare: stream({ name: "" }),
    property: "name",
    rule: /must not be empty/,
  },
  {
    target: "TimeshiftStream",
    title: "missing name",
    declare: () => new cdn.TimeshiftStream("bad", { parent: 3001, timeshift: 300 } as any),
    property: "name",
    rule: /is required/,
  },
  {
    target: "TimeshiftStream",
    title: "delay of 0 seconds",
    declare: stream({ timeshift: 0 }),
    property: "timeshift",
    rule: /at least 1/,
  },
  {
    target: "TimeshiftStream",
    title: "parent of 0",
    declare: stream({ parent: 0 }),
    property: "parent",
    rule: /positive/,
  },
  {
    target: "TimeshiftStream",
    title: "malformed lock domain",
    declare: stream({ domainLock: { enabled: true, domains: ["https://player.example/x"] } }),
    property: "domainLock.domains[0]",
    rule: /host name/,
  },
  {
    target: "TimeshiftStream",
    title: "malformed lock IP",
    declare: stream({ domainLock: { enabled: true, ips: ["300.1.2.3"] } }),
    property: "domainLock.ips[0]",
    rule: /IP address or CIDR/,
  },
  {
    target: "TimeshiftStream",
    title: "CIDR prefix too long",
    declare: stream({ ipAccess: { enabled: true, addresses: ["10.0.0.0/33"] } }),
    property: "ipAccess.addresses[0]",
    rule: /IP address or CIDR/,
  },
  {
    target: "TimeshiftStream",
    title: "lower-case country code",
    declare: stream({ geoBlock: { enabled: true, countries: ["de"] } }),
    property: "geoBlock.countries[0]",
    rule: /alpha-2 code in capitals/,
  },
  {
    target: "TimeshiftStream",
    title: "unknown secure token policy",
    declare: stream({ secureToken: { enabled: true, policy: "rolling" } }),
    property: "secureToken.policy",
    rule: /"dynamic" \(D\) or "fixed" \(F\)/,
  },
  {
    target: "TimeshiftStream",
    title: "token timeout of 0",
    declare: stream({ secureToken: { enabled: true, timeoutSeconds: 0 } }),
    property: "secureToken.timeoutSeconds",
    rule: /at least 1/,
  },
  {
    target: "TimeshiftStream",
    title: "user-agent pattern with a comma",
    declare: stream({ userAgent: { enabled: true, patterns: ["curl,wget"] } }),
    property: "userAgent.patterns[0]",
    rule: /without commas/,
  },
  {
    target: "TimeshiftStream",
    title: "disabled as the API's 0/1",
    declare: stream({ disabled: 1 }),
    property: "disabled",
    rule: /true \(disabled\) or false \(enabled\)/,
  },
  {
    target: "TimeshiftStream",
    title: "non-numeric adoptId",
    declare: stream({ adoptId: "stream-5001" }),
    property: "adoptId",
    rule: /numeric id/,
  },
  {
    target: "TimeshiftStream",
    title: "misspelt group key",
    declare: stream({ ndvr: { enabled: true, retention: 30 } }),
    property: "ndvr.retention",
    rule: /not an input/,
  },
  {
    target: "TimeshiftStream",
    title: "delay as a string from stack config",
    config: "300",
    declare: (value) => stream({ timeshift: value })(),
    property: "timeshift",
    rule: /whole number.*not a string/,
  },

  // ---- StreamStatus (§4.4) ----
  {
    target: "StreamStatus",
    title: "unknown stream kind",
    declare: status({ streamKind: "pull" }),
    property: "streamKind",
    rule: /"push" or "timeshift"/,
  },
  {
    target: "StreamStatus",
    title: "empty stream id",
    declare: status({ streamId: "" }),
    property: "streamId",
    rule: /must not be empty/,
  },
  {
    target: "StreamStatus",
    title: "stream id of 0",
    declare: status({ streamId: 0 }),
    property: "streamId",
    rule: /positive/,
  },
  {
    target: "StreamStatus",
    title: "stream id with a slash",
    declare: status({ streamId: "30/01" }),
    property: "streamId",
    rule: /without slashes/,
  },
  {
    target: "StreamStatus",
    title: "disabled as the API's 0/1",
    declare: status({ disabled: 0 }),
    property: "disabled",
    rule: /true \(disable, `1`\) or false \(enable, `0`\)/,
  },
  {
    target: "StreamStatus",
    title: "disabled as a string from stack config",
    config: "true",
    declare: (value) => status({ disabled: value })(),
    property: "disabled",
    rule: /true \(disable.*not a string/,
  },

  // ---- CampaignArchive (§4.3) ----
  {
    target: "CampaignArchive",
    title: "project id of 0",
    declare: archive({ projectId: 0 }),
    property: "projectId",
    rule: /positive/,
  },
  {
    target: "CampaignArchive",
    title: "empty campaign id",
    declare: archive({ campaignId: "" }),
    property: "campaignId",
    rule: /must not be empty/,
  },
  {
    target: "CampaignArchive",
    title: "campaign id with a slash",
    declare: archive({ campaignId: "cmp/7Hq2xK9d" }),
    property: "campaignId",
    rule: /without slashes/,
  },
  {
    target: "CampaignArchive",
    title: "project id as a non-numeric string from stack config",
    config: "one",
    declare: (value) => archive({ projectId: value })(),
    property: "projectId",
    rule: /numeric id.*not a string/,
  },
  {
    target: "CampaignArchive",
    title: "campaign id as a number from stack config",
    config: 7,
    declare: (value) => archive({ campaignId: value })(),
    property: "campaignId",
    rule: /id string.*not a number/,
  },

  // ---- PushZoneSettings (§4.1) ----
  {
    target: "PushZoneSettings",
    title: "negative zone id",
    declare: pushZone({ zoneId: -101 }),
    property: "zoneId",
    rule: /positive/,
  },
  {
    target: "PushZoneSettings",
    title: "custom domain with a scheme",
    declare: pushZone({ customDomains: ["https://cdn.example.com"] }),
    property: "customDomains[0]",
    rule: /"https:\/\/cdn\.example\.com" must be a host name/,
  },
  {
    target: "PushZoneSettings",
    title: "a long bad custom domain, shown cut to 60 characters",
    declare: pushZone({ customDomains: ["cdn.example.com", `cdn.example.com/${"a".repeat(70)}`] }),
    property: "customDomains[1]",
    rule: /"cdn\.example\.com\/a{42}… must be a host name/,
  },
  {
    target: "PushZoneSettings",
    title: "custom domain with an empty label",
    declare: pushZone({ customDomains: ["cdn..example.com"] }),
    property: "customDomains[0]",
    rule: /host name/,
  },
  {
    target: "PushZoneSettings",
    title: "non-numeric transcoding profile",
    declare: pushZone({ transcodingProfiles: ["hd"] }),
    property: "transcodingProfiles[0]",
    rule: /numeric profile id/,
  },
  {
    target: "PushZoneSettings",
    title: "webhook that is not http(s)",
    declare: pushZone({ transcodeWebhook: "ftp://hooks.example.com/t" }),
    property: "transcodeWebhook",
    rule: /http\(s\) URL/,
  },
  {
    target: "PushZoneSettings",
    title: "no setting declared",
    declare: () => new cdn.PushZoneSettings("bad", { zoneId: 101 } as any),
    property: "customDomains",
    rule: /declare at least one/,
  },
  {
    target: "PushZoneSettings",
    title: "custom domains as a string from stack config",
    config: "cdn.example.com",
    declare: (value) => pushZone({ customDomains: value })(),
    property: "customDomains",
    rule: /list of host names.*not a string/,
  },

  // ---- VodPullDomainLock (§4.5) ----
  {
    target: "VodPullDomainLock",
    title: "domain with a space",
    declare: vodLock({ domains: ["exa mple.com"] }),
    property: "domains[0]",
    rule: /host name/,
  },
  {
    target: "VodPullDomainLock",
    title: "IPv4 with three parts",
    declare: vodLock({ ips: ["10.0.1"] }),
    property: "ips[0]",
    rule: /IP address or CIDR/,
  },
  {
    target: "VodPullDomainLock",
    title: "IPv6 prefix above 128",
    declare: vodLock({ ips: ["2001:db8::/129"] }),
    property: "ips[0]",
    rule: /IP address or CIDR/,
  },
  {
    target: "VodPullDomainLock",
    title: "policy not Y/N",
    declare: vodLock({ policy: "allow" }),
    property: "policy",
    rule: /"Y" or "N"/,
  },
  {
    target: "VodPullDomainLock",
    title: "enabled as the API's Y",
    declare: vodLock({ enabled: "Y" }),
    property: "enabled",
    rule: /true \(`Y`\) or false \(`N`\)/,
  },
  {
    target: "VodPullDomainLock",
    title: "zone id as a string",
    declare: vodLock({ zoneId: "401" }),
    property: "zoneId",
    rule: /numeric id/,
  },
  {
    target: "VodPullDomainLock",
    title: "no setting declared",
    declare: () => new cdn.VodPullDomainLock("bad", { zoneId: 401 } as any),
    property: "active",
    rule: /declare at least one/,
  },

  // ---- HttpDomainLockBulk (§4.11) ----
  {
    target: "HttpDomainLockBulk",
    title: "unknown mode",
    declare: bulkLock({ mode: "replace" }),
    property: "mode",
    rule: /"save", "append" or "overwrite"/,
  },
  {
    target: "HttpDomainLockBulk",
    title: "missing mode",
    declare: () => new cdn.HttpDomainLockBulk("bad", { enabled: true } as any),
    property: "mode",
    rule: /"save", "append" or "overwrite"/,
  },
  {
    target: "HttpDomainLockBulk",
    title: "double wildcard domain",
    declare: bulkLock({ domains: ["*.*.example.com"] }),
    property: "domains[0]",
    rule: /host name/,
  },
  {
    target: "HttpDomainLockBulk",
    title: "noreferer as a boolean",
    declare: bulkLock({ noreferer: true }),
    property: "noreferer",
    rule: /"Y" or "N"/,
  },
  {
    target: "HttpDomainLockBulk",
    title: "ips as a number from stack config",
    config: 10,
    declare: (value) => bulkLock({ ips: value })(),
    property: "ips",
    rule: /list of IP addresses.*not a number/,
  },
  {
    target: "HttpDomainLockBulk",
    title: "unknown input",
    declare: bulkLock({ list: "a.example" }),
    property: "list",
    rule: /not an input/,
  },

  // ---- data sources (§4.6-§4.18) ----
  {
    target: "getAdTrackingReport",
    title: "granularity outside the set",
    declare: () => cdn.getAdTrackingReport({ streamId: 3001, granularity: 7 as any }),
    property: "granularity",
    rule: /one of 1, 5, 10, 15, 30, 60/,
  },
  {
    target: "getAdTrackingReport",
    title: "range over granularity x 1440",
    declare: () =>
      cdn.getAdTrackingReport({ streamId: 3001, granularity: 1, r: "2025-01-01 00:00:00 - 2025-01-02 00:00:01" }),
    property: "r",
    rule: /more than granularity 1 x 1440 = 1440 minutes/,
  },
  {
    target: "getAdTrackingReport",
    title: "empty stream id",
    declare: () => cdn.getAdTrackingReport({ streamId: "" as any }),
    property: "streamId",
    rule: /whole number above 0.*not a string/,
  },
  {
    target: "getAdConsumption",
    title: "unknown groupBy",
    declare: () =>
      cdn.getAdConsumption({
        streamId: 4001,
        groupBy: "minute" as any,
        r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00",
      }),
    property: "groupBy",
    rule: /year, month, week, day or hour/,
  },
  {
    target: "getAdConsumption",
    title: "missing range",
    declare: () => cdn.getAdConsumption({ streamId: 4001, groupBy: "day" } as any),
    property: "r",
    rule: /is required/,
  },
  {
    target: "getAdBreaks",
    title: "unknown break type",
    declare: () => cdn.getAdBreaks({ zoneId: 401, breakType: "post-roll" as any }),
    property: "breakType",
    rule: /"pre-roll" or "mid-roll"/,
  },
  {
    target: "getAdBreaks",
    title: "page 0",
    declare: () => cdn.getAdBreaks({ zoneId: 401, page: 0 }),
    property: "page",
    rule: /1 or more/,
  },
  {
    target: "getAdCreative",
    title: "empty creative id",
    declare: () => cdn.getAdCreative({ zoneId: 301, crid: "" }),
    property: "crid",
    rule: /must not be empty/,
  },
  {
    target: "getPurgeOperation",
    title: "non-numeric zone id",
    declare: () => cdn.getPurgeOperation({ zoneId: "push-101" as any, purgeId: "pg-8b41d0e5" }),
    property: "zoneId",
    rule: /whole number/,
  },
  {
    target: "getCampaignTargeting",
    title: "empty campaign id",
    declare: () => cdn.getCampaignTargeting({ projectId: 1, campaignId: "" }),
    property: "campaignId",
    rule: /must not be empty/,
  },
  {
    target: "getAdPodRequests",
    title: "impossible date",
    declare: () => cdn.getAdPodRequests({ projectId: 1, from: "2025-02-30" }),
    property: "from",
    rule: /real date/,
  },
  {
    target: "getAdPodRequests",
    title: "content ids as a string from stack config",
    config: "episode-1",
    declare: (value) => cdn.getAdPodRequests({ projectId: 1, contentIds: value }),
    property: "contentIds",
    rule: /list.*not a string/,
  },
  {
    target: "getAdPodRequests",
    title: "API spelling of an argument",
    declare: () => cdn.getAdPodRequests({ projectId: 1, content_ids: ["a"] } as any),
    property: "content_ids",
    rule: /did you mean `contentIds`/,
  },
  {
    target: "getCriticalBackup",
    title: "backup id of 0",
    declare: () => cdn.getCriticalBackup({ backupId: 0 }),
    property: "backupId",
    rule: /whole number above 0/,
  },
  {
    target: "getCriticalBackup",
    title: "backup id as a non-numeric string from stack config (Output form)",
    config: "nightly",
    declare: (value) => cdn.getCriticalBackupOutput({ backupId: value }),
    property: "backupId",
    rule: /whole number/,
  },
  {
    target: "getHttpPullZones",
    title: "page 0",
    declare: () => cdn.getHttpPullZones({ page: 0 }),
    property: "page",
    rule: /1 or more/,
  },
  {
    target: "getDnsZones",
    title: "an argument it does not take",
    declare: () => cdn.getDnsZones({ zone: "northwind.example" } as any),
    property: "zone",
    rule: /not an argument of getDnsZones/,
  },
];

/** The value of a data source's result, a Promise or an Output; resources are declared as they are. */
async function settled(result: unknown): Promise<unknown> {
  if (!pulumi.Output.isInstance(result)) return result;
  // A failed Output rejects its value and its `isKnown` / `isSecret` promises: only the value's is observed.
  const internal = result as unknown as {
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
    promise(): Promise<unknown>;
  };
  internal.isKnown.catch(() => undefined);
  internal.isSecret.catch(() => undefined);
  return internal.promise();
}

/**
 * The cases CI's newest leg runs (sdkOffLock): the first of each kind and data source, and the
 * first that takes its value from stack config. A newer SDK or CLI can change how an error
 * travels (the dynamic provider's host, the engine's rendering of a check failure, a program's
 * logged error), which these cover; the rules themselves are this package's, and the floor leg
 * runs every case.
 */
function sampledOffLock(index: number): boolean {
  const item = cases[index]!;
  return (
    cases.findIndex((other) => other.target === item.target) === index ||
    cases.findIndex((other) => other.config !== undefined) === index
  );
}

describe("bad-input catalogue: rejected at preview, property and rule named, nothing sent", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let current: { index: number; item: BadInput };

  const program = async () => {
    const { index, item } = current;
    const value = item.config === undefined ? undefined : new pulumi.Config("badinput").requireObject(`case${index}`);
    try {
      await settled(item.declare(value));
    } catch (err) {
      // What the Pulumi runtime does with an error a program leaves uncaught: log its message as
      // an error, which fails the run. Left uncaught here, it would also be an unhandled
      // rejection in this jest process, which fails the jest test whatever the preview did.
      pulumi.log.error((err as Error).message);
    }
  };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    const values = cases.flatMap((item, index) =>
      item.config === undefined ? [] : [[`badinput:case${index}`, { value: JSON.stringify(item.config) }]],
    );
    // The key in stack config: data sources run in this process, which has no CDNSTREAM_API_KEY.
    // With the key and the base URL at hand, a missing check would reach the emulator.
    test = await createTestStack({ program, config: { ...emulator.stackConfig(), ...Object.fromEntries(values) } });
  });
  afterAll(async () => {
    await test?.cleanup();
    await emulator?.close();
  });

  it("catalogues at least 45 cases across the 7 kinds and 8+ data-source cases", () => {
    const kinds = [
      "AdBreakSlot",
      "TimeshiftStream",
      "StreamStatus",
      "CampaignArchive",
      "PushZoneSettings",
      "VodPullDomainLock",
      "HttpDomainLockBulk",
    ];
    expect(cases.length).toBeGreaterThanOrEqual(45);
    expect(kinds.filter((kind) => !cases.some((c) => c.target === kind))).toEqual([]);
    expect(cases.filter((c) => c.target.startsWith("get")).length).toBeGreaterThanOrEqual(8);
  });

  it.each(
    cases
      .map((item, index) => [`${item.target}: ${item.title}`, index] as const)
      .filter(([, index]) => !sdkOffLock || sampledOffLock(index)),
  )("%s", async (_title, index) => {
    const item = cases[index]!;
    current = { index, item };
    await emulator.clearRequests();
    const text = await failedPreviewText(test.stack);
    // The property and the rule on one line: the rule is said of that property.
    const property = escape(item.property);
    expect(text).toMatch(new RegExp(`${property}[^\\n]*${item.rule.source}|${item.rule.source}[^\\n]*${property}`));
    expect(await emulator.requestCounts()).toEqual({});
  });
});
