/**
 * The one place the data sources' result types are declared: for each type, the client schema it
 * is derived from and the docs users read in their editor, for the type and for each field.
 * scripts/gen-data-source-types.ts writes the `*-types.ts` files from it; it fails on a field
 * without a doc here and on a doc here for a field the derived type does not have, so the docs
 * follow the client's schemas. Field names are the camelCase names the data sources return
 * (naming.ts); a renamed field's API name is added to its doc by the generator. Nested fields are
 * keyed by their path (`settings.timezone`; an array's items by the array's name).
 *
 * Only the generator reads this module: every export is `@internal` (kept out of the published
 * declarations).
 */

/** One generated type. @internal */
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
  /** Each field's doc, by its camelCase path. */
  fields?: Record<string, string>;
  /**
   * Documented fields (spec §2) the client's schema does not declare yet, by camelCase path, so
   * the published type keeps them; the generator fails once the client declares one.
   */
  extra?: Record<string, { type: string; doc: string }>;
}

/** One generated file. @internal */
export interface ResultFile {
  /** The file's doc. */
  about: string;
  types: Record<string, ResultType>;
}

const out = (schema: string) => `z.output<typeof ${schema}>`;
/** A data source's result: the response without `result` (a value means success), keeping the envelope's fields. */
const result = (response: string, type: Omit<ResultType, "from">): ResultType => ({
  from: out(response),
  omit: ["result"],
  extends: ["ResultEnvelope"],
  ...type,
});
/** `docs` with each key under `prefix` (`summary.`). */
const under = (prefix: string, docs: Record<string, string>) =>
  Object.fromEntries(Object.entries(docs).map(([k, v]) => [`${prefix}.${k}`, v]));

const KEPT = "Fields beyond the spec are kept at runtime, camelCased too (read them through a cast).";

/** §2.1 envelope fields a result keeps (`result` is dropped: a value means success). */
const ENVELOPE = {
  message: "Human-readable outcome, when the API sends one (the response envelope).",
  warnings: "Non-fatal messages, when the API sends them (the response envelope).",
  errors: "Errors returned with the response, when the API sends them (the response envelope).",
};
/** Paging fields of §4.7 and §4.9. */
const PAGE = {
  total: "Items matching the filters, as the API counts them (on page 1 when every page was read).",
  page: "The page returned (only when a `page` was asked for).",
  limit: "Items per page (only when a `page` was asked for).",
  pages: "Page count (only when a `page` was asked for).",
};
const YN = (what: string) => `\`Y\` when ${what}, \`N\` when not.`;
/** Fields every §2.4 access-control object shares. */
const ACCESS = {
  enabled: YN("the control is enabled"),
  active: YN("the control is active"),
  ips: "Comma-separated IPs the control lets through regardless of its list.",
};
/** §2.9 counters, per bucket and in the summary. */
const COUNTS = {
  impressions: "Ad impressions.",
  starts: "Ads started.",
  firstQuartiles: "Ads played to 25%.",
  midpoints: "Ads played to 50%.",
  thirdQuartiles: "Ads played to 75%.",
  completes: "Ads played to the end.",
};
const SKIP_RULE = {
  skippable: "Whether the viewer may skip the ad.",
  offsetType: "How `offsetValue` is measured (e.g. seconds or percent), as the API sends it.",
  offsetValue: "When the skip button appears, in the unit `offsetType` names.",
};
/** Targeting lists (§2.16) and the filters of the same name (a campaign or a filter matches any of the values). */
const TARGETS = {
  categories: "Content categories.",
  devices: "Device types.",
  placements: "Placements.",
  languages: "Languages.",
  oses: "Operating systems.",
  browsers: "Browsers.",
};
const GEO_IDS = {
  continentGeonameIds: "Continent geoname ids.",
  countryGeonameIds: "Country geoname ids.",
  subdivision1GeonameIds: "First-level subdivision geoname ids.",
  subdivision2GeonameIds: "Second-level subdivision geoname ids.",
  cityGeonameIds: "City geoname ids.",
};

/** Every generated file, by name in sdk/data-sources. @internal */
export const RESULT_FILES: Record<string, ResultFile> = {
  "common-types.ts": {
    about: "Fields the results of several data sources share.",
    types: {
      ResultEnvelope: {
        from: 'Omit<z.output<z.ZodObject<typeof shapes.envelope>>, "result">',
        doc: "The response envelope fields a result keeps (`result` is dropped: a value means success).",
        fields: ENVELOPE,
      },
      PageFields: {
        from: "z.output<z.ZodObject<typeof shapes.pageCounters>>",
        doc:
          "Paging fields of `POST /v2/ad-manager/{pid}/requests` and `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`: all of them when a `page` was asked for; `total` alone when " +
          "every page was read.",
        fields: PAGE,
      },
    },
  },
  "zone-types.ts": {
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
        fields: {
          http: YN("the zone serves HTTPS"),
          http2: YN("HTTP/2 is on"),
          redirect: YN("HTTP requests are redirected to HTTPS"),
          mode: "Certificate mode; observed `S`.",
          certId: "The certificate's id, or null.",
          enabled: YN("SSL is enabled"),
          warning: "Whether the API flags the certificate setup.",
        },
      },
      ZoneCache: {
        from: out("zones.ZoneCache"),
        doc: "the zone sub-objects cache; durations as strings with a unit suffix, `*InSecs`/`*InMins` as numbers.",
        fields: {
          smart: "`1` when smart caching is on, `0` when not.",
          cache: "Cache duration, with a unit suffix.",
          expiry: "Browser expiry duration, with a unit suffix.",
          queryString: YN("the query string is part of the cache key"),
          cacheControl: YN("the origin's Cache-Control is honoured"),
          useStale: YN("stale content is served while the origin fails"),
          revalidate: YN("stale content is revalidated"),
          cacheInSecs: "Cache duration in seconds.",
          cacheInMins: "Cache duration in minutes.",
          expiryInSecs: "Expiry in seconds.",
          expiryInMins: "Expiry in minutes.",
        },
      },
      ZoneEdge: {
        from: out("zones.ZoneEdge"),
        doc: "the zone sub-objects edge: what the edge servers do with responses.",
        fields: {
          compression: YN("responses are compressed"),
          disposition: YN("Content-Disposition handling is on"),
          stripCookie: YN("cookies are stripped"),
          xff: YN("X-Forwarded-For is sent to the origin"),
          cors: YN("CORS headers are added"),
          webp: YN("WebP images are served to browsers that take them"),
          pseudoStreaming: YN("pseudo-streaming is on"),
          wp: YN("WordPress mode is on"),
          lfo: YN("large file optimization is on"),
          prefresh: YN("prefresh is on"),
          compressionLevel: "Compression level.",
        },
      },
      ZoneShield: {
        from: out("zones.ZoneShield"),
        doc: "the zone sub-objects shield: the origin shield.",
        fields: {
          network: "The shield network.",
          enabled: YN("the shield is enabled"),
          shields: "Country codes of the shield locations.",
        },
      },
      ZoneOriginAuth: {
        from: out("zones.ZoneOriginAuth"),
        doc: "the zone sub-objects origin_auth: how the zone authenticates to its origin; the S3 keys arrive masked.",
        fields: {
          type: "The authentication kind; observed `none`.",
          s3MidgressCacheSize: "S3 midgress cache size, as a string.",
          s3AccessKeyId: "S3 access key id (masked).",
          s3AccessKeySecret: "S3 secret key (masked).",
        },
      },
      ZoneSeo: {
        from: out("zones.ZoneSeo"),
        doc: "the zone sub-objects seo.",
        fields: {
          id: "The SEO settings' id.",
          type: "SEO type.",
          canonical: "Canonical header setting.",
          mode: "SEO mode.",
          robots: "Robots setting.",
          robotsTxt: "Which robots.txt is served.",
          robotsTxtCustom: "A custom robots.txt.",
          enabled: "Whether SEO settings are enabled, as the API sends it.",
        },
      },
      ZoneCdnService: {
        from: out("zones.ZoneCdnService"),
        doc: "the zone sub-objects cdnservice; `authToken` is a credential. Push zones add their service addresses (`infoUrl`, ...).",
        fields: {
          purgeUrls: "Purge endpoints.",
          purgeUrl: "The purge endpoint.",
          authToken: "The service's auth token (a credential).",
        },
      },
      ZoneDomainLock: {
        from: out("shapes.DomainLock"),
        doc: "the access-control objects domainlock. `policy` and `noReferer` keep `Y`/`N`: the access-control objects describes them three conflicting ways.",
        fields: {
          ...ACCESS,
          policy: "`Y` or `N`; whether `Y` allows or denies the listed domains, the access-control objects says both.",
          noReferer:
            "`Y` or `N`; whether `Y` allows or blocks requests without a referer, the access-control objects says both.",
          list: "Comma-separated domains.",
          type: "Domain lock type (push zones).",
        },
      },
      ZoneGeoBlock: {
        from: out("shapes.GeoBlock"),
        doc: "the access-control objects geoblock.",
        fields: { ...ACCESS, policy: YN("the listed countries are allowed"), list: "Country codes." },
      },
      ZoneIpAccess: {
        from: out("shapes.IpAccess"),
        doc: "the access-control objects ipaccess.",
        fields: { ...ACCESS, policy: YN("the listed IPs are allowed"), list: "Comma-separated IPs/CIDR." },
      },
      ZoneUserAgent: {
        from: out("shapes.UserAgent"),
        doc: "the access-control objects useragent.",
        fields: {
          ...ACCESS,
          policy: YN("the listed user agents are allowed"),
          caseSensitive: YN("patterns match case-sensitively"),
          list: "Patterns joined by `;;;`.",
          listArr: "The same patterns as an array.",
        },
      },
      ZoneSecureToken: {
        from: out("shapes.SecureToken"),
        doc: "the access-control objects securetoken; `list` is the key (a credential).",
        fields: {
          ...ACCESS,
          policy: "`F` fixed or `D` dynamic token.",
          keyIp: YN("the token is bound to the viewer's IP"),
          list: "The token key (a credential).",
          timeout: "Token lifetime in seconds.",
          session: "Session limit, `0` = unlimited.",
          dirs: "Protected directories, or null.",
        },
      },
      ZoneEac: {
        from: out("shapes.Eac"),
        doc: "the access-control objects eac: external access control.",
        fields: { ...ACCESS, policy: YN("the external check allows by default"), list: "URL of the auth script." },
      },
      ZoneBwLimit: {
        from: out("shapes.BwLimit"),
        doc: "the access-control objects bwlimit: bandwidth limit.",
        fields: {
          enabled: ACCESS.enabled,
          active: ACCESS.active,
          policy: "Limit policy (an integer).",
          rate: "Rate limit.",
          rateAfter: "Rate limit after the initial burst.",
          payg: YN("pay-as-you-go applies"),
        },
      },
      HttpPullZone: {
        from: out("zones.Zone"),
        doc:
          "The zone object as listed by `GET /v2/zones/http/pull` (HTTP pull zones), camelCased. Which fields appear " +
          "depends on the zone; the push-only and VoD-only fields of the zone object are listed too.",
        fields: {
          id: "Zone id.",
          type: "`pull` in this list.",
          serviceId: "Account service id.",
          alias: "Zone alias.",
          hashId: "Zone hash identifier.",
          mode: "Observed `http`.",
          name: "Zone name.",
          fqdn: "Zone domain.",
          fqdnVoD: "Domain of a VoD pull zone.",
          status: "Observed `Enabled` (pull), `active` (push).",
          disabled: "`0` enabled, `1` disabled.",
          optimizer: "`0`/`1` flag.",
          isCms: "`0`/`1` flag.",
          live: YN("the zone serves live content"),
          origin: "Origin URL.",
          backup: "Backup origin URL.",
          hostHeader: "Host header sent to the origin.",
          customHostHeader: "Custom host header setting.",
          cnames: "Custom domain(s).",
          cnamesArr: "Custom domains as an array.",
          cnamesArrFqdn: "Fully qualified domains.",
          originIp: "Origin IP setting.",
          "originIp.enabled": YN("it is on"),
          waf: "Web application firewall.",
          "waf.enabled": YN("it is on"),
          wafId: "The firewall's id, or null.",
          edgeRuleIds: "Edge rule id.",
          edgeRules: "Edge rules, as sent.",
          hasEdgeRules: "Whether the zone has edge rules.",
          dnsCheck: "DNS check result.",
          ip: "Zone IP, or null.",
          proxied: "Whether the zone is proxied.",
          rclone: "Push zones: rclone flag.",
          remaining: "Remaining, as the API counts it.",
          createdAt: "`YYYY-MM-DD HH:MM:SS` in this list (ISO 8601 UTC in the push update response).",
          updatedAt: "As `createdAt`.",
          deleted:
            'Null, or when the zone was deleted: a date string or Unix seconds (the zone object "null or timestamp").',
          ssl: "SSL settings (the zone sub-objects).",
          cache: "Cache settings (the zone sub-objects).",
          edge: "Edge settings (the zone sub-objects).",
          shield: "Origin shield (the zone sub-objects).",
          originAuth: "Origin authentication (the zone sub-objects).",
          seo: "SEO settings (the zone sub-objects).",
          cdnService: "Service endpoints (the zone sub-objects).",
          domainLock: "Domain lock (the access-control objects).",
          geoBlock: "Geo blocking (the access-control objects).",
          ipAccess: "IP access control (the access-control objects).",
          userAgent: "User-agent access control (the access-control objects).",
          secureToken: "Secure token (the access-control objects).",
          eac: "External access control (the access-control objects).",
          bwLimit: "Bandwidth limit (the access-control objects).",
          ftpDetails: "FTP access; the password is masked in some responses and plain in others (the zone object).",
          "ftpDetails.username": "FTP user name.",
          "ftpDetails.password": "FTP password (a credential, sometimes masked).",
          s3Details: "S3 storage details (the zone sub-objects).",
          "s3Details.relId": "Relation id.",
          "s3Details.type": "Storage type.",
          "s3Details.projectId": "Project id.",
          "s3Details.token": "Access token (a credential).",
          "s3Details.active": "Whether the storage is active, as the API sends it.",
          transcodeFile: "Transcoding of uploaded files.",
          "transcodeFile.profiles": "Transcoding profile ids.",
          "transcodeFile.emails": "Addresses notified.",
          "transcodeFile.webhooks": "Webhooks notified.",
          server: "The upload server: an object, or its name as a string.",
          "server.code": "Server code.",
          "server.name": "Server name.",
          "server.country": "Server country.",
          "server.meta": "`uploadPort`, `uploadHost`.",
          playbackUrls:
            "Pull zones: scheme, name, urlPrefix, http, players, tokenized, hls (the zone object); " +
            "host-keyed `hashes` kept verbatim.",
          edgerules: "Push zones: edge rules switch (`POST /v2/zones/http/push/{zoneid}` response).",
          "edgerules.enabled": "`Y`/`N` or a boolean, as sent.",
          sslEnabled: YN("SSL is enabled (VoD pull domain lock response)"),
        },
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
        fields: {
          serverId: "Server id.",
          serverName: "Server name.",
          purged: "Paths this server has handled so far.",
          completed: "`false` while this entry is pending (the object states).",
        },
      },
      PurgeOperation: {
        from: out("zones.PurgeOperation"),
        doc: "the purge operation purge / prefetch operation, camelCased.",
        fields: {
          id: "Operation id, e.g. `pg-8b41d0e5`.",
          serviceId: "Account service id.",
          zone: "The HTTP push zone id, as a string.",
          type: "`fetch` = prefetch, `url` = purge by path, any other value another purge kind (the purge operation).",
          list: "The file paths of the operation.",
          meta: "Metadata, as sent.",
          logs: "Per-server progress.",
          completedAt: "Unix seconds as a string; empty or null while pending.",
          createdAt: "Unix seconds as a string.",
          updatedAt: "Unix seconds as a string.",
          errors: "Errors as a string; empty if none.",
        },
      },
    },
  },
  "ad-insertion-types.ts": {
    about: `Argument and result types of the ad insertion data sources (\`GET /v2/streams/push/{streamid}/adinsertion/tracking/reports\`, \`POST /v2/streams/pull/{streamid}/adinsertion/consumption\`, \`GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks\`; the tracking report to the ad creative), camelCased by naming.ts. ${KEPT}`,
    types: {
      AdAnalyticsFilters: {
        from: "z.input<typeof adInsertion.TrackingReportQuery>",
        omit: ["granularity"],
        doc: "Filters of the ad analytics reads (`GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`, `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`). All but `r`, `crid` and `sessionId` need the advanced analytics add-on.",
        fields: {
          r: "Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` (checked before sending).",
          crid: "Creative id.",
          sessionId: "Ad insertion playback session.",
          clientIp: "Viewer IP; needs the advanced analytics add-on.",
          os: "Viewer operating system; needs the advanced analytics add-on.",
          browser: "Viewer browser; needs the advanced analytics add-on.",
          contentId: "Content id; needs the advanced analytics add-on.",
          continentGeonameId: "Continent geoname id; needs the advanced analytics add-on.",
          countryGeonameId: "Country geoname id; needs the advanced analytics add-on.",
          subdivision1GeonameId: "First-level subdivision geoname id; needs the advanced analytics add-on.",
          subdivision2GeonameId: "Second-level subdivision geoname id; needs the advanced analytics add-on.",
          cityGeonameId: "City geoname id; needs the advanced analytics add-on.",
        },
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
        fields: {
          granularity:
            "Bucket size in minutes. With `r`, the range must not exceed granularity x 1440 minutes (`GET /v2/streams/push/{streamid}/adinsertion/tracking/reports`, the limits); " +
            "checked before sending.",
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
        fields: {
          groupBy: "Bucket of the charts (`POST /v2/streams/pull/{streamid}/adinsertion/consumption`, required).",
          r: "Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` (`POST /v2/streams/pull/{streamid}/adinsertion/consumption`, required; checked before sending).",
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
        fields: {
          page: "One page (from 1, 20 items) with its paging fields, instead of every ad break.",
          breakType: "Pre-roll or mid-roll breaks only.",
          triggerType: "The trigger that started the break, e.g. `preroll`.",
          fillStatus: "Breaks of this fill outcome only.",
          vastOutcome: "Breaks of this VAST outcome only.",
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
        fields: COUNTS,
      },
      GetAdTrackingReportResult: result("adInsertion.TrackingReport", {
        doc: "Result of `getAdTrackingReport` (the tracking report).",
        extendsAt: { summary: ["TrackingCounts"], data: ["TrackingCounts"] },
        fields: {
          summary: "Totals over the range.",
          ...under("summary", {
            from: "Range start, ISO 8601 UTC.",
            to: "Range end, ISO 8601 UTC.",
            uniqueSessions: "Distinct playback sessions.",
            viewRate25: "Percent of starts played to 25%.",
            viewRate50: "Percent of starts played to 50%.",
            viewRate75: "Percent of starts played to 75%.",
            completionRate: "Percent of starts played to the end.",
          }),
          data: "One entry per time bucket.",
          ...under("data", { time: "Bucket start, ISO 8601 UTC." }),
        },
      }),
      ConsumptionPoint: {
        from: out("adInsertion.Consumption"),
        at: "adInsertionsChart[]",
        doc: "A chart point of the ad consumption report: a bucket label and its value.",
        fields: { key: "The bucket label.", value: "The bucket's value." },
      },
      GetAdConsumptionResult: result("adInsertion.Consumption", {
        doc: "Result of `getAdConsumption` (the ad consumption report; egress in bytes).",
        fields: {
          from: "Range start, `YYYY-MM-DD HH:MM:SS`.",
          to: "Range end, `YYYY-MM-DD HH:MM:SS`.",
          serviceIds: "Services counted.",
          groupBy: "`day` or `hour` in the response (the ad consumption report).",
          totalAdInsertions: "Ad insertions in the range.",
          totalAdImpressions: "Ad impressions in the range.",
          totalEgress: "Egress in bytes.",
          egressDetails: "Egress in bytes per kind.",
          ...under("egressDetails", {
            manifests: "Manifests, bytes.",
            segments: "Segments, bytes.",
            ssat: "Server-side ad tracking, bytes.",
            transcoding: "Transcoding, bytes.",
            other: "Other, bytes.",
          }),
          adInsertionsChart: "Ad insertions per bucket.",
          adImpressionsChart: "Ad impressions per bucket.",
          egressChart: "Egress bytes per bucket.",
        },
      }),
      AdBreak: {
        from: out("adInsertion.AdBreak"),
        doc: "the ad-break log item ad break log item (already camelCase in the API).",
        fields: {
          id: "Ad break id.",
          serviceId: "Account service id.",
          sessionId: "Playback session.",
          contentId: "Content played.",
          breakType: "`pre-roll` or `mid-roll`.",
          triggerType: "What started the break, e.g. `preroll`.",
          declaredDurationS: "Break duration asked for, seconds.",
          vastOutcome: "Outcome of the VAST request.",
          vastUrl: "The VAST request URL.",
          creativeCount: "Creatives returned.",
          fulfilledDurationS: "Break duration filled, seconds.",
          fillStatus: "`full`, `underfilled` or `no_fill`.",
          createdAt: "ISO 8601 UTC.",
        },
      },
      GetAdBreaksResult: result("adInsertion.ops.listAdBreaks.response", {
        doc: "Result of `getAdBreaks`.",
        extends: ["ResultEnvelope", "PageFields"],
        fields: { items: "Every matching ad break (the ad-break log item), or the page asked for." },
      }),
      GetAdCreativeResult: result("adInsertion.Creative", {
        doc: "Result of `getAdCreative` (the ad creative).",
        fields: {
          crid: "Creative id from the VAST/VMAP creative element.",
          mediaUrl: "URL of the media file.",
          adSystem: "VAST `AdSystem`.",
          adTitle: "VAST `AdTitle`.",
          advertiser: "VAST `Advertiser`.",
          category: "VAST `Category`.",
          creativeId: "VAST creative id.",
          adId: "Ad id.",
          adIdVast: "VAST `Ad` id.",
          universalAdId: "VAST `UniversalAdId`.",
          mediaWidth: "Media width, pixels.",
          mediaHeight: "Media height, pixels.",
          mediaBitrate: "Media bitrate.",
          durationS: "Duration, seconds.",
        },
      }),
    },
  },
  "ad-manager-types.ts": {
    about: `Argument and result types of the ad manager data sources (\`POST /v2/ad-manager/{pid}/requests\`; the ad-pod request log item, the ad-manager project, the campaign targeting), camelCased by naming.ts. ${KEPT}`,
    types: {
      SkipRule: {
        from: out("adManager.Project"),
        at: "settings.skip_policy.default",
        doc: "A the ad-manager project skip rule.",
        fields: SKIP_RULE,
      },
      AdManagerProject: {
        from: out("adManager.Project"),
        doc: "the ad-manager project ad manager project, camelCased.",
        extendsAt: { "settings.skipPolicy.rules": ["SkipRule"] },
        fields: {
          id: "Project id.",
          uuid: "Project UUID.",
          name: "Project name.",
          settings: "Project settings.",
          ...under("settings", {
            timezone: "IANA name.",
            currencyCode: "ISO currency code.",
            currencySymbol: "Currency symbol.",
            advancedAnalytics: "Integer flag: the advanced analytics add-on.",
            maxAdvertisers: "Advertiser cap.",
            maxCampaigns: "Campaign cap.",
            maxCreatives: "Creative cap.",
            analyticsRetentionPeriod: "Its unit is not shown (the limits).",
            skipPolicy: "When viewers may skip ads.",
            "skipPolicy.default": "The rule where no other applies.",
            "skipPolicy.rules": "Rules by pod position.",
            ...under("skipPolicy.rules", {
              position: "Pod position the rule applies to.",
              longest: "Whether it applies to the longest ad of the pod.",
              shortest: "Whether it applies to the shortest ad of the pod.",
            }),
          }),
          advertisersCount: "Advertisers.",
          campaignsCount: "Campaigns.",
          creativesCount: "Creatives.",
          activeCampaignsCount: "Active campaigns; archived campaigns are not counted (the object states).",
          usageThisMonth: "This month's usage.",
          ...under("usageThisMonth", {
            adRequests: "Ad requests.",
            impressions: "Impressions.",
            fillRate: "Percent of requests filled.",
            completionRate: "Percent of impressions played to the end.",
          }),
          createdAt: "ISO 8601 UTC.",
          updatedAt: "ISO 8601 UTC.",
        },
      },
      GetAdManagerProjectsResult: result("adManager.ops.listProjects.response", {
        doc: "Result of `getAdManagerProjects` (`GET /v2/ad-manager`).",
        fields: {
          projects: "Every ad manager project (the ad-manager project).",
          projectsLimit: "The plan-driven cap on projects.",
          projectsAvailable: "Projects that may still be created.",
        },
      }),
      GetCampaignTargetingResult: result("adManager.ops.getTargeting.response", {
        doc: "Result of `getCampaignTargeting`: the campaign targeting at the top level, and `fromCache`.",
        flatten: "targeting",
        fields: {
          includeTags: "Content tags a request must have one of.",
          excludeTags: "Content tags that exclude a request.",
          ...TARGETS,
          contentIds: "Content ids.",
          ...GEO_IDS,
          campaignId: "The campaign.",
          createdAt: "ISO 8601 UTC.",
          updatedAt: "ISO 8601 UTC.",
          fromCache: "True when the API served it from cache instead of reading it fresh.",
        },
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
        fields: {
          from: "Date `YYYY-MM-DD` (checked before sending).",
          to: "Date `YYYY-MM-DD`, not before `from` (checked before sending).",
          r: "Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS`, alternative to from/to (precedence not shown, `POST /v2/ad-manager/{pid}/requests`).",
          page: "One page (from 1) with its paging fields, instead of every request.",
          contentIds: "Content ids; `__none__` appears in this list (`POST /v2/ad-manager/{pid}/requests`).",
          advertiserIds: "Advertisers.",
          campaignIds: "Campaigns.",
          creativeIds: "Creatives.",
          contentTags: "Content tags.",
          ...TARGETS,
          fillStatuses: "Fill outcomes.",
          decisionStatuses: "Decision outcomes.",
          userAgent: "User agents.",
          breakIds: "Ad break ids.",
          transactionIds: "Transaction ids.",
          ip: "Viewer IPs.",
          maxDuration: "Break fill targets, seconds (IAB BREAKMAXDURATION).",
          minAdLength: "Per-ad minimums, seconds (IAB BREAKMINADLENGTH).",
          maxAdLength: "Per-ad maximums, seconds (IAB BREAKMAXADLENGTH).",
          maxAds: "Pod-size caps (IAB BREAKMAXADS).",
          fillCeilingSeconds: "Fill ceilings, seconds.",
          breakPosition: "Break positions.",
          ...GEO_IDS,
        },
      },
      AdPodRequest: {
        from: out("adManager.AdPodRequest"),
        doc: "the ad-pod request log item ad-pod request log item, camelCased (`publisher_id` -> `publisherId`).",
        fields: {
          id: "Request id.",
          publisherId: "Publisher.",
          contentId: "Content requested for.",
          placement: "Placement.",
          language: "Language.",
          userKey: "Viewer key.",
          ip: "Viewer IP.",
          userAgent: "Viewer user agent.",
          os: "Viewer operating system.",
          browser: "Viewer browser.",
          decisionStatus: "Decision outcome.",
          fillStatus: "Fill outcome.",
          requestTime: "ISO 8601 UTC.",
          createdAt: "ISO 8601 UTC.",
          contentTags: "Content tags.",
          category: "Content category.",
          device: "Device type.",
          continentGeonameId: "Continent geoname id.",
          countryGeonameId: "Country geoname id.",
          subdivision1GeonameId: "First-level subdivision geoname id.",
          subdivision2GeonameId: "Second-level subdivision geoname id.",
          cityGeonameId: "City geoname id.",
          maxDuration: "Break fill target, seconds (IAB BREAKMAXDURATION).",
          minAdLength: "Per-ad minimum, seconds (IAB BREAKMINADLENGTH).",
          maxAdLength: "Per-ad maximum, seconds (IAB BREAKMAXADLENGTH).",
          selectedDurationSeconds: "Seconds filled.",
        },
      },
      GetAdPodRequestsResult: result("adManager.ops.listAdPodRequests.response", {
        doc: "Result of `getAdPodRequests`.",
        extends: ["ResultEnvelope", "PageFields"],
        fields: { items: "Every matching request (the ad-pod request log item), or the page asked for." },
      }),
    },
  },
  "dns-types.ts": {
    about: `Result types of the DNS data source (the DNS zone object), camelCased by naming.ts. ${KEPT}`,
    types: {
      DnsZoneMeta: {
        from: out("dns.DnsZone"),
        at: "meta",
        doc: "`meta` of the DNS zone object of a DNS zone.",
        fields: {
          name: "Zone name.",
          id: "Id in the DNS service.",
          type: "Observed `master`.",
          group: "Group.",
          zone: "Zone.",
          status: "Status.",
          serial: "SOA serial.",
          hasBulk: "Whether bulk records exist.",
          isCloud: "Integer flag.",
          isUpdated: "Integer flag.",
        },
      },
      DnsDsRecord: {
        from: out("dns.DnsZone"),
        at: "dnssec.ds_records[]",
        doc: "`dnssec.ds_records[]` of the DNS zone object item.",
        fields: {
          digest: "Digest.",
          keyTag: "Key tag, as sent.",
          algorithm: "Algorithm number, as sent.",
          algorithmName: "Algorithm name.",
          digestType: "Digest type, as sent.",
          digestTypeName: "Digest type name.",
        },
      },
      DnsZone: {
        from: out("dns.DnsZone"),
        doc: "the DNS zone object DNS zone (`domains[]` item), camelCased.",
        fields: {
          id: "DNS zone id.",
          serviceId: "Account service id.",
          domain: "The domain.",
          meta: "Service metadata.",
          soa: "Start of authority; every value a string as the API sends it.",
          ...under("soa", {
            serialNumber: "Serial.",
            primaryNS: "Primary nameserver.",
            adminMail: "Administrator mail.",
            refresh: "Refresh.",
            retry: "Retry.",
            expire: "Expire.",
            defaultTTL: "Default TTL.",
          }),
          dnssec: "DNSSEC state.",
          ...under("dnssec", {
            status: "DNSSEC status.",
            ds: "DS records as text.",
            dsRecords: "DS records.",
            dnsKey: "DNSKEY records.",
            optOut: "Opt-out, as sent.",
            statusDescription: "Status, in words.",
          }),
          preferredType: "Observed `All`.",
          createdAt: "`YYYY-MM-DD HH:MM:SS`.",
          updatedAt: "`YYYY-MM-DD HH:MM:SS`.",
          syncedAt: "`YYYY-MM-DD HH:MM:SS`, or null.",
          validatedAt: "`YYYY-MM-DD HH:MM:SS`, or null.",
          deleted: "Null, or when the zone was deleted: a date string or Unix seconds.",
          proxied: "Proxied records.",
          linkedZones: "Kept as sent (its keys are data, e.g. zone ids).",
          nameservers: "This zone's nameservers.",
          stats: "Usage.",
          "stats.queries": "Queries.",
          "stats.records": "Records.",
        },
      },
      GetDnsZonesResult: result("dns.ops.listDnsZones.response", {
        doc: "Result of `getDnsZones` (`GET /v2/dns`).",
        fields: {
          domains: "Every DNS zone of the account (`domains` of `GET /v2/dns`, the DNS zone object).",
          nameservers: "The account's authoritative nameserver hosts (`nameservers` of `GET /v2/dns`).",
        },
      }),
    },
  },
  "backup-types.ts": {
    about: `Result types of the critical backup data sources (the critical backup job), camelCased by naming.ts. ${KEPT}`,
    types: {
      CriticalBackup: {
        from: out("backups.Backup"),
        doc: "the critical backup job critical backup job, camelCased.",
        fields: {
          id: "Backup job id.",
          serviceId: "Account service id.",
          name: "Job name.",
          meta: "Job metadata.",
          "meta.prefix": "Path prefix.",
          "meta.description": "Description.",
          files: "As the API sends it (a string, e.g. a file count).",
          createdAt: "`YYYY-MM-DD HH:MM:SS`.",
          updatedAt: "`YYYY-MM-DD HH:MM:SS`.",
          deletedAt: "Null, or when the job was deleted: a date string or Unix seconds.",
          linkedZones: "Ids of the zones this job backs up.",
          linksCount: "Zones linked.",
          providerText: "The storage provider, as a description.",
        },
      },
      GetCriticalBackupsResult: result("backups.ops.listBackups.response", {
        doc: "Result of `getCriticalBackups` (`GET /v2/cb`).",
        fields: { backups: "Every critical backup job of the account (the critical backup job)." },
      }),
      GetCriticalBackupResult: result("backups.ops.getBackup.response", {
        doc: "Result of `getCriticalBackup` (`GET /v2/cb/{backupid}`): the job's the critical backup job fields at the top level.",
        flatten: "backup",
      }),
    },
  },
};
