/**
 * The §2.5 stream object and its §2.7 playback URLs, built the same way for fixture streams and
 * for streams created by timeshift create (§4.19), so both read back alike.
 */
import { accessDefaults } from "./access";
import { Obj } from "./store";
import { sqlTime } from "./time";

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
    playbackurls: playbackUrls(name, s.hash, s.type === "timeshift", token),
  };
}

/** The CDN host streams are played from (reserved example domain). */
const PLAY_HOST = "live.cdnstream.example";
const PLAYER_HOST = "player.cdnstream.example";

/** The §2.7 URLs a stream is played from (tokenized or not). */
type Urls = { hls: string; dash: string; rtmp: string; rtsp: string };

const b64 = (s: string) => Buffer.from(s).toString("base64");

/** The players of one stream; the tokenized set names the DASH URL in every player. */
function players(hash: string, urls: Urls, tokenized: boolean): Obj {
  const player = (kind: string): Obj => {
    const base = `https://${PLAYER_HOST}/${kind}/${hash}`;
    return {
      baseQ: `${base}?autoplay=1&muted=1`,
      base,
      hls: `${base}?src=${encodeURIComponent(urls.hls)}`,
      rtmp: urls.rtmp,
      rtsp: urls.rtsp,
      ...(tokenized ? { dash: urls.dash } : {}),
    };
  };
  return {
    jwplayer: player("jwplayer"),
    videojs: player("videojs"),
    // The player hosted on the CDN's own player page.
    own: {
      hashes: {
        [PLAY_HOST]: { hash, hls: urls.hls, base64: b64(urls.hls), dash: urls.dash, base64dash: b64(urls.dash) },
      },
      baseQ: `https://${PLAYER_HOST}/own/${hash}?autoplay=1`,
      base: `https://${PLAYER_HOST}/own/${hash}`,
      hls: urls.hls,
      dash: urls.dash,
    },
  };
}

/** §2.7 `playbackurls` for one stream; timeshift (`dvr`) streams use DVR-style manifest names. */
function playbackUrls(name: string, hash: string, dvr: boolean, token: Obj): Obj {
  const prefix = `https://${PLAY_HOST}/${name}`;
  const hlsManifest = dvr ? "playlist_dvr.m3u8" : "playlist.m3u8";
  const dashManifest = dvr ? "manifest_dvr.mpd" : "manifest.mpd";
  const urls = {
    scheme: "https",
    url_prefix: prefix,
    rtmp: `rtmp://${PLAY_HOST}/live/${name}`,
    rtsp: `rtsp://${PLAY_HOST}:554/live/${name}`,
    hlsManifest,
    dashManifest,
    hls: `${prefix}/${hlsManifest}`,
    dash: `${prefix}/${dashManifest}`,
  };
  return {
    ...urls,
    players: players(hash, urls, false),
    tokenized: token.enabled === "Y" && token.list ? tokenized(hash, Number(token.timeout) || 3600, urls) : null,
  };
}

function tokenized(hash: string, timeout: number, urls: Urls): Obj {
  // A signed-URL style token: deterministic per stream so repeated reads do not drift.
  const expires = 1767225600 + timeout;
  const token = {
    hls: `token=${hash.slice(0, 16)}&expires=${expires}`,
    dash: `token=${hash.slice(16, 32)}&expires=${expires}`,
  };
  const signed = { ...urls, hls: `${urls.hls}?${token.hls}`, dash: `${urls.dash}?${token.dash}` };
  return {
    ...signed,
    path: { hls: new URL(urls.hls).pathname, dash: new URL(urls.dash).pathname },
    token,
    players: { hostname: PLAY_HOST, ...players(hash, signed, true) },
  };
}
