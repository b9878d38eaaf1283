/**
 * One naming style for every data-source result: camelCase, as Pulumi SDKs present provider
 * data. The API mixes `snake_case` (`created_at`, the ad-pod request log item), camelCase (`breakType`, the ad-break log item) and
 * run-together lowercase (`serviceid`, `domainlock`, the API's zone object); results convert every key, at every
 * depth, by these rules:
 *
 * 1. a run-together word listed in {@link WORDS} (taken from the API's objects tables) gets its camelCase
 *    form: `serviceid` -> `serviceId`, `domainlock` -> `domainLock`;
 * 2. a `snake_case` key loses each underscore and capitalises what follows:
 *    `created_at` -> `createdAt`, `subdivision_1_geoname_ids` -> `subdivision1GeonameIds`;
 * 3. anything else is kept as sent (`breakType`, `primaryNS`, an issuer name, a host name).
 *
 * Unknown fields go through the same rules, so nothing the API returns is dropped: the result
 * types declare the documented fields only (an index signature would make Pulumi's lifted
 * `Output` properties lose the declared ones), and the rest is there at runtime. Keys of the
 * two documented maps keyed by data, `hashes` (by host, the stream's playback URLs) and `linkedZones` (the DNS zone object), are kept
 * verbatim. When a converted key would clash with a key the object already has, the later key
 * keeps its original spelling instead of overwriting. Values are not changed.
 */

/** Run-together lowercase field names of the API's objects and their camelCase forms. */
export const WORDS: Readonly<Record<string, string>> = {
  // the API's zone object
  serviceid: "serviceId",
  hashid: "hashId",
  originip: "originIp",
  customhostheader: "customHostHeader",
  wafid: "wafId",
  edgeruleids: "edgeRuleIds",
  dnscheck: "dnsCheck",
  iscms: "isCms",
  cdnservice: "cdnService",
  ftpdetails: "ftpDetails",
  s3details: "s3Details",
  transcodefile: "transcodeFile",
  playbackurls: "playbackUrls",
  // the zone's sub-objects
  certid: "certId",
  querystring: "queryString",
  cachecontrol: "cacheControl",
  usestale: "useStale",
  stripcookie: "stripCookie",
  pseudostreaming: "pseudoStreaming",
  compressionlevel: "compressionLevel",
  robotstxt: "robotsTxt",
  robotstxtcustom: "robotsTxtCustom",
  purgeurls: "purgeUrls",
  purgeurl: "purgeUrl",
  authtoken: "authToken",
  infourl: "infoUrl",
  listurl: "listUrl",
  rawlisturl: "rawListUrl",
  transcodelisturl: "transcodeListUrl",
  addurl: "addUrl",
  editurl: "editUrl",
  deleteurl: "deleteUrl",
  uploadurl: "uploadUrl",
  playlisturl: "playlistUrl",
  relid: "relId",
  projectid: "projectId",
  projectid2: "projectId2",
  // the API's access-control objects
  domainlock: "domainLock",
  geoblock: "geoBlock",
  ipaccess: "ipAccess",
  useragent: "userAgent",
  securetoken: "secureToken",
  bwlimit: "bwLimit",
  noreferer: "noReferer",
  casesensitive: "caseSensitive",
  keyip: "keyIp",
  rateafter: "rateAfter",
  // the stream's playback URLs
  base64dash: "base64Dash",
  // the DNS zone object
  preferredtype: "preferredType",
  dnskey: "dnsKey",
  optout: "optOut",
};

/** Fields whose value is a map keyed by data (hosts, zone ids): its keys are kept verbatim. */
const DATA_KEYED = new Set(["hashes", "linkedZones"]);

const SNAKE = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$/;

/** The result name of one API field name (rules 1-3 above). */
export function camelKey(key: string): string {
  // hasOwn: a key such as `constructor` or `__proto__` must not find Object.prototype's members.
  if (Object.hasOwn(WORDS, key)) return WORDS[key]!;
  if (!SNAKE.test(key)) return key;
  return key.replace(/_([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A deep copy of `value` with every object key renamed by {@link camelKey}. */
export function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  const taken = new Set(Object.keys(value));
  for (const [key, inner] of Object.entries(value)) {
    const renamed = camelKey(key);
    // A clash (say `pacing_mode` beside `pacingMode`) keeps both: the second under its own name.
    const name = renamed !== key && (taken.has(renamed) || Object.hasOwn(out, renamed)) ? key : renamed;
    const copy = DATA_KEYED.has(key) || DATA_KEYED.has(renamed) ? structuredClone(inner) : camelize(inner);
    // defineProperty: a `__proto__` key from JSON stays a plain field instead of a prototype.
    Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
