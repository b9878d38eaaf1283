/** The admin door under /__emulator/ (emulator/README.md): no API key, loopback clients only, not the API. */
import { z } from "zod";
import { EmulatorError, notFound } from "./errors";
import { faultSchema, Faults } from "./faults";
import { checkProfilePatch, ServerProfile } from "./profile";
import { RequestLog } from "./request-log";
import { idField, KINDS, Obj, Store } from "./store";
import { parse } from "./validate";

/** What the admin door reads and changes: the server's state (emulator/server.ts adds what the API needs). */
export interface AdminDeps {
  store: Store;
  faults: Faults;
  log: RequestLog;
  /** The profile in force; the admin door replaces it whole, so a request reads it once and keeps it. */
  profile: ServerProfile;
  /** The profile the emulator started with, which the admin door restores. */
  startProfile: ServerProfile;
}

const mutateSchema = z.strictObject({
  kind: z.enum([...KINDS, "account"]),
  /** Required for every kind but `account`. */
  id: z.union([z.string().min(1), z.int()]).optional(),
  /** Deep-merged into the object (created if absent); null deletes it. */
  patch: z.looseObject({}).nullable(),
});

/** Answers one admin request; returns the JSON body or throws an EmulatorError. */
export function admin(deps: AdminDeps, method: string, pathname: string, body: Obj): unknown {
  const { store, faults, log } = deps;
  switch (`${method} ${pathname}`) {
    case "GET /__emulator/state":
      return store.state;
    case "POST /__emulator/mutate": {
      const m = parse(mutateSchema, body);
      if (m.kind !== "account" && m.id === undefined) throw new EmulatorError(422, "id: required for kind " + m.kind);
      if (m.kind === "account" && m.patch === null)
        throw new EmulatorError(422, "patch: the account cannot be deleted");
      const field = m.kind === "account" ? undefined : idField(m.kind);
      if (field && m.patch?.[field] !== undefined && String(m.patch[field]) !== String(m.id)) {
        throw new EmulatorError(422, `patch.${field}: must equal id (${m.id}); objects are stored under their id`);
      }
      return { result: "success", object: store.mutate(m.kind, m.id, m.patch) };
    }
    case "GET /__emulator/faults":
      return { result: "success", faults: faults.pending() };
    case "POST /__emulator/faults": {
      const fault = parse(faultSchema, body);
      if (fault.status === undefined && fault.latencyMs === undefined && !fault.dropConnection && !fault.dropResponse) {
        throw new EmulatorError(422, "fault: give at least one of status, latencyMs, dropConnection, dropResponse");
      }
      faults.add(fault);
      return { result: "success", faults: faults.pending() };
    }
    case "DELETE /__emulator/faults":
      faults.clear();
      return { result: "success", faults: [] };
    case "GET /__emulator/requests":
      return log.snapshot();
    case "DELETE /__emulator/requests":
      log.clear();
      return { result: "success" };
    case "GET /__emulator/profile":
      return { result: "success", profile: deps.profile };
    case "POST /__emulator/profile":
      try {
        deps.profile = Object.freeze({ ...deps.profile, ...checkProfilePatch(body) });
      } catch (e) {
        throw new EmulatorError(422, (e as Error).message);
      }
      return { result: "success", profile: deps.profile };
    case "DELETE /__emulator/profile":
      deps.profile = deps.startProfile;
      return { result: "success", profile: deps.profile };
    // Reset restores the account and clears faults; the profile is a property of the server, kept.
    case "POST /__emulator/reset":
      store.reset();
      faults.clear();
      return { result: "success", message: "state restored from the fixture" };
    default:
      throw notFound(`no admin endpoint ${method} ${pathname}; see emulator/README.md`);
  }
}

/** The admin door answers loopback clients only, even when the API listens more widely. */
export function isLoopback(address: string | undefined): boolean {
  return !!address && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));
}
