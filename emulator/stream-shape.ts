/**
 * The §2.5 stream object and its §2.7 playback URLs, built the same way for fixture streams and
 * for streams created by timeshift create (§4.19), so both read back alike.
 */
import { accessDefaults } from "./access";
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

/** The CDN host streams are played from (reserved example domain). */
const PLAY_HOST = "live.cdnstream.example";
const PLAYER_HOST = "player.cdnstream.example";

/** What the playback URLs of one stream derive from. */
interface PlaybackInput {
  name: string;
  hash: string;
  /** §2.7: timeshift streams use DVR-style manifest names. */
  dvr: boolean;
  /** Secure token key when the token is on; null gives `tokenized: null`. */
  tokenKey: string | null;
  tokenTimeout: number;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

function player(kind: string, hash: string, hls: string, rtmp: string, rtsp: string, dash?: string): Obj {
  const base = `https://${PLAYER_HOST}/${kind}/${hash}`;
  return {
    baseQ: `${base}?autoplay=1&muted=1`,
    base,
    hls: `${base}?src=${encodeURIComponent(hls)}`,
    rtmp,
    rtsp,
    ...(dash ? { dash } : {}),
  };
}

/** The player hosted on the CDN's own player page. */
const ownPlayer = (hash: string, hls: string, dash: string): Obj => ({
  hashes: { [PLAY_HOST]: { hash, hls, base64: b64(hls), dash, base64dash: b64(dash) } },
  baseQ: `https://${PLAYER_HOST}/own/${hash}?autoplay=1`,
  base: `https://${PLAYER_HOST}/own/${hash}`,
  hls,
  dash,
});

/** §2.7 `playbackurls` for one stream. */
function playbackUrls(p: PlaybackInput): Obj {
  const prefix = `https://${PLAY_HOST}/${p.name}`;
  const hlsManifest = p.dvr ? "playlist_dvr.m3u8" : "playlist.m3u8";
  const dashManifest = p.dvr ? "manifest_dvr.mpd" : "manifest.mpd";
  const urls = {
    scheme: "https",
    url_prefix: prefix,
    rtmp: `rtmp://${PLAY_HOST}/live/${p.name}`,
    rtsp: `rtsp://${PLAY_HOST}:554/live/${p.name}`,
    hlsManifest,
    dashManifest,
    hls: `${prefix}/${hlsManifest}`,
    dash: `${prefix}/${dashManifest}`,
  };
  const players = {
    jwplayer: player("jwplayer", p.hash, urls.hls, urls.rtmp, urls.rtsp),
    videojs: player("videojs", p.hash, urls.hls, urls.rtmp, urls.rtsp),
    own: ownPlayer(p.hash, urls.hls, urls.dash),
  };
  return { ...urls, players, tokenized: p.tokenKey ? tokenized(p, urls) : null };
}

function tokenized(p: PlaybackInput, urls: { hls: string; dash: string; rtmp: string; rtsp: string }): Obj {
  // A signed-URL style token: deterministic per stream so repeated reads do not drift.
  const expires = 1767225600 + p.tokenTimeout;
  const token = {
    hls: `token=${p.hash.slice(0, 16)}&expires=${expires}`,
    dash: `token=${p.hash.slice(16, 32)}&expires=${expires}`,
  };
  const hls = `${urls.hls}?${token.hls}`;
  const dash = `${urls.dash}?${token.dash}`;
  return {
    ...urls,
    hls,
    dash,
    path: { hls: new URL(urls.hls).pathname, dash: new URL(urls.dash).pathname },
    token,
    players: {
      hostname: PLAY_HOST,
      jwplayer: player("jwplayer", p.hash, hls, urls.rtmp, urls.rtsp, dash),
      videojs: player("videojs", p.hash, hls, urls.rtmp, urls.rtsp, dash),
      own: ownPlayer(p.hash, hls, dash),
    },
  };
}
