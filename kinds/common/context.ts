/**
 * What every handler in a provider host shares, in one {@link HandlerContext} the host makes and
 * passes to each kind's handler: one API client configured from the provider's settings, the
 * warnings the user is shown, and what this run has learnt about the API's read paths. A host is
 * one process per engine run, so "once per run" below means once per context.
 */
import type * as pulumi from "@pulumi/pulumi";
// The client's own modules, not its index: the index loads every operation family, and a
// provider host builds the schemas of the families its kinds call only (provider/host-setup.ts
// says why a host's start matters).
import { CdnstreamClient } from "../../client/core/client";
import { CONFIG_NAMES, configFailures, type ConfigSource } from "../../client/core/config";
import { AuthenticationError, type OperationRef } from "../../client/core/errors";
import { KEY_REFUSED_AGAIN, stackWording } from "./advice";

/** Where warnings and notes go: stderr in the dynamic-provider host, the engine's log in the plugin. */
export type DiagnosticSink = (severity: "warning" | "info", message: string) => void;

/** The CLI shows a host's stderr; the drift runner collects lines starting `warning: `. */
const toStderr: DiagnosticSink = (severity, message) =>
  process.stderr.write(`${severity === "warning" ? "warning: " : ""}${message}\n`);

/** The settings of a dynamic provider's `configure`: the stack's `cdnstream:*` config, by setting name. */
export function stackSettings(req: pulumi.dynamic.ConfigureRequest): ConfigSource {
  return Object.fromEntries(CONFIG_NAMES.map((name) => [name, req.config.get(`cdnstream:${name}`)]));
}

/** How the handlers' errors name settings and what to do: the same for every context, made once. */
const STACK_WORDING = stackWording();

/** A read operation as the client declares it (method and path template). */
export type ReadPath = OperationRef;

/** What the handlers of one provider host share; see the module's comment. */
export class HandlerContext {
  #settings: ConfigSource = {};
  #configured = false;
  #client: CdnstreamClient | undefined;
  /** The configuration's failures, judged once per configuration: each check of a run adds the same ones. */
  #configFailures: ReturnType<typeof configFailures> | undefined;
  #keyRefusalSaid = false;
  /** Read paths that answered 404 or 405 in this run, with the status: they are not sent again. */
  readonly #absentReads = new Map<string, number>();
  readonly #unreadableKinds = new Set<string>();
  /** Per read path, the first read of the run: later reads of the path wait for its outcome. */
  readonly #firstReads = new Map<string, Promise<void>>();
  readonly #shownMessages = new Set<string>();

  constructor(readonly say: DiagnosticSink = toStderr) {}

  /**
   * Takes the provider's settings, by setting name. A dynamic host calls it once per kind with
   * the same settings, so it only replaces the client when a setting differs.
   */
  async configure(settings: ConfigSource): Promise<void> {
    this.#configured = true;
    if (CONFIG_NAMES.every((name) => settings[name] === this.#settings[name])) return;
    this.#settings = { ...settings };
    this.#configFailures = undefined;
    this.#keyRefusalSaid = false; // the key may be another
    const previous = this.#client;
    this.#client = undefined;
    await previous?.close();
  }

  /**
   * The shared client; throws a ConfigError saying what to set when there is no key or URL. It
   * reuses reads between writes (ClientOptions.reuseReads says why a provider host does). A
   * refused key's advice names where the key came from, and is given once per run: every
   * resource a refused key reaches fails, and the others point at the first.
   */
  client(): CdnstreamClient {
    const { configName, advise } = STACK_WORDING;
    return (this.#client ??= new CdnstreamClient({
      config: this.#settings,
      reuseReads: true,
      configName,
      advise: (error) => {
        if (!(error instanceof AuthenticationError)) return advise(error);
        if (this.#keyRefusalSaid) return KEY_REFUSED_AGAIN;
        this.#keyRefusalSaid = true;
        return advise(error);
      },
    }));
  }

  /**
   * A check's result with the configuration's failures first ({@link configFailures}), so a preview
   * fails where `up` would: failures without a property (the configuration is not an input of the
   * resource), none before `configure` has run.
   */
  withConfigFailures(result: pulumi.dynamic.CheckResult): pulumi.dynamic.CheckResult {
    if (!this.#configured) return result;
    const failures = (this.#configFailures ??= configFailures(this.#settings, STACK_WORDING));
    const config = failures.map(({ reason }) => ({ property: "", reason }));
    return config.length ? { ...result, failures: [...config, ...(result.failures ?? [])] } : result;
  }

  /** A warning for the person running the CLI. */
  warn(message: string): void {
    this.say("warning", message);
  }

  /** A line for the person running the CLI that is not a warning (what the API said of a write). */
  inform(message: string): void {
    this.say("info", message);
  }

  // ---- reads the spec does not list -------------------------------------------------------------

  /**
   * Says once per kind and run that a kind's objects cannot be read; `consequence` replaces the
   * default clause where part of the state is still read another way.
   */
  #reportUnreadable(kind: string, why: string, consequence?: string): void {
    if (this.#unreadableKinds.has(kind)) return;
    this.#unreadableKinds.add(kind);
    this.warn(
      `${kind}: the API has no read for this object (${why}); ` +
        (consequence ?? `refresh keeps the last applied state and cannot detect drift for ${kind} resources.`),
    );
  }

  /**
   * Runs a read through `op`, a path the spec does not list (docs/design.md, "Single-object
   * reads"). Where it answers 404 or 405, it is not tried again in this run, the kind is reported
   * once, and undefined is returned, so callers keep the last applied state; reads of the path that
   * start together wait for the first. A 404 cannot tell a missing path from a missing object, so
   * deletion out of band is never inferred from it.
   */
  async readLive<T>(kind: string, op: ReadPath, read: () => Promise<T>, consequence?: string): Promise<T | undefined> {
    const key = `${op.method} ${op.path}`;
    const first = this.#firstReads.get(key);
    let settle = () => {};
    if (first) await first;
    else this.#firstReads.set(key, new Promise<void>((resolve) => (settle = resolve)));
    try {
      const known = this.#absentReads.get(key);
      if (known !== undefined) {
        this.#reportUnreadable(kind, `${known} on ${key}`, consequence);
        return undefined;
      }
      return await read();
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status !== 404 && status !== 405) throw err;
      this.#absentReads.set(key, status);
      this.#reportUnreadable(kind, `${status} on ${key}`, consequence);
      return undefined;
    } finally {
      settle();
    }
  }

  // ---- what the API says beside a success (§2.1) --------------------------------------------------

  /**
   * Passes on what a successful write's answer says beside its result (§2.1): each `warnings` and
   * `errors` element as a `warning:` line naming the object, and `message` as a plain line once per
   * kind and wording in a run (a routine "settings updated" is said once). Returns the warnings and
   * errors as text, errors prefixed `error: `, for a kind's `warnings` output.
   */
  reportNotes(kind: string, id: string, answer: unknown): string[] {
    const { message, warnings, errors } = (answer ?? {}) as { message?: unknown; warnings?: unknown; errors?: unknown };
    const notes = [
      ...(Array.isArray(warnings) ? warnings.map(noteText) : []),
      ...(Array.isArray(errors) ? errors.map((e) => `error: ${noteText(e)}`) : []),
    ];
    for (const note of notes) this.warn(`${kind} ${id}: the API said: ${note}`);
    if (typeof message === "string" && message.trim() && !this.#shownMessages.has(`${kind}\n${message}`)) {
      this.#shownMessages.add(`${kind}\n${message}`);
      this.inform(`${kind} ${id}: the API said: ${message}`);
    }
    return notes;
  }
}

/** What an adoption that could not read its object says (a 404 cannot tell which is missing). */
export const UNVERIFIED_ADOPTION =
  "adopted on the declared values without reading it: its read answered 404/405 (the API has no read for it, or nothing " +
  "has this id), so neither the values nor that it exists could be checked; check it in the dashboard. Nothing was written.";

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
