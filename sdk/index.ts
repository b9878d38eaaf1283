/**
 * pulumi-cdnstream: the program-side SDK users import (`import * as cdn from "pulumi-cdnstream"`).
 *
 * Each resource class hands `pulumi.dynamic.Resource` a shim from `provider/shims/`; the
 * behaviour behind it lives in `provider/resources/`.
 */
export { AdBreakSlot, type AdBreakRosterEntry, type AdBreakSlotArgs, type AdBreakSlotType } from "./ad-break-slot";
export { CampaignArchive, type CampaignArchiveArgs } from "./campaign-archive";
export * from "./data-sources";
export { HttpDomainLockBulk, type HttpDomainLockBulkArgs, type HttpDomainLockDefault } from "./http-domain-lock-bulk";
export { PushZoneSettings, type PushZoneSettingsArgs } from "./push-zone-settings";
export { StreamStatus, type StreamStatusArgs } from "./stream-status";
export {
  TimeshiftStream, type TimeshiftStreamArgs, type TimeshiftDomainLockArgs, type TimeshiftGeoBlockArgs, type TimeshiftIpAccessArgs,
  type TimeshiftNdvrArgs, type TimeshiftRecordArgs, type TimeshiftSecureTokenArgs, type TimeshiftUserAgentArgs, type TimeshiftPlaybackUrls,
} from "./timeshift-stream";
export { VodPullDomainLock, type VodPullDomainLockArgs, type VodPullLiveLock } from "./vod-pull-domain-lock";

/** The package version, as published. */
export const packageVersion: string = require("../../package.json").version;
