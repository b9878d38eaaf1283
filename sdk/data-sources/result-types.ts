/**
 * The types scripts/gen-data-source-types.ts writes into the data sources' `*-types.ts` files:
 * for each, the client schema it follows and what only the data sources know (fields they drop,
 * flatten or add, the type's own doc). Each field's doc is the JSDoc on that field of the client's
 * schema, which the generator reads with the type checker. Only the generator loads this module,
 * so nothing here reaches a program or the SDK's exports. @internal
 */

/**
 * One type scripts/gen-data-source-types.ts writes: the client schema it follows and what only the
 * data source knows. Each field's doc is the JSDoc on that field of the client's schema, so the
 * docs follow the schemas and cost nothing when the client loads.
 */
export interface ResultType {
  /**
   * The type it is derived from: a type expression over `z` and the client modules by namespace
   * (`zones`, `adInsertion`, `adManager`, `dns`, `backups`, `shapes`), e.g. `z.output<typeof zones.Zone>`.
   */
  from: string;
  /** A path inside that type, in API names (`dnssec.ds_records[]`: the items of that array). */
  at?: string;
  /** API fields the data source drops (`result`: a value means success). */
  omit?: string[];
  /** An object field whose fields the data source returns at the top level. */
  flatten?: string;
  /**
   * The data source's own fields, written first: arguments that are not in the client's request
   * schema (the path parameters, under the names programs write).
   */
  own?: Record<string, { type: string; doc: string; optional?: boolean }>;
  /** Generated types whose fields this one has, of the same types: written `extends`, not again. */
  extends?: string[];
  /** The same for a nested object, by its camelCase path: written `Base & { ... }`. */
  extendsAt?: Record<string, string[]>;
  /** The type's doc. */
  doc: string;
  /**
   * Documented fields (spec §2) the client's schema does not declare yet, by camelCase path, so
   * the published type keeps them; the generator fails once the client declares one.
   */
  extra?: Record<string, { type: string; doc: string }>;
}

/** One generated file: its doc and its types. */
export interface ResultFile {
  about: string;
  types: Record<string, ResultType>;
}

/** The output type of a client schema, as a `from`. */
export const out = (schema: string) => `z.output<typeof ${schema}>`;
/** A data source's result: the response as `toResult` (./invoke.ts) returns it, keeping the envelope's fields. */
export const result = (response: string, type: Omit<ResultType, "from">): ResultType => ({
  from: out(response),
  omit: ["result"],
  extends: ["ResultEnvelope"],
  ...type,
});
/** The end of each result file's doc. */
export const KEPT = "Fields beyond the spec are kept at runtime, camelCased too (read them through a cast).";

/** The types of common-types.ts, which scripts/gen-data-source-types.ts writes (ResultType). */
export const commonTypes: ResultFile = {
  about: "Fields the results of several data sources share.",
  types: {
    ResultEnvelope: {
      from: 'Omit<z.output<z.ZodObject<typeof shapes.envelope>>, "result">',
      doc: "The response envelope fields a result keeps (`result` is dropped: a value means success).",
    },
    PageFields: {
      from: "z.output<z.ZodObject<typeof shapes.pageCounters>>",
      doc:
        "Paging fields of `POST /v2/ad-manager/{pid}/requests` and `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`: all of them when a `page` was asked for; `total` alone when " +
        "every page was read.",
    },
  },
};

/** The types of zone-types.ts, which scripts/gen-data-source-types.ts writes (ResultType). @internal */
export const zoneTypes: ResultFile = {
  about:
    "Result types of the zone data sources: the zone object with its sub-objects and the access-control objects, and " +
    "the purge operation, camelCased by naming.ts. Values are as the API sends them: " +
    "`Y`/`N` and `0`/`1` flags stay strings " +
    "(another word the API sends passes too: the spec leaves other values unnamed), and numbers the API sometimes " +
    `sends as numeric strings arrive as numbers. ${KEPT}`,
  types: {
    ZoneSsl: {
      from: out("zones.ZoneSsl"),
      doc: "the zone sub-objects ssl. The issuer-branded certificate object (`<issuer>`) is kept under its own key.",
    },
    ZoneCache: {
      from: out("zones.ZoneCache"),
      doc: "the zone sub-objects cache; durations as strings with a unit suffix, `*InSecs`/`*InMins` as numbers.",
    },
    ZoneEdge: {
      from: out("zones.ZoneEdge"),
      doc: "the zone sub-objects edge: what the edge servers do with responses.",
    },
    ZoneShield: { from: out("zones.ZoneShield"), doc: "the zone sub-objects shield: the origin shield." },
    ZoneOriginAuth: {
      from: out("zones.ZoneOriginAuth"),
      doc: "the zone sub-objects origin_auth: how the zone authenticates to its origin; the S3 keys arrive masked.",
    },
    ZoneSeo: { from: out("zones.ZoneSeo"), doc: "the zone sub-objects seo." },
    ZoneCdnService: {
      from: out("zones.ZoneCdnService"),
      doc: "the zone sub-objects cdnservice; `authToken` is a credential. Push zones add their service addresses (`infoUrl`, ...).",
    },
    ZoneDomainLock: {
      from: out("shapes.DomainLock"),
      doc: "the access-control objects domainlock. `policy` and `noReferer` keep `Y`/`N`: the access-control objects describes them three conflicting ways.",
    },
    ZoneGeoBlock: { from: out("shapes.GeoBlock"), doc: "the access-control objects geoblock." },
    ZoneIpAccess: { from: out("shapes.IpAccess"), doc: "the access-control objects ipaccess." },
    ZoneUserAgent: { from: out("shapes.UserAgent"), doc: "the access-control objects useragent." },
    ZoneSecureToken: {
      from: out("shapes.SecureToken"),
      doc: "the access-control objects securetoken; `list` is the key (a credential).",
    },
    ZoneEac: { from: out("shapes.Eac"), doc: "the access-control objects eac: external access control." },
    ZoneBwLimit: { from: out("shapes.BwLimit"), doc: "the access-control objects bwlimit: bandwidth limit." },
    HttpPullZone: {
      from: out("zones.Zone"),
      doc:
        "The zone object as listed by `GET /v2/zones/http/pull` (HTTP pull zones), camelCased. Which fields appear " +
        "depends on the zone; the push-only and VoD-only fields of the zone object are listed too.",
      extra: {
        modeI: { type: "string", doc: "Pull list only; observed `vod`." },
        optimize: { type: "string", doc: "Pull list only; observed `live`." },
        baseDirectory: { type: "string", doc: "Pull zones: base directory at the origin." },
        defaultBehaviors: { type: "Record<string, unknown>", doc: "Default behaviours, as sent." },
        behaviorId: { type: "number", doc: "Behaviour id." },
        cloudSignatureV4: { type: "string", doc: "Pull zones: cloud signature v4 setting." },
        router: { type: "string", doc: "Router, as the API sends it." },
        "s3Details.projectId2": { type: "string", doc: "Second project id." },
        "s3Details.token2": { type: "string", doc: "Second access token (a credential)." },
      },
    },
    PurgeLog: {
      from: out("zones.PurgeOperation"),
      at: "logs[]",
      doc: "`logs[]` of the purge operation item: one server's progress.",
    },
    PurgeOperation: {
      from: out("zones.PurgeOperation"),
      doc: "the purge operation purge / prefetch operation, camelCased.",
    },
  },
};

/** The types of ad-insertion-types.ts, which scripts/gen-data-source-types.ts writes (ResultType). @internal */
export const adInsertionTypes: ResultFile = {
  about: `Argument and result types of the ad insertion data sources (\`GET /v2/streams/push/{streamid}/adinsertion/tracking/reports\`, \`POST /v2/streams/pull/{streamid}/adinsertion/consumption\`, \`GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks\`; the tracking report to the ad creative), camelCased by naming.ts. ${KEPT}`,
  types: {
    AdAnalyticsFilters: {
      from: "z.input<typeof adInsertion.TrackingReportQuery>",
      omit: ["granularity"],
      doc: "Filters of the ad analytics reads (`GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`, `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`). All but `r`, `crid` and `sessionId` need the advanced analytics add-on.",
    },
    GetAdTrackingReportArgs: {
      from: "z.input<typeof adInsertion.TrackingReportQuery>",
      extends: ["AdAnalyticsFilters"],
      doc: "Arguments of `getAdTrackingReport` (`GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`, custom plan).",
      own: {
        streamId: {
          type: "number",
          doc: "The push stream (`{streamid}` of `GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`).",
        },
      },
    },
    GetAdConsumptionArgs: {
      from: "z.input<typeof adInsertion.ConsumptionBody>",
      doc: "Arguments of `getAdConsumption` (`POST /v2/streams/pull/{streamid}/adinsertion/consumption`, custom plan).",
      own: {
        streamId: {
          type: "number",
          doc: "The pull stream (`{streamid}` of `POST /v2/streams/pull/{streamid}/adinsertion/consumption`).",
        },
      },
    },
    GetAdBreaksArgs: {
      from: "z.input<typeof adInsertion.AdBreaksQuery>",
      extends: ["AdAnalyticsFilters"],
      doc: "Arguments of `getAdBreaks` (`GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`, custom plan and advanced analytics add-on).",
      own: {
        zoneId: {
          type: "number",
          doc: "The VoD pull zone (`{zoneid}` of `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`).",
        },
      },
    },
    AdTrackingGranularity: {
      from: "(typeof adInsertion.GRANULARITIES)[number]",
      doc: "Bucket sizes of the ad tracking report, in minutes (`GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`): the client's list, which it validates.",
    },
    TrackingCounts: {
      from: out("adInsertion.TrackingReport"),
      at: "data[]",
      omit: ["time"],
      doc: "The per-bucket counters of the tracking report.",
    },
    GetAdTrackingReportResult: result("adInsertion.TrackingReport", {
      doc: "Result of `getAdTrackingReport` (the tracking report).",
      extendsAt: { summary: ["TrackingCounts"], data: ["TrackingCounts"] },
    }),
    ConsumptionPoint: {
      from: out("adInsertion.Consumption"),
      at: "adInsertionsChart[]",
      doc: "A chart point of the ad consumption report: a bucket label and its value.",
    },
    GetAdConsumptionResult: result("adInsertion.Consumption", {
      doc: "Result of `getAdConsumption` (the ad consumption report; egress in bytes).",
    }),
    AdBreak: {
      from: out("adInsertion.AdBreak"),
      doc: "the ad-break log item ad break log item (already camelCase in the API).",
    },
    GetAdBreaksResult: result("adInsertion.ops.listAdBreaks.response", {
      doc: "Result of `getAdBreaks`.",
      extends: ["ResultEnvelope", "PageFields"],
    }),
    GetAdCreativeResult: result("adInsertion.Creative", { doc: "Result of `getAdCreative` (the ad creative)." }),
  },
};

/** The types of ad-manager-types.ts, which scripts/gen-data-source-types.ts writes (ResultType). @internal */
export const adManagerTypes: ResultFile = {
  about: `Argument and result types of the ad manager data sources (\`POST /v2/ad-manager/{pid}/requests\`; the ad-pod request log item, the ad-manager project, the campaign targeting), camelCased by naming.ts. ${KEPT}`,
  types: {
    SkipRule: {
      from: out("adManager.Project"),
      at: "settings.skip_policy.default",
      doc: "A the ad-manager project skip rule.",
    },
    AdManagerProject: {
      from: out("adManager.Project"),
      doc: "the ad-manager project ad manager project, camelCased.",
      extendsAt: { "settings.skipPolicy.rules": ["SkipRule"] },
    },
    GetAdManagerProjectsResult: result("adManager.ops.listProjects.response", {
      doc: "Result of `getAdManagerProjects` (`GET /v2/ad-manager`).",
    }),
    GetCampaignTargetingResult: result("adManager.ops.getTargeting.response", {
      doc: "Result of `getCampaignTargeting`: the campaign targeting at the top level, and `fromCache`.",
      flatten: "targeting",
    }),
    GetAdPodRequestsArgs: {
      from: "z.input<typeof adManager.AdPodRequestsBody>",
      doc: "Arguments of `getAdPodRequests` (`POST /v2/ad-manager/{pid}/requests`). List filters match any of their values.",
      own: {
        projectId: {
          type: "number",
          doc: "The ad manager project (`{pid}` of `POST /v2/ad-manager/{pid}/requests`).",
        },
      },
    },
    AdPodRequest: {
      from: out("adManager.AdPodRequest"),
      doc: "the ad-pod request log item ad-pod request log item, camelCased (`publisher_id` -> `publisherId`).",
    },
    GetAdPodRequestsResult: result("adManager.ops.listAdPodRequests.response", {
      doc: "Result of `getAdPodRequests`.",
      extends: ["ResultEnvelope", "PageFields"],
    }),
  },
};

/** The types of backup-types.ts, which scripts/gen-data-source-types.ts writes (ResultType). @internal */
export const backupTypes: ResultFile = {
  about: `Result types of the critical backup data sources (the critical backup job), camelCased by naming.ts. ${KEPT}`,
  types: {
    CriticalBackup: { from: out("backups.Backup"), doc: "the critical backup job critical backup job, camelCased." },
    GetCriticalBackupsResult: result("backups.ops.listBackups.response", {
      doc: "Result of `getCriticalBackups` (`GET /v2/cb`).",
    }),
    GetCriticalBackupResult: result("backups.ops.getBackup.response", {
      doc: "Result of `getCriticalBackup` (`GET /v2/cb/{backupid}`): the job's the critical backup job fields at the top level.",
      flatten: "backup",
    }),
  },
};

/** The types of dns-types.ts, which scripts/gen-data-source-types.ts writes (ResultType). @internal */
export const dnsTypes: ResultFile = {
  about: `Result types of the DNS data source (the DNS zone object), camelCased by naming.ts. ${KEPT}`,
  types: {
    DnsZoneMeta: { from: out("dns.DnsZone"), at: "meta", doc: "`meta` of the DNS zone object of a DNS zone." },
    DnsDsRecord: {
      from: out("dns.DnsZone"),
      at: "dnssec.ds_records[]",
      doc: "`dnssec.ds_records[]` of the DNS zone object item.",
    },
    DnsZone: { from: out("dns.DnsZone"), doc: "the DNS zone object DNS zone (`domains[]` item), camelCased." },
    GetDnsZonesResult: result("dns.ops.listDnsZones.response", { doc: "Result of `getDnsZones` (`GET /v2/dns`)." }),
  },
};
