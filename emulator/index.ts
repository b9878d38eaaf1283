/**
 * The API emulator: a local HTTP server of every spec §4 operation, for the demo and the tests.
 * See emulator/README.md for the fixture format, the admin door and what is emulated.
 */
import * as http from "node:http";
import { randomBytes } from "node:crypto";
import { AddressInfo } from "node:net";
import { Faults } from "./faults";
import { RequestLog } from "./request-log";
import { defaultFixture } from "./fixtures/generate";
import { createListener } from "./server";
import { defaultFixturePath, FixtureInput, Store } from "./store";

export type { Account, FixtureInput, Kind, Obj, State } from "./store";
export { KINDS } from "./store";
export type { Fault } from "./faults";
export type { LogEntry } from "./request-log";

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
  /** Answer only the spec's paths: the read extensions answer 404. */
  strictSpec?: boolean;
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

/** Starts an emulator and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const apiKey = options.apiKey ?? `emu_${randomBytes(20).toString("hex")}`;
  // default.json is the generator's output (a test keeps them equal); a package installed without
  // the JSON file still has the compiled generator.
  const store = new Store(options.fixture ?? defaultFixturePath() ?? defaultFixture(), options.stateFile);
  const listener = createListener({
    store, apiKey, forbiddenKey: options.forbiddenKey, strictSpec: !!options.strictSpec,
    faults: new Faults(), log: new RequestLog([apiKey, options.forbiddenKey]), now: options.now ?? (() => new Date()),
  });
  const server = http.createServer(listener);
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
