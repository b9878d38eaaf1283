/**
 * The read floor's dynamic provider (docs/benchmarks.md, "What is measured"): the requests ours
 * sends for each resource, and nothing else. Each request goes through undici's Agent with the
 * client's connection settings and headers, its answer is parsed with `JSON.parse`, and what it
 * read is returned: no validation, no client, no retries, no pacing. An error only for a non-2xx
 * status or an answer that is not JSON. Reads of one path between two writes share one request,
 * as ours's do (ClientOptions.reuseReads): a refresh sends one read per object, not per resource
 * (in the account mix, a zone's AdBreakSlots share its roster).
 *
 * This module loads nothing of the package: the operations (method, path, whether a body is sent,
 * whether the client retries it) come from the client's declarations, written by the bench into
 * the read floor's package (read-floor.ts), which calls this module's export with them. It runs
 * inside the dynamic-provider host, so it loads undici's two modules the client loads, no more.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Dispatcher } from "undici";

/** An operation as the client declares it, reduced to what goes on the wire. */
export interface WireOperation {
  method: "GET" | "POST";
  /** Path template, e.g. `/v2/zones/http/push/{zoneid}`. */
  path: string;
  /** Whether the client sends a JSON body (the operation declares one). */
  body: boolean;
  /** Whether the client never repeats it (`connect-only`): it then waits longer for the answer. */
  unretried: boolean;
}

/** What the bench writes into the read floor's package: the operations and the client's wire settings. */
export interface ReadFloorTable {
  operations: Record<OperationName, WireOperation>;
  userAgent: string;
  connections: number;
  keepAliveTimeoutMs: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  unretriedTimeoutMs: number;
}

/** The client operations the bench's kinds send, by the names their modules export them under. */
export const OPERATION_NAMES = [
  "setPushStreamStatus",
  "setTimeshiftStreamStatus",
  "createTimeshiftStream",
  "getPushStream",
  "getTimeshiftStream",
  "updatePushZone",
  "getPushZone",
  "updateVodPullDomainLock",
  "getVodPullZone",
  "updateBulkDomainLock",
  "getBulkDomainLock",
  "addAdBreakSlot",
  "getAdInsertion",
  "archiveCampaign",
  "getCampaign",
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

/** One request: an operation, its path parameters and the body the kind's handler builds from the inputs. */
interface Request {
  op: OperationName;
  params?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** Y/N of a boolean input, as the handlers write flags (kinds/common/rules.ts). */
const yn = (b: unknown) => (b === undefined ? undefined : b ? "Y" : "N");
const csv = (xs: unknown) => (Array.isArray(xs) ? xs.join(",") : undefined);

/**
 * Per kind, the requests ours sends for the bench's inputs: its write (create and update), its
 * read (refresh) and, for the one kind whose delete calls the API, its delete. Each body is the
 * one the kind's handler builds (kinds/<kind>/handler.ts) after the client's body schema (for
 * §4.2 and §4.19, whose schemas add `_METHOD`); the smoke test compares them in the emulator's log.
 */
const KINDS: Record<
  string,
  {
    id(p: any, answer: any): string;
    write(p: any): Request;
    read(id: string, p: any): Request;
    delete?(id: string): Request;
  }
> = {
  StreamStatus: {
    id: (p) => `${p.streamKind}/${p.streamId}`,
    write: (p) => ({
      op: p.streamKind === "push" ? "setPushStreamStatus" : "setTimeshiftStreamStatus",
      params: { streamid: p.streamId },
      body: { disabled: p.disabled ? 1 : 0 },
    }),
    read: (_id, p) => ({
      op: p.streamKind === "push" ? "getPushStream" : "getTimeshiftStream",
      params: { streamid: p.streamId },
    }),
  },
  TimeshiftStream: {
    id: (_p, answer) => String(answer.stream.id),
    write: (p) => ({
      op: "createTimeshiftStream",
      body: { _METHOD: "PUT", name: p.name, codec: p.codec, timeshift: p.timeshift, parent: p.parent },
    }),
    read: (id) => ({ op: "getTimeshiftStream", params: { streamid: id } }),
    // The API has no delete for streams: ours disables it (§4.4).
    delete: (id) => ({ op: "setTimeshiftStreamStatus", params: { streamid: id }, body: { disabled: 1 } }),
  },
  PushZoneSettings: {
    id: (p) => String(p.zoneId),
    write: (p) => ({
      op: "updatePushZone",
      params: { zoneid: p.zoneId },
      body: { cnames: csv(p.customDomains), profiles: p.transcodingProfiles, webhook: p.transcodeWebhook },
    }),
    read: (_id, p) => ({ op: "getPushZone", params: { zoneid: p.zoneId } }),
  },
  VodPullDomainLock: {
    id: (p) => String(p.zoneId),
    write: (p) => ({
      op: "updateVodPullDomainLock",
      params: { zoneid: p.zoneId },
      body: {
        enabled: yn(p.enabled),
        policy: p.policy,
        list: csv(p.domains),
        ips: csv(p.ips),
        noreferer: p.noreferer,
        active: yn(p.active),
        mode: "S",
      },
    }),
    read: (_id, p) => ({ op: "getVodPullZone", params: { zoneid: p.zoneId } }),
  },
  AdBreakSlot: {
    id: (p) => (p.type === "midroll" ? `${p.zoneId}/midroll/${p.offset}` : `${p.zoneId}/${p.type}`),
    write: (p) => ({
      op: "addAdBreakSlot",
      params: { zoneid: p.zoneId },
      body: { type: p.type, maxDurationS: p.maxDurationS, offset: p.offset, _METHOD: "PUT" },
    }),
    read: (_id, p) => ({ op: "getAdInsertion", params: { zoneid: p.zoneId } }),
  },
  CampaignArchive: {
    id: (p) => `${p.projectId}/${p.campaignId}`,
    write: (p) => ({ op: "archiveCampaign", params: { pid: p.projectId, cid: p.campaignId } }),
    read: (_id, p) => ({ op: "getCampaign", params: { pid: p.projectId, cid: p.campaignId } }),
  },
  HttpDomainLockBulk: {
    id: () => "account",
    write: (p) => ({
      op: "updateBulkDomainLock",
      body: { enabled: yn(p.enabled), policy: p.policy, list: csv(p.domains), ips: csv(p.ips), mode: p.mode },
    }),
    read: () => ({ op: "getBulkDomainLock" }),
  },
};

/**
 * What a read returns beside the inputs: the answer's object's name and status, as read. The
 * outputs stay small, so the read floor's state is no larger than ours and the engine's state
 * writes weigh no more on it.
 */
function outputsOf(answer: any): Record<string, unknown> {
  const object = answer?.stream ?? answer?.zone ?? answer?.campaign ?? answer;
  return { name: object?.name ?? null, status: object?.status ?? null };
}

/** The dynamic provider of the read floor, from the table the bench wrote. */
export function readFloorProvider(table: ReadFloorTable): pulumi.dynamic.ResourceProvider {
  /* eslint-disable @typescript-eslint/no-require-imports -- undici's two modules, by their paths, as the client loads them */
  const Agent: typeof import("undici").Agent = require("undici/lib/dispatcher/agent");
  const dispatch: (
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ) => Promise<Dispatcher.ResponseData> = require("undici/lib/api/api-request");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const agent = new Agent({
    connections: table.connections,
    pipelining: 1,
    keepAliveTimeout: table.keepAliveTimeoutMs,
    connectTimeout: table.connectTimeoutMs,
    headersTimeout: table.headersTimeoutMs,
    bodyTimeout: table.bodyTimeoutMs,
  });
  let origin = "";
  let prefix = "";

  /** The answers (text) of reads since the last write, by path: one request per object and snapshot. */
  const reads = new Map<string, Promise<string>>();

  async function send(request: Request): Promise<any> {
    const op = table.operations[request.op];
    const path = op.path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(request.params?.[key])));
    if (op.method !== "GET") {
      // What a write changes is not known: reads on either side of it never share.
      reads.clear();
      try {
        return JSON.parse(await answerOf(op, path, request.body));
      } finally {
        reads.clear();
      }
    }
    let text = reads.get(path);
    if (!text) {
      text = answerOf(op, path, undefined);
      reads.set(path, text);
      text.catch(() => reads.delete(path));
    }
    return JSON.parse(await text);
  }

  /** One request's answer as text; throws on a non-2xx status. */
  async function answerOf(op: WireOperation, path: string, body: Record<string, unknown> | undefined) {
    const headers: Record<string, string> = {
      "x-api-key": process.env.CDNSTREAM_API_KEY ?? "",
      accept: "application/json",
      "user-agent": table.userAgent,
    };
    // An operation declared with a body sends one (`{}` at least), as the client does.
    const text = op.body ? JSON.stringify(body ?? {}) : undefined;
    if (text !== undefined) headers["content-type"] = "application/json";
    const timeout = op.unretried ? table.unretriedTimeoutMs : 0;
    const res = await dispatch.call(agent, {
      origin,
      path: prefix + path,
      method: op.method,
      headers,
      body: text,
      headersTimeout: Math.max(table.headersTimeoutMs, timeout),
      bodyTimeout: Math.max(table.bodyTimeoutMs, timeout),
    });
    const answer = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new Error(`${op.method} ${path}: ${res.statusCode} ${answer}`);
    return answer;
  }

  return {
    async configure(req: pulumi.dynamic.ConfigureRequest) {
      const url = new URL(req.config.get("cdnstream:baseUrl") ?? "");
      origin = url.origin;
      prefix = url.pathname.replace(/\/+$/, "");
    },
    async check(_olds: any, news: any) {
      return { inputs: news };
    },
    async diff() {
      return { changes: false };
    },
    async create(inputs: any) {
      const kind = KINDS[inputs.kind];
      const answer = await send(kind.write(inputs));
      return { id: kind.id(inputs, answer), outs: { ...inputs, ...outputsOf(answer) } };
    },
    async read(id: string, props: any) {
      return { id, props: { ...props, ...outputsOf(await send(KINDS[props.kind].read(id, props))) } };
    },
    async update(_id: string, _olds: any, news: any) {
      return { outs: { ...news, ...outputsOf(await send(KINDS[news.kind].write(news))) } };
    },
    async delete(id: string, props: any) {
      const request = KINDS[props.kind].delete?.(id);
      if (request) await send(request);
    },
  };
}
