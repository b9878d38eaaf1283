/**
 * The hand-written anchor of `npm run bench` (docs/benchmarks.md): a dynamic provider in the style
 * of Pulumi's documentation, with no input rules, response schemas, retries, pacing or sharing of
 * reads, and an error only for a non-2xx status. It makes the same API calls as ours on the same
 * stacks: one write per resource on `up`, one read per resource on `refresh`, none on `preview`,
 * and on `destroy` only the §4.4 disable of a timeshift stream. Never shipped.
 */
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { BenchResource, type Declaration } from "./mix";

/**
 * The provider object. Everything it uses is inside this function, so the closure serializer
 * captures `baseUrl` and the helpers below and nothing of the bench; the key is read from the
 * host's environment at each call, as the documentation advises for secrets.
 */
function anchorProvider(baseUrl: string): pulumi.dynamic.ResourceProvider {
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: {
        "x-api-key": process.env.CDNSTREAM_API_KEY ?? "",
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const yn = (b: unknown) => (b === undefined ? undefined : b ? "Y" : "N");
  const slotId = (p: any) => (p.type === "midroll" ? `${p.zoneId}/midroll/${p.offset}` : `${p.zoneId}/${p.type}`);
  const streamOuts = (s: any) => ({
    name: s.name ?? null,
    status: s.status ?? null,
    playbackUrls: s.playbackurls ?? null,
  });
  // A timeshift stream's `name` is an input; the API's composed name is kept beside it.
  const timeshiftOuts = (s: any) => {
    const { name, ...rest } = streamOuts(s);
    return { streamName: name, ...rest };
  };
  const zoneOuts = (z: any) => ({ name: z.name ?? null, fqdn: z.fqdn ?? null });
  // What each kind reads and writes; `live` picks the outputs from an answer (the write's or the read's).
  const kinds: Record<
    string,
    { id(p: any): string; write(p: any): Promise<any>; read(id: string, p: any): Promise<any> }
  > = {
    StreamStatus: {
      id: (p) => `${p.streamKind}/${p.streamId}`,
      write: async (p) =>
        streamOuts(
          (await api("POST", `/v2/streams/${p.streamKind}/${p.streamId}/status`, { disabled: p.disabled ? 1 : 0 }))
            .stream,
        ),
      read: async (_id, p) => {
        const { stream } = await api("GET", `/v2/streams/${p.streamKind}/${p.streamId}`);
        return { ...streamOuts(stream), disabled: stream.disabled === "1" };
      },
    },
    TimeshiftStream: {
      id: () => "",
      write: async (p) => {
        const { stream } = await api("POST", "/v2/streams/timeshift/new", {
          _METHOD: "PUT",
          name: p.name,
          timeshift: p.timeshift,
          parent: p.parent,
        });
        return { streamId: String(stream.id), ...timeshiftOuts(stream) };
      },
      read: async (id) => timeshiftOuts((await api("GET", `/v2/streams/timeshift/${id}`)).stream),
    },
    PushZoneSettings: {
      id: (p) => String(p.zoneId),
      write: async (p) =>
        zoneOuts(
          (
            await api("POST", `/v2/zones/http/push/${p.zoneId}`, {
              cnames: p.customDomains?.join(","),
              profiles: p.transcodingProfiles,
              webhook: p.transcodeWebhook,
            })
          ).zone,
        ),
      read: async (_id, p) => {
        const { zone } = await api("GET", `/v2/zones/http/push/${p.zoneId}`);
        return { ...zoneOuts(zone), customDomains: zone.cnamesArr ?? p.customDomains };
      },
    },
    VodPullDomainLock: {
      id: (p) => String(p.zoneId),
      write: async (p) =>
        zoneOuts(
          (
            await api("POST", `/v2/zones/vod/pull/${p.zoneId}/domainlock`, {
              enabled: yn(p.enabled),
              policy: p.policy,
              list: p.domains?.join(","),
              ips: p.ips?.join(","),
              mode: "S",
            })
          ).zone,
        ),
      read: async (_id, p) => zoneOuts((await api("GET", `/v2/zones/vod/pull/${p.zoneId}`)).zone),
    },
    AdBreakSlot: {
      id: slotId,
      write: async (p) => {
        const body: any = { _METHOD: "PUT", type: p.type, maxDurationS: p.maxDurationS };
        if (p.type === "midroll") body.offset = p.offset;
        const config = await api("POST", `/v2/zones/vod/push/${p.zoneId}/adinsertion/schedule`, body);
        return { state: config.state ?? null, name: config.name ?? null };
      },
      read: async (_id, p) => {
        const config = await api("GET", `/v2/zones/vod/push/${p.zoneId}/adinsertion`);
        return { state: config.state ?? null, name: config.name ?? null };
      },
    },
    CampaignArchive: {
      id: (p) => `${p.projectId}/${p.campaignId}`,
      write: async (p) => {
        const { campaign } = await api("POST", `/v2/ad-manager/${p.projectId}/campaigns/${p.campaignId}/archive`);
        return { status: campaign.status ?? null, name: campaign.name ?? null };
      },
      read: async (_id, p) => {
        const { campaign } = await api("GET", `/v2/ad-manager/${p.projectId}/campaigns/${p.campaignId}`);
        return { status: campaign.status ?? null, name: campaign.name ?? null };
      },
    },
    HttpDomainLockBulk: {
      id: () => "account",
      write: async (p) => {
        await api("POST", "/v2/zones/http/settings/security/domainlock", {
          mode: p.mode,
          enabled: yn(p.enabled),
          list: p.domains?.join(","),
        });
        return {};
      },
      read: async () => {
        await api("GET", "/v2/zones/http/settings/security/domainlock");
        return {};
      },
    },
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return {
    async create(inputs: any) {
      const kind = kinds[inputs.kind];
      const outs = { ...inputs, ...(await kind.write(inputs)) };
      return { id: kind.id(outs) || outs.streamId, outs };
    },
    async diff(_id: string, olds: any, news: any) {
      const changed = Object.keys(news).filter((k) => k !== "__provider" && !same(olds[k], news[k]));
      return { changes: changed.length > 0, replaces: changed.filter((k) => k !== "disabled") };
    },
    async read(id: string, props: any) {
      return { id, props: { ...props, ...(await kinds[props.kind].read(id, props)) } };
    },
    async update(_id: string, _olds: any, news: any) {
      return { outs: { ...news, ...(await kinds[news.kind].write(news)) } };
    },
    async delete(id: string, props: any) {
      // The API has no delete; a timeshift stream is disabled (§4.4), as ours does.
      if (props.kind === "TimeshiftStream") await api("POST", `/v2/streams/timeshift/${id}/status`, { disabled: 1 });
    },
  };
}

/**
 * The anchor's program: the same names, kinds (as type names) and inputs, against `baseUrl`. The
 * kind travels as an input, as a hand-written provider serving several kinds would keep it.
 */
export function anchorProgram(decls: Declaration[], baseUrl: string): PulumiFn {
  return async () => {
    const provider = anchorProvider(baseUrl);
    for (const d of decls)
      new BenchResource(provider, d.name, { ...d.args, kind: d.kind }, {}, "cdnstream-anchor", d.kind);
    return {};
  };
}
