import * as cdnstream from "pulumi-cdnstream";

const assets = new cdnstream.PushZoneSettings("assets", {
  zoneId: 101,
  customDomains: ["cdn.example.com"],
});
const vod = new cdnstream.VodPullDomainLock("vod", {
  zoneId: 401,
  enabled: true,
  domains: ["player.example.com"],
});
const lock = new cdnstream.HttpDomainLockBulk("lock", {
  mode: "save",
  enabled: true,
  domains: ["example.com"],
});
const main = new cdnstream.StreamStatus("main", {
  streamKind: "push",
  streamId: "1234",
  disabled: false,
});
const delayed = new cdnstream.TimeshiftStream("delayed", {
  name: "main-delayed",
  parent: 1234,
  timeshift: 300,
  protocols: ["HLS"],
});
const preroll = new cdnstream.AdBreakSlot("preroll", {
  zoneId: 301,
  type: "preroll",
  maxDurationS: 30,
});
const old = new cdnstream.CampaignArchive("old", {
  projectId: 1,
  campaignId: "cmp_7Hq2xK9d",
});
