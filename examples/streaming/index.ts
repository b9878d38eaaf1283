/**
 * Streaming: everything a broadcast night needs besides the encoder.
 *
 * - the live event's push stream kept on air, the spare studio's kept off (POST /v2/streams/push/{streamid}/status);
 * - a timeshift copy of the event, delayed for another time zone, with DVR and, when a key is
 *   configured, a secure token (POST /v2/streams/timeshift/new);
 * - the ad-break timeline of the VoD zone where the replays land: a preroll, a break every
 *   15 minutes, a postroll (POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule);
 * - the ad manager campaigns that ended, kept archived (POST /v2/ad-manager/{pid}/campaigns/{cid}/archive).
 *
 * Config (all optional; the defaults are ids of the bundled emulator's account):
 *   cdnstream-streaming:eventStreamId     push stream of the live event          (3001)
 *   cdnstream-streaming:studioStreamId    push stream of the spare studio        (3002)
 *   cdnstream-streaming:replayZoneId      VoD push zone with ad insertion on     (302)
 *   cdnstream-streaming:delayHours        delay of the timeshift copy            (3)
 *   cdnstream-streaming:tokenKey          secure token key; set it with --secret (no token when unset)
 *   cdnstream-streaming:retiredCampaigns  JSON: [{"projectId": 2, "campaignId": "cmp_9Tz4wN6c"}]
 */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "pulumi-cdnstream";

interface RetiredCampaign {
  projectId: number;
  campaignId: string;
}

// A function, so every run of the program in one process (as `cdnstream drift` does) declares it all.
export = async () => {
  const config = new pulumi.Config();
  const eventStreamId = config.getNumber("eventStreamId") ?? 3001;
  const replayZoneId = config.getNumber("replayZoneId") ?? 302;
  const tokenKey = config.getSecret("tokenKey");

  // On air / off air. Destroying these leaves the streams as they are (the API has no "unset").
  const event = new cdn.StreamStatus("event", { streamKind: "push", streamId: eventStreamId, disabled: false });
  const studio = new cdn.StreamStatus("studio", {
    streamKind: "push",
    streamId: config.getNumber("studioStreamId") ?? 3002,
    disabled: true,
  });

  // Only `disabled` can change in place: every other argument is fixed at creation (POST /v2/streams/timeshift/new), so
  // changing one creates a new stream (and disables the old one). The API names it
  // `<account prefix>-<name>` (output `composedName`).
  const delayHours = config.getNumber("delayHours") ?? 3;
  const delayed = new cdn.TimeshiftStream(
    "event-delayed",
    {
      name: `event-plus-${delayHours}h`,
      parent: eventStreamId,
      timeshift: delayHours * 3600,
      protocols: ["HLS", "DASH"],
      ndvr: { enabled: true, retentionDays: 7 },
      // The key is encrypted in state; signed playback URLs come back as a secret output.
      secureToken: tokenKey ? { enabled: true, policy: "dynamic", key: tokenKey, timeoutSeconds: 3600 } : undefined,
    },
    { dependsOn: [event] },
  );

  // Ad breaks of the replay zone. Each slot is one resource keyed by zone and type; scheduling is
  // an upsert, so `up` twice never adds a second slot. A zone takes midrolls at fixed offsets or
  // one recurring midroll interval, not both.
  const preroll = new cdn.AdBreakSlot("replay-preroll", {
    zoneId: replayZoneId,
    type: "preroll",
    maxDurationS: 20,
    maxAds: 1,
  });
  const every15 = new cdn.AdBreakSlot("replay-every-15m", {
    zoneId: replayZoneId,
    type: "midrollinterval",
    intervalS: 900,
    maxDurationS: 120,
    maxBreaks: 6,
    breakId: "q15",
    maxAds: 4,
  });
  const postroll = new cdn.AdBreakSlot("replay-postroll", { zoneId: replayZoneId, type: "postroll", maxDurationS: 45 });

  // Archived campaigns stop delivering; the API cannot unarchive, so destroy leaves them archived.
  const retired = (
    config.getObject<RetiredCampaign[]>("retiredCampaigns") ?? [{ projectId: 2, campaignId: "cmp_9Tz4wN6c" }]
  ).map((c) => new cdn.CampaignArchive(`retired-${c.campaignId}`, c));

  return {
    eventHls: event.playbackUrls.hls,
    studio: pulumi.interpolate`${studio.name} (${studio.status})`,
    delayedStream: {
      id: delayed.streamId,
      name: delayed.composedName,
      status: delayed.status,
      hls: delayed.playbackUrls.hls,
    },
    // Secret: signed URLs carry the token (null without a secure token).
    delayedTokenizedHls: delayed.tokenizedPlaybackUrls.apply((u) => u?.hls ?? null),
    // The zone's timeline as the API holds it: each slot's own entry in the roster.
    adTimeline: { preroll: preroll.live, every15Minutes: every15.live, postroll: postroll.live },
    retiredCampaigns: retired.map((c) => pulumi.interpolate`${c.name} (${c.advertiserName}): ${c.status}`),
  };
};
