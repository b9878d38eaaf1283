/**
 * The API emulator for end-to-end tests: started on a free loopback port, with its admin door
 * (`/__emulator/`) wrapped for out-of-band changes, faults and the request log.
 */
import { request } from "undici";
import {
  startEmulator,
  type EmulatorOptions,
  type ProfilePatch,
  type RunningEmulator,
  type ServerProfile,
} from "../../emulator";

export interface TestEmulator extends RunningEmulator {
  /** Stack config that points the provider at this emulator, the key as a secret. */
  stackConfig(): Record<string, { value: string; secret?: boolean }>;
  /** `GET /__emulator/state`: every object by kind and id. */
  state(): Promise<Record<string, Record<string, any>>>;
  /** One object of the emulator's state. */
  object(kind: string, id: string | number): Promise<any>;
  /** `POST /__emulator/mutate`: an out-of-band change, deep-merged into the object. */
  mutate(kind: string, id: string | number, patch: unknown): Promise<void>;
  /** `GET /__emulator/requests`: per-operation counts of API requests since the last clear. */
  requestCounts(): Promise<Record<string, number>>;
  /** `DELETE /__emulator/requests`. */
  clearRequests(): Promise<void>;
  /** `GET /__emulator/faults`: faults not yet consumed. */
  pendingFaults(): Promise<unknown[]>;
  /** `POST /__emulator/faults`. */
  inject(fault: {
    status?: number;
    retryAfter?: number;
    latencyMs?: number;
    dropConnection?: boolean;
    dropResponse?: boolean;
    count: number;
    operation?: string;
  }): Promise<void>;
  /** `GET /__emulator/profile`: the server profile in force. */
  profile(): Promise<ServerProfile>;
  /** `POST /__emulator/profile`: merges `patch` into the profile in force (mid-run); resolves to the whole profile. */
  setProfile(patch: ProfilePatch): Promise<ServerProfile>;
}

async function admin(base: string, method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<any> {
  const res = await request(`${base}/__emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`emulator admin ${method} ${path} answered ${res.statusCode}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator(options);
  const base = emulator.url;
  return {
    ...emulator,
    stackConfig: () => ({
      "cdnstream:apiKey": { value: emulator.apiKey, secret: true },
      "cdnstream:baseUrl": { value: base },
    }),
    state: () => admin(base, "GET", "state"),
    object: async (kind, id) => (await admin(base, "GET", "state"))[kind]?.[String(id)],
    mutate: (kind, id, patch) => admin(base, "POST", "mutate", { kind, id: String(id), patch }),
    requestCounts: async () => (await admin(base, "GET", "requests")).counts,
    clearRequests: () => admin(base, "DELETE", "requests"),
    inject: (fault) => admin(base, "POST", "faults", fault),
    pendingFaults: async () => (await admin(base, "GET", "faults")).faults,
    profile: async () => (await admin(base, "GET", "profile")).profile,
    setProfile: async (patch) => (await admin(base, "POST", "profile", patch)).profile,
  };
}
