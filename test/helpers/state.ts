/** Reading what the engine recorded and reported. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment } from "@pulumi/pulumi/automation";

/**
 * Every file under `dir` (a backend, PULUMI_HOME, a project), each as `[relative path, text]`;
 * bytes are read as latin1, so nothing is lost to decoding when searching for a secret.
 */
export function filesUnder(dir: string): [string, string][] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(dir, file), fs.readFileSync(file).toString("latin1")];
    });
}

/** The largest `__provider` string among the stack's resources, in bytes. */
/**
 * What every kind's state must be: free of the API key (in any form the checkpoint holds it),
 * with each resource's `__provider` a small module, not code.
 */
export function expectCleanState(state: Deployment, apiKey: string): void {
  expect(JSON.stringify(state)).not.toContain(apiKey);
  expect(providerBytes(state)).toBeLessThanOrEqual(1024);
}

export function providerBytes(state: Deployment): number {
  const sizes = (state.deployment.resources ?? [])
    .map((r: any) => r.inputs?.__provider)
    .filter((p: unknown): p is string => typeof p === "string")
    .map((p: string) => Buffer.byteLength(p));
  if (!sizes.length) throw new Error("no resource in the state carries a __provider");
  return Math.max(...sizes);
}

/**
 * From a preview's engine events: for each resource (by name) that would change, the input
 * properties whose recorded and declared values differ, which is what the CLI shows (dynamic
 * providers report no property list of their own).
 */
export function changedProperties(events: any[]): Record<string, string[]> {
  const changed: Record<string, string[]> = {};
  for (const event of events) {
    const meta = event.resourcePreEvent?.metadata;
    if (!meta || meta.op === "same" || meta.op === "read") continue;
    const olds = meta.old?.inputs ?? {};
    const news = meta.new?.inputs ?? {};
    const keys = new Set([...Object.keys(olds), ...Object.keys(news)].filter((k) => k !== "__provider"));
    const name = String(meta.urn).split("::").pop()!;
    changed[name] = [...keys].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
  }
  return changed;
}

/** `text` as a regular expression that matches it literally (for messages holding `(`, `{`, `.`). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
