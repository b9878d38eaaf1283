/** Create delayed (timeshift) stream (§4.19): a flat body with bracketed group keys. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { accessDefaults } from "../access";
import { invalid } from "../errors";
import { Ctx, Route } from "../route";
import { Obj } from "../store";
import { buildStream } from "../stream-shape";
import { domainList, int, ipList, normalizeList, parse, splitList, yn } from "../validate";

const countries = z.array(
  z.string().regex(/^[A-Z]{2}$/, { error: "must hold ISO 3166 alpha-2 country codes such as DE" }),
);

/** §4.19's flat keys of one group: `group[field]`, each optional. */
const group = (name: string, fields: Record<string, z.ZodType>) =>
  Object.fromEntries(Object.entries(fields).map(([field, schema]) => [`${name}[${field}]`, schema.optional()]));

const createBody = z.strictObject({
  _METHOD: z.literal("PUT"), // §4.19: method override
  // Which keys are required is not shown (§4.19); the emulator requires name, parent and timeshift.
  name: z.string().trim().min(1).max(255),
  codec: z.enum(["h264", "h265"]).default("h264"),
  protocols: z
    .array(z.enum(["HLS", "RTMP", "DASH", "RTSP"]))
    .min(1)
    .default(["HLS"]),
  timeshift: int(1),
  parent: int(1),
  ...group("domainlock", { enabled: yn, policy: yn, noreferer: yn, active: yn, list: domainList, ips: ipList }),
  ...group("geoblock", { enabled: yn, policy: yn, active: yn, list: countries, ips: ipList }),
  ...group("ipaccess", { enabled: yn, policy: yn, active: yn, list: ipList, ips: ipList }),
  // §4.19, §8: at most 180 days of nDVR, 90 of recordings.
  ...group("ndvr", { enabled: yn, retention: int(0, 180) }),
  ...group("record", { server: int(1), enabled: yn, retention: int(0, 90) }),
  ...group("securetoken", {
    enabled: yn,
    keyip: yn,
    active: yn,
    policy: z.enum(["D", "F"]),
    list: z.string(),
    ips: ipList,
    session: z.string().regex(/^\d{1,9}$/, { error: "must be a number of seconds as a string, '0' = unlimited" }),
    timeout: int(1),
  }),
  ...group("useragent", { enabled: yn, policy: yn, casesensitive: yn, active: yn, list: z.string(), ips: ipList }),
});

/** Splits `group[field]` keys into nested groups. */
function groups(body: Obj): Record<string, Obj> {
  const out: Record<string, Obj> = {};
  for (const [key, value] of Object.entries(body)) {
    const m = /^(\w+)\[(\w+)\]$/.exec(key);
    if (m) (out[m[1]] ??= {})[m[2]] = value;
  }
  return out;
}

/** §4.19: the parent is a push stream or an HTTP push zone, by integer id. */
function parentOf(ctx: Ctx, id: number): { parent: Obj; server?: string } {
  const stream = ctx.store.get("pushStreams", id);
  if (stream) {
    // A delayed copy plays from its parent's server.
    return {
      parent: {
        id: stream.id,
        name: stream.name,
        codec: stream.codec,
        stype: "push",
        rtmpauth: stream.rtmpauth?.active ?? "N",
      },
      server: stream.server,
    };
  }
  const zone = ctx.store.get("httpPushZones", id);
  if (zone) return { parent: { id: zone.id, name: zone.name, codec: "h264", stype: "zone", rtmpauth: "N" } };
  throw invalid("parent", `no push stream or HTTP push zone with id ${id}`);
}

function createTimeshift(ctx: Ctx): unknown {
  const body = parse(createBody, ctx.body);
  const { parent, server } = parentOf(ctx, body.parent);
  const g = groups(body);
  const access = accessDefaults();
  for (const name of ["domainlock", "geoblock", "ipaccess", "securetoken", "useragent"]) {
    Object.assign(access[name], g[name]);
    access[name].ips = normalizeList(access[name].ips);
  }
  for (const name of ["domainlock", "ipaccess"]) access[name].list = normalizeList(access[name].list);
  // §4.19 sends user agents comma-separated; §2.4 stores them joined by `;;;` with listArr.
  access.useragent.listArr = splitList(access.useragent.list);
  access.useragent.list = access.useragent.listArr.join(";;;");

  const { state } = ctx.store;
  const ids = [
    ...ctx.store.list("pushStreams"),
    ...ctx.store.list("pullStreams"),
    ...ctx.store.list("timeshiftStreams"),
  ].map((s) => Number(s.id) || 0);
  const id = Math.max(5000, ...ids) + 1;
  const hash = createHash("sha256").update(`${state.account.serviceid}:${id}:${body.name}`).digest("hex").slice(0, 32);
  const stream = buildStream({
    id,
    type: "timeshift",
    serviceid: state.account.serviceid,
    prefix: state.account.streamPrefix,
    sn: body.name,
    codec: body.codec,
    protocols: [...new Set(body.protocols)],
    hash,
    created: ctx.now,
    access,
  });
  Object.assign(stream, {
    server: server ?? stream.server,
    parentid: parent.id,
    parent,
    timeshift: { shift: body.timeshift, type: "stream" },
    // 2.5 lists ndvr/record for push streams; timeshift streams carry the values sent here too.
    ndvr: { enabled: g.ndvr?.enabled ?? "N", retention: String(g.ndvr?.retention ?? 0) },
    record: {
      enabled: g.record?.enabled ?? "N",
      retention: String(g.record?.retention ?? 0),
      stream: null,
      ...(g.record?.server ? { server: g.record.server } : {}),
    },
  });
  state.timeshiftStreams[id] = stream;
  ctx.store.commit();
  return {
    result: "success",
    message: "Timeshift stream created successfully",
    stream,
    warnings: warnings(access),
    errors: null,
  };
}

/** §2.1: non-fatal problems with a success result. */
function warnings(access: Obj): string[] {
  const out: string[] = [];
  for (const name of ["domainlock", "geoblock", "ipaccess", "useragent"]) {
    const list = access[name].list;
    if (access[name].enabled === "Y" && (Array.isArray(list) ? list.length === 0 : !list))
      out.push(`${name} is enabled with an empty list, so it has no effect`);
  }
  if (access.securetoken.enabled === "Y" && !access.securetoken.list)
    out.push("securetoken is enabled without a key; tokenized playback URLs cannot be signed");
  return out;
}

export const routes: Route[] = [
  {
    method: "POST",
    path: "/v2/streams/timeshift/new",
    handler: createTimeshift,
    write: "Timeshift stream created successfully",
  },
];
