// Written by scripts/gen-identities.ts from the kinds' declarations: run `npm run gen` after
// changing one (`npm run gen -- --check` fails while this file is stale).
import type { RegisteredKind } from "./resource";

/**
 * Every resource kind, each stated once: its name, folder, id format, secret outputs and
 * the properties its resource class registers, as plain data (no zod, no rules). The resource
 * classes, the plugin, the schema's generator and the tests read it.
 */
export const KINDS = {
  AdBreakSlot: {
    type: "AdBreakSlot",
    folder: "ad-break-slot",
    idFormat: "<zoneId>/<preroll|postroll|midrollinterval> or <zoneId>/midroll/<offset>",
    secretOutputs: [],
    inputKeys: ["zoneId", "type", "maxDurationS", "offset", "intervalS", "maxBreaks", "breakId", "maxAds", "fillCeilingS"],
    outputKeys: ["live", "state", "name"],
  },
  CampaignArchive: {
    type: "CampaignArchive",
    folder: "campaign-archive",
    idFormat: "<projectId>/<campaignId>",
    secretOutputs: [],
    inputKeys: ["projectId", "campaignId"],
    outputKeys: ["name", "advertiserName", "status", "deliveryStatus"],
  },
  HttpDomainLockBulk: {
    type: "HttpDomainLockBulk",
    folder: "http-domain-lock-bulk",
    idFormat: "account",
    secretOutputs: [],
    inputKeys: ["mode", "enabled", "policy", "domains", "ips", "noreferer"],
    outputKeys: ["accountDefault", "zonesOutOfStep"],
  },
  PushZoneSettings: {
    type: "PushZoneSettings",
    folder: "push-zone-settings",
    idFormat: "<zoneId>",
    secretOutputs: ["authToken", "ftpPassword"],
    inputKeys: ["zoneId", "customDomains", "transcodingProfiles", "transcodeWebhook"],
    outputKeys: ["name", "fqdn", "hashId", "customDomainFqdns", "uploadHost", "serviceAddresses", "authToken", "ftpUsername", "ftpPassword", "warnings"],
  },
  StreamStatus: {
    type: "StreamStatus",
    folder: "stream-status",
    idFormat: "<streamKind>/<streamId>",
    secretOutputs: ["rtmpAuthPassword"],
    inputKeys: ["streamKind", "streamId", "disabled"],
    outputKeys: ["name", "status", "playbackUrls", "rtmpAuthPassword", "warnings"],
  },
  TimeshiftStream: {
    type: "TimeshiftStream",
    folder: "timeshift-stream",
    idFormat: "<streamId>",
    secretOutputs: ["secureToken", "tokenizedPlaybackUrls", "secureTokenKey", "rtmpAuthPassword"],
    inputKeys: ["name", "parent", "timeshift", "codec", "protocols", "disabled", "domainLock", "geoBlock", "ipAccess", "ndvr", "record", "secureToken", "userAgent"],
    outputKeys: ["streamId", "composedName", "status", "parentId", "parentName", "playbackUrls", "tokenizedPlaybackUrls", "secureTokenKey", "rtmpAuthPassword", "warnings"],
  },
  VodPullDomainLock: {
    type: "VodPullDomainLock",
    folder: "vod-pull-domain-lock",
    idFormat: "<zoneId>",
    secretOutputs: [],
    inputKeys: ["zoneId", "enabled", "policy", "domains", "ips", "noreferer", "active"],
    outputKeys: ["name", "fqdn", "fqdnVoD", "sslEnabled", "liveLock"],
  },
} as const satisfies Record<string, RegisteredKind>;

/** A kind's name (`StreamStatus`). */
export type KindName = keyof typeof KINDS;
