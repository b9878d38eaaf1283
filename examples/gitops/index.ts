/**
 * GitOps: who may embed the brand's video, and which delayed replays of its live streams exist,
 * is decided in pull requests. The program declares the domain locks and the replays;
 * .github/workflows/cdnstream.yml previews every pull request (the preview posted on it), applies
 * on merge to main and checks every night with `cdnstream drift` that nobody changed them in the
 * dashboard. TypeScript, run as it is: `pulumi` compiles it on the fly.
 *
 * Config (stack file, reviewed like code):
 *   cdnstream-gitops:playerDomains   host names allowed to embed, e.g. ["player.northwind.example"]
 *   cdnstream-gitops:bypassIps       IPs / CIDR ranges that skip the lock, e.g. ["203.0.113.0/24"]
 *   cdnstream-gitops:vodZoneIds      VoD pull zones to lock, e.g. [401, 402]
 *   cdnstream-gitops:replays         delayed replays of live streams (none by default), e.g.
 *                                    [{"name": "evening", "parent": 3001, "delaySeconds": 10800}];
 *                                    "adoptId": "<stream id>" in an entry takes over a stream that
 *                                    exists already (after an interrupted `up`: docs/recovery.md)
 *   cdnstream-gitops:replayTokenKey  the replays' secure token key; set it with --secret
 *   cdnstream:baseUrl                the API's address; the key comes from CDNSTREAM_API_KEY in CI
 */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "pulumi-cdnstream";

interface Replay {
  name: string;
  parent: number;
  delaySeconds: number;
  adoptId?: string;
}

// A function, so every run of the program in one process declares every resource.
export = async () => {
  const config = new pulumi.Config();
  const playerDomains = config.getObject<string[]>("playerDomains") ?? [
    "player.northwind.example",
    "*.northwind.example",
  ];
  const bypassIps = config.getObject<string[]>("bypassIps") ?? ["203.0.113.0/24"];
  const vodZoneIds = config.getObject<number[]>("vodZoneIds") ?? [401, 402];
  const replays = config.getObject<Replay[]>("replays") ?? [];
  const replayTokenKey = config.getSecret("replayTokenKey");

  // Every HTTP push and pull zone (POST /v2/zones/http/settings/security/domainlock). `append` adds the domains to each zone's list as a set
  // union, so applying again changes nothing; the account default that refresh compares is saved
  // too. Removing a domain here does not remove it from the zones: use mode "overwrite" for that.
  const httpZones = new cdn.HttpDomainLockBulk("http-zones", {
    mode: "append",
    enabled: true,
    domains: playerDomains,
    ips: bypassIps,
  });

  // Each VoD pull zone's own lock (POST /v2/zones/vod/pull/{zoneid}/domainlock). policy "Y" is the whitelist for this operation; the spec
  // describes the flag three ways (see the SDK's JSDoc), so check it on your account.
  const vodLocks = vodZoneIds.map(
    (zoneId) =>
      new cdn.VodPullDomainLock(`vod-${zoneId}`, {
        zoneId,
        enabled: true,
        policy: "Y",
        domains: playerDomains,
        ips: bypassIps,
      }),
  );

  // Each replay is a new stream (POST /v2/streams/timeshift/new), named `<account prefix>-<name>`
  // by the API. Every argument is fixed at creation: changing one makes a new stream and disables
  // the old one. The token key is encrypted in state; a stream made by an `up` that was killed
  // before recording it is found by that name and adopted with "adoptId" (docs/recovery.md).
  const replayStreams = replays.map(
    (replay) =>
      new cdn.TimeshiftStream(`replay-${replay.name}`, {
        name: replay.name,
        parent: replay.parent,
        timeshift: replay.delaySeconds,
        protocols: ["HLS"],
        secureToken: replayTokenKey
          ? { enabled: true, policy: "dynamic", key: replayTokenKey, timeoutSeconds: 3600 }
          : undefined,
        adoptId: replay.adoptId,
      }),
  );

  return {
    httpAccountDefault: httpZones.accountDefault,
    vodZones: vodLocks.map(
      (lock) => pulumi.interpolate`${lock.name} (${lock.fqdn}): ${lock.liveLock.apply((l) => l.list)}`,
    ),
    replays: replayStreams.map((stream) => pulumi.interpolate`${stream.composedName} (${stream.streamId})`),
  };
};
