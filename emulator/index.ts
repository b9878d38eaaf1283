/** The API emulator, a local HTTP server of every spec §4 operation (emulator/README.md). */
import * as http from "node:http";
import { randomBytes } from "node:crypto";
import { AddressInfo } from "node:net";
import { Duplex } from "node:stream";
import { Faults } from "./faults";
import { RequestLog } from "./request-log";
import { defaultFixture } from "./fixtures/generate";
import { checkProfilePatch, DEFAULT_PROFILE, ProfilePatch, ServerProfile } from "./profile";
import { createListener, send } from "./server";
import { defaultFixturePath, FixtureInput, Store } from "./store";

export type { Account, FixtureInput, Kind, Obj, State } from "./store";
export { KINDS } from "./store";
export type { Fault } from "./faults";
export type { LogEntry } from "./request-log";
export type { ProfileName, ProfilePatch, ServerProfile } from "./profile";
export { DEFAULT_PROFILE, PROFILES, parseProfileFlag, profilePatchSchema } from "./profile";

/** Options of {@link startEmulator}; every one is optional. */
export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** The valid API key (§5); a random one is generated when omitted. */
  apiKey?: string;
  /** A key that authenticates but is refused with 403 (§5 account restriction). */
  forbiddenKey?: string;
  /** Fixture object or JSON file path; default emulator/fixtures/default.json. */
  fixture?: FixtureInput;
  /** Persist every change to this JSON file (atomically) and load it on start when present. */
  stateFile?: string;
  /** Answer only the spec's paths: the read extensions answer 404. Same as `profile: { reads: "spec-only" }`, and wins over it. */
  strictSpec?: boolean;
  /** The server profile (fields left out keep the default); switchable mid-run at `/__emulator/profile`. */
  profile?: ProfilePatch;
  /** Clock for timestamps written by the API (tests pin it); default the system clock. */
  now?: () => Date;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL without /v2, e.g. http://127.0.0.1:12345. */
  url: string;
  port: number;
  /** The valid API key (the given one, or the generated one). */
  apiKey: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * Requests node's HTTP parser refuses (an unknown or lower-case method, a broken request line,
 * headers over 16 KiB) never reach the listener; node would answer them with an empty body.
 * They get the `{result:"error", message}` body of every other error, then the connection closes.
 */
function answerClientError(err: Error & { code?: string; reason?: string }, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const what =
    status === 431
      ? "request line and headers exceed the server's 16 KiB limit"
      : `malformed HTTP request: ${err.reason ?? err.message}${err.code ? ` (${err.code})` : ""}`;
  const text = JSON.stringify({ result: "error", message: what });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** Answers before the request pipeline (and its log) with the usual error body, then closes. */
const refuse = (res: http.ServerResponse, status: number, message: string) =>
  send(res, status, { result: "error", message }, { Connection: "close" });

/** The profile a start asks for: `profile` over the default, `strictSpec` forcing spec-only reads. */
function startProfile(options: EmulatorOptions): ServerProfile {
  try {
    return Object.freeze({
      ...DEFAULT_PROFILE,
      ...checkProfilePatch(options.profile ?? {}),
      ...(options.strictSpec ? { reads: "spec-only" as const } : {}),
    });
  } catch (e) {
    throw new Error(`startEmulator: profile: ${(e as Error).message}`);
  }
}

/** Starts an emulator and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const profile = startProfile(options);
  const apiKey = options.apiKey ?? `emu_${randomBytes(20).toString("hex")}`;
  // default.json is the generator's output (a test keeps them equal); a package installed without
  // the JSON file still has the compiled generator.
  const store = new Store(options.fixture ?? defaultFixturePath() ?? defaultFixture(), options.stateFile);
  const listener = createListener({
    store,
    apiKey,
    forbiddenKey: options.forbiddenKey,
    profile,
    startProfile: profile,
    faults: new Faults(),
    log: new RequestLog([apiKey, options.forbiddenKey].filter((key): key is string => !!key)),
    now: options.now ?? (() => new Date()),
  });
  // Node answers a missing Host or an unknown Expect with an empty body; these answer in JSON.
  const server = http.createServer({ requireHostHeader: false }, (req, res) => {
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused with 400.
    if (req.httpVersion === "1.1" && req.headers.host === undefined)
      return refuse(res, 400, "the Host header is required in HTTP/1.1");
    listener(req, res);
  });
  server.on("checkExpectation", (req, res) =>
    refuse(res, 417, `Expect: ${req.headers.expect} is not supported (only 100-continue)`),
  );
  server.on("clientError", answerClientError);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    apiKey,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
