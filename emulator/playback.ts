/**
 * §2.7 stream playback URLs, built from a stream's host, composed name and hash. Shared by the
 * fixture generator and timeshift create (§4.19), so created streams look like fixture ones.
 */
import { Obj } from "./store";

/** The CDN host streams are played from (reserved example domain). */
export const PLAY_HOST = "live.cdnstream.example";
const PLAYER_HOST = "player.cdnstream.example";

/** What the playback URLs of one stream derive from. */
export interface PlaybackInput {
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
export function playbackUrls(p: PlaybackInput): Obj {
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
