/**
 * The demo stack (the repository's root Pulumi.yaml runs this, compiled to bin/index.js):
 * Northwind's live events and video library on one CDN account, with every resource kind of
 * pulumi-cdnstream and a few data sources. `npm run demo` deploys it against the API emulator,
 * whose fixture holds the zones, streams and campaigns named here.
 *
 * The program is an exported function, not top-level statements, so it declares its resources
 * on every call: the demo and `cdnstream drift` run it several times in one process.
 */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "pulumi-cdnstream";

/** Ids in the account (the emulator's default fixture; see emulator/README.md). */
const ids = {
  assetsZone: 101, // HTTP push zone for site assets
  vodCatalogZone: 401, // VoD pull zone of the catalogue
  vodLibraryZone: 301, // VoD push zone with ad insertion on
  mainEventStream: 3001, // push stream of the live main event
  studioStream: 3002, // push stream of the spare studio
};

export = async () => {
  const config = new pulumi.Config();
  // The brand's DNS zone decides every host name below (GET /v2/dns).
  const brandDomain = config.get("brandDomain") ?? "northwind.example";
  const dns = await cdn.getDnsZones();
  if (!dns.domains.some((z) => z.domain === brandDomain)) {
    throw new Error(
      `no DNS zone ${brandDomain} in the account (have: ${dns.domains.map((z) => z.domain).join(", ")}); set cdnstream-demo:brandDomain`,
    );
  }
  // The campaign archive targets a project by name, not by an id copied from the dashboard (GET /v2/ad-manager).
  const adProjectName = config.get("adProject") ?? "Streaming Network EU";
  const adProject = (await cdn.getAdManagerProjects()).projects.find((p) => p.name === adProjectName);
  if (!adProject) throw new Error(`no ad manager project named "${adProjectName}"; set cdnstream-demo:adProject`);

  // Site assets: served under the brand's own host names, transcodes reported to a webhook (POST /v2/zones/http/push/{zoneid}).
  const assets = new cdn.PushZoneSettings("assets-zone", {
    zoneId: ids.assetsZone,
    customDomains: [`assets.${brandDomain}`, `static.${brandDomain}`],
    transcodeWebhook: `https://hooks.${brandDomain}/transcoded`,
  });

  // Only the brand's players may embed the catalogue (POST /v2/zones/vod/pull/{zoneid}/domainlock); the office range bypasses the lock.
  const catalogLock = new cdn.VodPullDomainLock("vod-catalog-lock", {
    zoneId: ids.vodCatalogZone,
    enabled: true,
    policy: "Y",
    domains: [`player.${brandDomain}`, `*.${brandDomain}`],
    ips: ["203.0.113.0/24"],
  });

  // The same player domains added to every HTTP zone's lock and saved as the default (POST /v2/zones/http/settings/security/domainlock).
  const httpLock = new cdn.HttpDomainLockBulk("http-zones-lock", {
    mode: "append",
    enabled: true,
    domains: [`*.${brandDomain}`],
    ips: ["203.0.113.0/24"],
  });

  // Live: the main event is on air, the spare studio is off (POST /v2/streams/push/{streamid}/status).
  const mainEvent = new cdn.StreamStatus("main-event", {
    streamKind: "push",
    streamId: ids.mainEventStream,
    disabled: false,
  });
  const studio = new cdn.StreamStatus("studio-b", { streamKind: "push", streamId: ids.studioStream, disabled: true });

  // The main event again, six hours later for the US east coast, with a week of DVR (POST /v2/streams/timeshift/new).
  const usEast = new cdn.TimeshiftStream(
    "main-event-us-east",
    {
      name: "main-event-us-east",
      parent: ids.mainEventStream,
      timeshift: 6 * 3600,
      protocols: ["HLS", "DASH"],
      ndvr: { enabled: true, retentionDays: 7 },
      domainLock: { enabled: true, policy: "Y", domains: [`player.${brandDomain}`] },
    },
    { dependsOn: [mainEvent] },
  );

  // Ad breaks on the VoD library: a short preroll, one midroll ten minutes in, a postroll (POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule).
  // Each slot reports its own entry as the zone's roster holds it (`live`).
  const preroll = new cdn.AdBreakSlot("library-preroll", {
    zoneId: ids.vodLibraryZone,
    type: "preroll",
    maxDurationS: 30,
    maxAds: 2,
  });
  const midroll = new cdn.AdBreakSlot("library-midroll-10m", {
    zoneId: ids.vodLibraryZone,
    type: "midroll",
    offset: 600,
    maxDurationS: 90,
    maxAds: 3,
    breakId: "mid-10m",
  });
  const postroll = new cdn.AdBreakSlot("library-postroll", {
    zoneId: ids.vodLibraryZone,
    type: "postroll",
    maxDurationS: 60,
  });

  // Last season's launch campaign never went live: keep it archived (POST /v2/ad-manager/{pid}/campaigns/{cid}/archive).
  const retired = new cdn.CampaignArchive("morning-roast-launch", {
    projectId: adProject.id,
    campaignId: "cmp_3Lm8vR2p",
  });

  // Context for whoever reads the outputs: backups covering the assets zone, the last purge.
  const backups = cdn
    .getCriticalBackups()
    .then((r) => r.backups.filter((b) => b.linkedZones?.includes(ids.assetsZone)).map((b) => b.name));
  const lastPurge = cdn.getPurgeOperationOutput({ zoneId: ids.assetsZone, purgeId: "pg-8b41d0e5" });

  return {
    assetsHostnames: assets.customDomainFqdns,
    assetsCnameTarget: assets.fqdn,
    assetsUploadHost: assets.uploadHost,
    assetsBackups: backups,
    lastPurge: lastPurge.apply((p) => ({
      pending: p.pending,
      serversDone: `${p.logCounts.completed}/${p.logCounts.total}`,
    })),
    catalogLock: catalogLock.liveLock,
    accountDomainLock: httpLock.accountDefault,
    mainEventHls: mainEvent.playbackUrls.hls,
    studioStatus: pulumi.interpolate`${studio.name}: ${studio.status}${studio.disabled.apply((d) => (d ? " (disabled)" : ""))}`,
    usEastStream: { id: usEast.streamId, name: usEast.composedName, hls: usEast.playbackUrls.hls },
    adBreaks: pulumi
      .all([preroll.live, midroll.live, postroll.live])
      .apply(([pre, mid, post]) => [
        ...(pre ? [`preroll ${pre.maxDurationS}s`] : []),
        ...(mid ? [`midroll @${mid.offsetS}s ${mid.maxDurationS}s`] : []),
        ...(post ? [`postroll ${post.maxDurationS}s`] : []),
      ]),
    retiredCampaign: pulumi.interpolate`${retired.name} (${retired.advertiserName}): ${retired.status}`,
    dnsNameservers: dns.nameservers ?? [],
  };
};
