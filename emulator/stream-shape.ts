/**
 * The §2.5 stream object, built the same way for fixture streams and for streams created by
 * timeshift create (§4.19), so both read back alike.
 */
import { accessDefaults } from "./access";
import { playbackUrls } from "./playback";
import { Obj } from "./store";
import { sqlTime } from "./time";

/** What a stream object derives from. */
export interface StreamSeed {
  id: number;
  type: "push" | "pull" | "timeshift";
  serviceid: number;
  /** `parts.pp`: the account prefix; `parts.sn`: the stream part. */
  prefix: string;
  sn: string;
  codec: string;
  protocols: string[];
  hash: string;
  created: Date;
  /** §2.4 objects overriding the defaults (securetoken, domainlock, geoblock, ipaccess, useragent). */
  access?: Obj;
}

/** A §2.5 stream with the fields every kind shares; callers add fms/ndvr/record/rtmpauth or parent. */
export function buildStream(s: StreamSeed): Obj {
  const name = `${s.prefix}-${s.sn}`;
  const access = { ...accessDefaults(), ...s.access };
  const token = access.securetoken;
  const has = (p: string) => (s.protocols.includes(p) ? 1 : 0);
  return {
    type: s.type,
    id: s.id,
    serviceid: s.serviceid,
    name,
    codec: s.codec,
    // A timeshift stream has no ingest of its own: it replays its parent.
    ingests: s.type === "timeshift" ? [[]] : [["RTMP"]],
    protocols: [s.protocols],
    server: "fra1",
    backup: s.type === "push" ? "ams2" : "",
    dedicatedLTC: "0",
    hasAdvancedFeatures: "0",
    draft: "0",
    disabled: "0",
    monitoring_id: null,
    monitoring_triggers: null,
    created_at: sqlTime(s.created),
    updated_at: sqlTime(s.created),
    lastseen_at: false,
    deleted: null,
    ingestsLock: 0,
    protocolsLock: 0,
    status: "Deploying",
    has: { rtmp: has("RTMP"), rtsp: has("RTSP"), hls: has("HLS"), dash: has("DASH"), rtmpauth: s.type === "push" },
    parts: { pp: s.prefix, sn: s.sn, full: name },
    hash: s.hash,
    platformsCount: 0,
    ssl_enabled: true,
    restream: { enabled: false, targets: [] },
    securetoken: token,
    domainlock: access.domainlock,
    geoblock: access.geoblock,
    ipaccess: access.ipaccess,
    useragent: access.useragent,
    transcode: { ltc: 0, type: "mixed", enabled: false, isEditable: true },
    platforms: [],
    messages: {},
    adInsertion: null,
    playbackurls: playbackUrls({
      name,
      hash: s.hash,
      dvr: s.type === "timeshift",
      tokenKey: token.enabled === "Y" ? token.list : null,
      tokenTimeout: Number(token.timeout) || 3600,
    }),
  };
}
