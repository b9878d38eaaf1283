/** The request pipeline (body, fault, auth §5, routing, handler), its JSON answers and its log. */
import * as http from "node:http";
import { timingSafeEqual } from "node:crypto";
import { admin, isLoopback, type AdminDeps } from "./admin";
import { parseJsonObject, readBody } from "./body";
import { AuthError, EmulatorError, notFound } from "./errors";
import { Fault } from "./faults";
import { routes } from "./handlers";
import { LogEntry } from "./request-log";
import { createRouter } from "./router";
import { shapeResponse } from "./shape";

export interface ServerDeps extends AdminDeps {
  apiKey: string;
  forbiddenKey?: string;
  now: () => Date;
}

export function createListener(deps: ServerDeps): http.RequestListener {
  const match = createRouter(routes);
  return (req, res) => {
    const started = process.hrtime.bigint();
    // Origin-form (`/v2/...`, kept verbatim) or absolute-form.
    const target = req.url ?? "";
    const url = URL.parse(target.startsWith("/") ? `http://emulator.invalid${target}` : target);
    if (!url) return send(res, 400, { result: "error", message: `malformed request target '${req.url}'` }, {});
    const method = req.method ?? "GET";
    const entry: LogEntry = {
      time: deps.now().toISOString(),
      method,
      path: url.pathname,
      query: url.search.slice(1),
      operation: null,
      status: 0,
      durationMs: 0,
    };
    const done = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      entry.durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (!url.pathname.startsWith("/__emulator/")) deps.log.record(entry);
      send(res, status, body, headers);
    };
    const pipeline = url.pathname.startsWith("/__emulator/")
      ? serveAdmin(deps, req, url, done)
      : serveApi(deps, match, req, url, entry, done);
    pipeline.catch((e: unknown) => {
      if (e instanceof EmulatorError) return done(e.status, e.body(), e.headers);
      console.error("emulator: internal error:", e);
      done(500, { result: "error", message: `emulator internal error: ${(e as Error).message}` });
    });
  };
}

type Done = (status: number, body: unknown, headers?: Record<string, string>) => void;

async function serveAdmin(deps: ServerDeps, req: http.IncomingMessage, url: URL, done: Done) {
  if (!isLoopback(req.socket.remoteAddress))
    throw new EmulatorError(403, "the admin door answers loopback clients only");
  const body = parseJsonObject(await readBody(req), req.headers["content-type"]);
  done(200, admin(deps, req.method ?? "GET", url.pathname, body));
}

async function serveApi(
  deps: ServerDeps,
  router: ReturnType<typeof createRouter>,
  req: http.IncomingMessage,
  url: URL,
  entry: LogEntry,
  done: Done,
) {
  const profile = deps.profile;
  const match = url.pathname.startsWith("/v2/")
    ? router(entry.method, url.pathname, profile.reads === "spec-only")
    : ({ kind: "none" } as const);
  if (match.kind !== "none") entry.operation = match.operation;
  const fault = deps.faults.take(entry.operation);
  // The whole request arrives before any fault: a slow answer is then served even if the
  // client has stopped waiting, as a real server would go on with a request it received.
  const raw = await readBody(req);
  if (fault && (await injected(fault, req, entry, done))) return;

  authenticate(deps, req);
  if (match.kind === "none")
    throw notFound(`no such path: ${entry.method} ${url.pathname} (API paths are under /v2; see spec §4)`);
  if (match.kind === "not-in-api")
    throw notFound(
      `${match.operation} is not part of the API (a read extension, off under the server profile reads=spec-only)`,
    );
  if (match.kind === "method") {
    throw new EmulatorError(
      405,
      `method ${entry.method} not allowed on ${url.pathname}; allowed: ${match.allowed.join(", ")}`,
      { Allow: match.allowed.join(", ") },
    );
  }
  // Bodies are read on every request, but only the writes (POST) of §4 take one.
  const body = entry.method === "POST" ? parseJsonObject(raw, req.headers["content-type"]) : {};
  if (raw.length) entry.body = body;
  const result = match.route.handler({
    store: deps.store,
    params: match.params,
    query: url.searchParams,
    body,
    now: deps.now(),
    profile,
  });
  if (fault?.dropResponse) {
    // Carried out, but the answer is lost: the case a create must never be blindly repeated for.
    entry.fault = "drop-response";
    req.socket.destroy();
    return done(0, undefined);
  }
  done(200, shapeResponse(result, match.route, profile));
}

/** Applies an injected fault; true when it answered (or dropped) the request itself. */
async function injected(fault: Fault, req: http.IncomingMessage, entry: LogEntry, done: Done): Promise<boolean> {
  entry.fault = "latency";
  if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
  if (fault.dropConnection) {
    entry.fault = "drop";
    req.socket.destroy();
    done(0, undefined);
    return true;
  }
  if (fault.status !== undefined) {
    entry.fault = "status";
    const headers: Record<string, string> =
      fault.retryAfter !== undefined ? { "Retry-After": String(fault.retryAfter) } : {};
    done(fault.status, { result: "error", message: `injected fault: HTTP ${fault.status}` }, headers);
    return true;
  }
  return false;
}

/** §5: X-API-KEY (any case; node lowercases names) must be present and valid; the forbidden key gets 403. */
function authenticate(deps: ServerDeps, req: http.IncomingMessage): void {
  // Node joins a repeated custom header into one string.
  const key = String(req.headers["x-api-key"] ?? "");
  if (!key) throw new AuthError(401, "API key is required: send it in the X-API-KEY header");
  if (deps.forbiddenKey && same(key, deps.forbiddenKey)) {
    throw new AuthError(403, "permission denied: this account is restricted and lacks permission for this operation");
  }
  if (!same(key, deps.apiKey)) throw new AuthError(401, "API key is invalid");
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (status === 0 || res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}
