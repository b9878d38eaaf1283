/**
 * What `cdnstream drift reconcile` may change in one stack, decided from the report and from a
 * refreshing preview of the targeted `up` (./drift-revert.ts), before anything is written:
 *
 * - the live values of the reported resources must still be the report's (read again now);
 * - the `up` must change exactly the counted findings, each back to its recorded value, and
 *   nothing else: no other property of a reported resource (a pending change of the program, an
 *   accepted finding), no other resource, no replacement.
 *
 * Pulumi's `--target` works on whole resources, so a resource whose revert would carry anything
 * else is refused rather than trimmed: what is written is always what a person reviewed.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { KINDS } from "../../kinds/registry";
import {
  counts,
  findingsFromEvents,
  hasCountedDrift,
  maskSecrets,
  SECRET,
  shortType,
  type ResourceDrift,
  type StackReport,
} from "./drift-report";

/** One property set back: to `recorded` (the program's value, which the state holds) from `before`. */
export interface PropertyRevert {
  property: string;
  recorded: unknown;
  /** The live value when reconcile checked again (the report's). */
  before: unknown;
  /** The live value after the revert, read by the check afterwards. */
  after?: unknown;
}

/** One reported resource reconcile sets back, or creates again where it was deleted. */
export interface ResourceRevert {
  urn: string;
  name: string;
  type: string;
  /** The object was deleted: it is created again from the program. */
  recreate: boolean;
  properties: PropertyRevert[];
}

/**
 * Kinds whose create makes a new object (docs/recovery.md): creating one again is not a revert
 * (a new id, new URLs, new credentials), so a deleted one is refused. The six other kinds write
 * settings of an object the stack does not create, which is safe to repeat.
 */
const CREATE_MAKES_A_NEW_OBJECT: ReadonlySet<keyof typeof KINDS> = new Set(["TimeshiftStream"]);

/** The kind of a type token, on either path (`pulumi-nodejs:dynamic/cdnstream:X`, `cdnstream:index:X`). */
export function kindOf(type: string): keyof typeof KINDS | undefined {
  const name = /^(?:pulumi-nodejs:dynamic\/cdnstream:|cdnstream:index:)(\w+)$/.exec(type)?.[1];
  return name !== undefined && name in KINDS ? (name as keyof typeof KINDS) : undefined;
}

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  const sortKeys = (_key: string, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v;
  return JSON.stringify(value ?? null, sortKeys);
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
const show = (value: unknown) => (value === SECRET ? SECRET : canonical(value));
const label = (r: Pick<ResourceDrift, "name" | "type">) => `${r.name} (${shortType(r.type)})`;

/** The resources of a stack's report that reconcile sets back: those with a counted finding. */
export const targetsOf = (stack: StackReport): ResourceDrift[] => stack.resources.filter(hasCountedDrift);

/**
 * Why the stack cannot be reconciled from its report alone, before the engine is asked anything;
 * undefined when it can be tried.
 */
export function refusalFromReport(stack: StackReport & { checkpoint?: unknown }): string | undefined {
  if (stack.error !== undefined)
    return "the report could not check this stack, so its findings are incomplete: check it again (`cdnstream drift`) and reconcile the new report";
  if (stack.checkpoint === undefined)
    return "the report does not record which state the stack was checked against (a report of an older `cdnstream drift`): check it again and reconcile the new report";
  const reasons: string[] = [];
  for (const r of targetsOf(stack)) {
    const uncounted = r.properties.filter((p) => p.accepted !== undefined);
    if (uncounted.length)
      reasons.push(
        `${label(r)} has accepted findings (${uncounted.map((p) => p.property).join(", ")}) beside counted ones, and Pulumi reverts whole resources, so they would be reverted too: ` +
          "revert it with `pulumi up --target` after reviewing its preview, or accept or revert all of its findings",
      );
    if (!r.deleted) continue;
    const kind = kindOf(r.type);
    if (kind === undefined)
      reasons.push(
        `${label(r)} was deleted, and it is not a cdnstream kind, whose create this command knows to be safe to repeat: create it again with \`pulumi up\` after reviewing its preview`,
      );
    else if (CREATE_MAKES_A_NEW_OBJECT.has(kind))
      reasons.push(
        `${label(r)} was deleted, and creating a ${kind} makes a new object (a new id, new playback URLs and credentials; docs/recovery.md), not the one reviewed: ` +
          "if it still exists under another id, adopt it (`adoptId`); to make a new one, run `pulumi up` after reviewing its preview; or remove it from the program",
      );
  }
  return reasons.length ? reasons.join("; ") : undefined;
}

/** What changed since the report among the targets, from the refresh events of the targeted preview. */
function liveChanges(targets: readonly ResourceDrift[], events: readonly EngineEvent[]): string[] {
  const now = new Map(findingsFromEvents(events).resources.map((r) => [r.urn, r]));
  const refreshed = new Set(
    events.flatMap((e) => (e.resOutputsEvent?.metadata.op === "refresh" ? [e.resOutputsEvent.metadata.urn] : [])),
  );
  const changes: string[] = [];
  for (const r of targets) {
    if (!refreshed.has(r.urn)) {
      changes.push(`${label(r)} is no longer in the stack's state`);
      continue;
    }
    const current = now.get(r.urn);
    if (r.deleted || current?.deleted) {
      if (!current?.deleted) changes.push(`${label(r)} exists again (the report says deleted)`);
      else if (!r.deleted) changes.push(`${label(r)} was deleted (the report names changed properties)`);
      continue;
    }
    const reported = new Map(r.properties.map((p) => [p.property, p]));
    const found = new Map((current?.properties ?? []).map((p) => [p.property, p]));
    for (const [property, p] of reported) {
      const live = found.get(property);
      if (!live) changes.push(`${r.name}.${property} is back to its recorded value ${show(p.recorded)}`);
      else if (!same(live.live, p.live))
        changes.push(`${r.name}.${property} is now ${show(live.live)} (the report says ${show(p.live)})`);
    }
    for (const [property, p] of found)
      if (!reported.has(property)) changes.push(`${r.name}.${property} changed too, to ${show(p.live)}`);
  }
  return changes;
}

// Steps that write nothing to the account: the stack resource, a provider's configuration.
const writesNothing = (op: string, type: string) =>
  op === "same" || op === "refresh" || op === "read" || (op === "update" && type.startsWith("pulumi:providers:"));

/**
 * The reverts of a stack, or why it is refused, from its report and the events of the targeted
 * refreshing preview. `refusal` says what changed, or what the `up` would do besides.
 */
export function planFromPreview(
  stack: StackReport,
  events: readonly EngineEvent[],
): { reverts: ResourceRevert[] } | { refusal: string } {
  const targets = targetsOf(stack);
  const changed = liveChanges(targets, events);
  if (changed.length)
    return {
      refusal: `the live values of the reported resources are no longer the report's: ${changed.join("; ")}. Check again (\`cdnstream drift\`) and review the new report`,
    };
  const byUrn = new Map(targets.map((r) => [r.urn, r]));
  // What the state recorded for each target, from its refresh: what a deleted one is created with.
  const recordedInputs = new Map<string, Record<string, unknown>>();
  for (const e of events) {
    const meta = e.resOutputsEvent?.metadata;
    if (meta?.op === "refresh" && meta.old) recordedInputs.set(meta.urn, maskSecrets(meta.old.inputs ?? {}) as never);
  }
  const problems: string[] = [];
  const reverts = new Map<string, ResourceRevert>();
  for (const e of events) {
    const meta = e.resourcePreEvent?.metadata;
    if (!meta) continue;
    const target = byUrn.get(meta.urn);
    // A reported resource the `up` would leave as it is: the program now declares its live values.
    if (target && meta.op === "same") {
      const news = maskSecrets(meta.new?.inputs ?? {}) as Record<string, unknown>;
      for (const p of target.properties.filter(counts))
        problems.push(
          `the program now declares ${target.name}.${p.property} as ${show(news[p.property])}, not its recorded ${show(p.recorded)}: a change is pending in the program for it`,
        );
      continue;
    }
    if (writesNothing(meta.op, meta.type)) continue;
    const name = meta.urn.split("::").pop() ?? meta.urn;
    if (!target) {
      problems.push(
        `the targeted \`up\` would also ${meta.op} ${name} (${shortType(meta.type)}), which the report does not name`,
      );
      continue;
    }
    const olds = maskSecrets(meta.old?.inputs ?? {}) as Record<string, unknown>;
    const news = maskSecrets(meta.new?.inputs ?? {}) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => k !== "__provider").sort();
    if (target.deleted && meta.op === "create") {
      const recorded = recordedInputs.get(meta.urn) ?? {};
      const differs = keys.filter((k) => !same(news[k], recorded[k]));
      if (differs.length)
        problems.push(
          `${label(target)} would be created with ${differs.map((k) => `${k} ${show(news[k])} (recorded ${show(recorded[k])})`).join(", ")}: the program has changed since its last \`up\``,
        );
      else
        reverts.set(meta.urn, { urn: meta.urn, name: target.name, type: target.type, recreate: true, properties: [] });
      continue;
    }
    if (meta.op !== "update") {
      problems.push(
        `${label(target)} would be ${meta.op === "replace" ? "replaced" : `${meta.op}d`}, not set back in place`,
      );
      continue;
    }
    const counted = new Map(target.properties.filter(counts).map((p) => [p.property, p]));
    // A secret input shows masked on both sides, so its planned value cannot be compared. Every
    // secret input of a cdnstream kind replaces the resource when it changes (TimeshiftStream's
    // secureToken), so a change of one plans a replacement, refused below; another provider's may not.
    const hidden =
      kindOf(target.type) === undefined
        ? keys.filter((k) => olds[k] === SECRET && news[k] === SECRET && !counted.has(k))
        : [];
    if (hidden.length)
      problems.push(
        `${label(target)} has secret inputs (${hidden.join(", ")}) whose planned values cannot be compared with the report: revert it with \`pulumi up --target\` after reviewing its preview`,
      );
    const extra = keys.filter((k) => !counted.has(k) && !same(olds[k], news[k]) && !hidden.includes(k));
    if (extra.length)
      problems.push(
        `${label(target)} would also change ${extra.map((k) => `${k} from ${show(olds[k])} to ${show(news[k])}`).join(", ")}, which the report does not name (a change pending in the program, or an accepted or ignored finding)`,
      );
    const properties: PropertyRevert[] = [];
    for (const [property, p] of counted) {
      if (!same(news[property], p.recorded))
        problems.push(
          `the program now declares ${target.name}.${property} as ${show(news[property])}, not its recorded ${show(p.recorded)}: a change is pending in the program for it`,
        );
      else properties.push({ property, recorded: p.recorded, before: p.live });
    }
    reverts.set(meta.urn, { urn: meta.urn, name: target.name, type: target.type, recreate: false, properties });
  }
  for (const r of targets)
    if (!reverts.has(r.urn) && !problems.some((p) => p.includes(label(r)) || p.includes(`${r.name}.`)))
      problems.push(`the targeted \`up\` would not change ${label(r)}: the program now declares its live values`);
  if (problems.length)
    return {
      refusal: `the targeted \`up\` would not be exactly the reviewed revert: ${problems.join("; ")}. Nothing was changed`,
    };
  return { reverts: targets.map((r) => reverts.get(r.urn)!) };
}
