/**
 * What every handler in the provider host shares: one API client configured from stack config,
 * the warnings the CLI shows, and what this host run has learnt about the API's read paths. The
 * host is one process per engine run, so "once per run" below means once per process.
 */
import type * as pulumi from "@pulumi/pulumi";
// The client's own modules, not its index: the index loads every operation family, and a
// provider host builds the schemas of the families its kinds call only (host-setup.ts says why
// a host's start matters).
import { CdnstreamClient } from "../../client/core/client";
import { CONFIG_NAMES, configFailures, type ConfigSource } from "../../client/core/config";
import { adviceForKeySource, AuthenticationError, KEY_REFUSED_AGAIN, withKeyAdvice } from "../../client/core/errors";
import type { CallInput, CallOutput, Operation, RequestOptions } from "../../client/core/operation";

let stackConfig: ConfigSource = {};
let configured = false;
let client: CdnstreamClient | undefined;

/**
 * Takes the stack's `cdnstream:*` settings. The host calls it once per kind with the same
 * config, so it only replaces the client when a setting differs.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const next: Record<string, string | undefined> = {};
  for (const name of CONFIG_NAMES) next[`cdnstream:${name}`] = req.config.get(`cdnstream:${name}`);
  configured = true;
  if (CONFIG_NAMES.every((name) => next[`cdnstream:${name}`] === stackConfig[`cdnstream:${name}`])) return;
  stackConfig = next;
  const previous = client;
  client = undefined;
  await previous?.close();
}

/**
 * The handlers' client: a refused key's advice names where the key came from, and is given once
 * per run: every resource a refused key reaches fails, and the others point at the first.
 */
class ProviderClient extends CdnstreamClient {
  #keyRefusalSaid = false;

  override async call<O extends Operation>(
    op: O,
    input: CallInput<O>,
    options: RequestOptions = {},
  ): Promise<CallOutput<O>> {
    try {
      return await super.call(op, input, options);
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      if (this.#keyRefusalSaid) throw withKeyAdvice(err, KEY_REFUSED_AGAIN);
      this.#keyRefusalSaid = true;
      throw adviceForKeySource(err, this.settings.apiKeySource);
    }
  }
}

/**
 * The shared client; throws a ConfigError saying what to set when there is no key or URL. It
 * reuses reads between writes (ClientOptions.reuseReads says why a provider host does).
 */
export function apiClient(): CdnstreamClient {
  client ??= new ProviderClient({ config: stackConfig, reuseReads: true });
  return client;
}

/**
 * A check's result with the configuration's failures first ({@link configFailures}), so a preview
 * fails where `up` would: failures without a property (the configuration is not an input of the
 * resource), none before `configure` has run.
 */
export function withConfigFailures(result: pulumi.dynamic.CheckResult): pulumi.dynamic.CheckResult {
  if (!configured) return result;
  const settings = Object.fromEntries(CONFIG_NAMES.map((name) => [name, stackConfig[`cdnstream:${name}`]]));
  const config = configFailures(settings).map(({ reason }) => ({ property: "", reason }));
  return config.length ? { ...result, failures: [...config, ...(result.failures ?? [])] } : result;
}

type DiagnosticSink = (severity: "warning" | "info", message: string) => void;
let diagnosticSink: DiagnosticSink | undefined;

/** Routes {@link warn} and {@link inform} to `sink` instead of stderr (the provider plugin: to the engine's log). */
export function routeDiagnostics(sink: DiagnosticSink): void {
  diagnosticSink = sink;
}

/** A warning for the person running the CLI (on stderr, the drift runner collects lines starting `warning: `). */
export const warn = (message: string): void => say("warning", message);

/** A line for the person running the CLI that is not a warning (what the API said of a write). */
export const inform = (message: string): void => say("info", message);

function say(severity: "warning" | "info", message: string): void {
  if (diagnosticSink) diagnosticSink(severity, message);
  else process.stderr.write(`${severity === "warning" ? "warning: " : ""}${message}\n`);
}

// ---- reads the spec does not list ---------------------------------------------------------------

/** A read operation as the client declares it (method and path template). */
export interface ReadPath {
  method: string;
  path: string;
}

/** Read paths that answered 404 or 405 in this run, with the status: they are not sent again. */
const absentReads = new Map<string, number>();
const unreadableKinds = new Set<string>();

/**
 * Says once per kind and run that a kind's objects cannot be read; `consequence` replaces the
 * default clause where part of the state is still read another way.
 */
function reportUnreadable(kind: string, why: string, consequence?: string): void {
  if (unreadableKinds.has(kind)) return;
  unreadableKinds.add(kind);
  warn(
    `${kind}: the API has no read for this object (${why}); ` +
      (consequence ?? `refresh keeps the last applied state and cannot detect drift for ${kind} resources.`),
  );
}

/** Per read path, the first read of the run: later reads of the path wait for its outcome. */
const firstReads = new Map<string, Promise<void>>();

/**
 * Runs a read through `op`, a path the spec does not list (docs/design.md, "Single-object
 * reads"). Where it answers 404 or 405, it is not tried again in this run, the kind is reported
 * once, and undefined is returned, so callers keep the last applied state; reads of the path that
 * start together wait for the first. A 404 cannot tell a missing path from a missing object, so
 * deletion out of band is never inferred from it.
 */
export async function readLive<T>(
  kind: string,
  op: ReadPath,
  read: () => Promise<T>,
  consequence?: string,
): Promise<T | undefined> {
  const key = `${op.method} ${op.path}`;
  const first = firstReads.get(key);
  let settle = () => {};
  if (first) await first;
  else firstReads.set(key, new Promise<void>((resolve) => (settle = resolve)));
  try {
    const known = absentReads.get(key);
    if (known !== undefined) {
      reportUnreadable(kind, `${known} on ${key}`, consequence);
      return undefined;
    }
    return await read();
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status !== 404 && status !== 405) throw err;
    absentReads.set(key, status);
    reportUnreadable(kind, `${status} on ${key}`, consequence);
    return undefined;
  } finally {
    settle();
  }
}

/** What an adoption that could not read its object says (a 404 cannot tell which is missing). */
export const UNVERIFIED_ADOPTION =
  "adopted on the declared values without reading it: its read answered 404/405 (the API has no read for it, or nothing " +
  "has this id), so neither the values nor that it exists could be checked; check it in the dashboard. Nothing was written.";

// ---- what the API says beside a success (§2.1) ----------------------------------------------------

/** One element of `warnings` or `errors` as text: §2.1 types `errors` only as "array", so objects occur. */
export function noteText(note: unknown): string {
  if (typeof note === "string") return note;
  if (note && typeof note === "object") {
    const { message, code } = note as { message?: unknown; code?: unknown };
    if (typeof message === "string")
      return code === undefined || code === null ? message : `${message} (code ${String(code)})`;
  }
  return JSON.stringify(note);
}

const shownMessages = new Set<string>();

/**
 * Passes on what a successful write's answer says beside its result (§2.1): each `warnings` and
 * `errors` element as a `warning:` line naming the object, and `message` as a plain line once per
 * kind and wording in a run (a routine "settings updated" is said once). Returns the warnings and
 * errors as text, errors prefixed `error: `, for a kind's `warnings` output.
 */
export function reportNotes(kind: string, id: string, answer: unknown): string[] {
  const { message, warnings, errors } = (answer ?? {}) as { message?: unknown; warnings?: unknown; errors?: unknown };
  const notes = [
    ...(Array.isArray(warnings) ? warnings.map(noteText) : []),
    ...(Array.isArray(errors) ? errors.map((e) => `error: ${noteText(e)}`) : []),
  ];
  for (const note of notes) warn(`${kind} ${id}: the API said: ${note}`);
  if (typeof message === "string" && message.trim() && !shownMessages.has(`${kind}\n${message}`)) {
    shownMessages.add(`${kind}\n${message}`);
    inform(`${kind} ${id}: the API said: ${message}`);
  }
  return notes;
}
