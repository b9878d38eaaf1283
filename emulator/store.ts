/** The state of one emulated account: fixture loading, out-of-band mutation, reset, persistence. */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";

/** The object families the store holds, keyed by id (creatives by `crid`). */
export const KINDS = [
  "httpPushZones",
  "httpPullZones",
  "vodPushZones",
  "vodPullZones",
  "pushStreams",
  "pullStreams",
  "timeshiftStreams",
  "dnsZones",
  "backups",
  "adManagerProjects",
  "campaigns",
  "purges",
  "creatives",
  "adBreaks",
  "adPodRequests",
] as const;

export type Kind = (typeof KINDS)[number];

/** A stored API object: plain JSON in the §2 shapes (plus documented emulator-only keys). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- plain JSON; each handler reads the fields it owns
export type Obj = Record<string, any>;

const accountSchema = z.strictObject({
  /** Account service id, copied into every object's `serviceid`. */
  serviceid: z.int().positive().default(1201),
  /** §1: ad insertion operations need the custom plan. */
  customPlan: z.boolean().default(false),
  /** §4.6, §4.9, §4.18: the advanced analytics add-on. */
  advancedAnalytics: z.boolean().default(false),
  /** §4.15: plan-driven cap on ad manager projects. */
  projectsLimit: z.int().min(0).default(5),
  /** §4.14: authoritative nameservers of the account. */
  nameservers: z.array(z.string()).default([]),
  /** §2.5: prefix part (`parts.pp`) of composed stream names. */
  streamPrefix: z.string().default("acct"),
  /** §4.11: the account-level domain lock saved by every bulk mode. */
  domainLockDefault: z.looseObject({}).default({}),
});

/** Account-level settings and plan flags (`account` in a fixture). */
export type Account = z.infer<typeof accountSchema>;

const objects = z.record(z.string(), z.looseObject({})).default({});
const fixtureSchema = z.strictObject({
  account: accountSchema.default(accountSchema.parse({})),
  ...Object.fromEntries(KINDS.map((k) => [k, objects])),
} as { account: z.ZodDefault<typeof accountSchema> } & Record<Kind, typeof objects>);

/** The whole emulated account: `account` plus one id-keyed map per kind. */
export type State = { account: Account } & Record<Kind, Record<string, Obj>>;

/** A fixture: a file path, or an object in the fixture format (see emulator/README.md). */
export type FixtureInput = string | object;

/** The field an object is stored under: creatives by `crid`, everything else by `id`. */
export const idField = (kind: Kind): "crid" | "id" => (kind === "creatives" ? "crid" : "id");

export const keyOf = (kind: Kind, obj: Obj): string => String(obj[idField(kind)]);

export const isPlainObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Where default.json lives, seen from the sources or from dist/emulator; undefined if absent. */
export function defaultFixturePath(): string | undefined {
  return [__dirname, path.join(__dirname, "..", "..", "emulator")]
    .map((dir) => path.join(dir, "fixtures", "default.json"))
    .find((p) => fs.existsSync(p));
}

/** Validates a fixture (or state file) and returns a fresh State; throws naming the problem. */
export function parseFixture(input: FixtureInput, source = "fixture"): State {
  let raw: unknown = input;
  if (typeof input === "string") {
    source = input;
    raw = JSON.parse(fs.readFileSync(input, "utf8"));
  }
  const parsed = fixtureSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid ${source}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const state = structuredClone(parsed.data) as State;
  for (const kind of KINDS) {
    for (const [key, obj] of Object.entries(state[kind])) {
      if (keyOf(kind, obj) !== key)
        throw new Error(`invalid ${source}: ${kind}.${key}: key must equal the object's ${idField(kind)}`);
    }
  }
  return state;
}

/** Objects merge key by key; arrays, scalars and null replace (admin `mutate`). */
export function deepMerge(target: Obj, patch: Obj): Obj {
  for (const [k, v] of Object.entries(patch)) {
    if (k === "__proto__" || k === "constructor" || k === "prototype") continue;
    target[k] = isPlainObject(v) && isPlainObject(target[k]) ? deepMerge(target[k], v) : structuredClone(v);
  }
  return target;
}

/** The state of one emulated account, with the fixture it resets to. */
export class Store {
  state: State;
  /** §4.13 `from_cache`: campaign ids whose targeting was read since the last change. */
  readonly targetingReads = new Set<string>();
  /** §4.3: the status word each campaign archive wrote, by campaign id (the profile's word may change later). */
  readonly archivedWords = new Map<string, string>();
  private readonly fixture: State;

  constructor(
    fixture: FixtureInput,
    private readonly stateFile?: string,
  ) {
    this.fixture = parseFixture(fixture);
    const saved = stateFile && fs.existsSync(stateFile) ? parseFixture(stateFile) : undefined;
    this.state = saved ?? structuredClone(this.fixture);
    this.commit();
  }

  get(kind: Kind, id: string | number): Obj | undefined {
    return Object.hasOwn(this.state[kind], String(id)) ? this.state[kind][String(id)] : undefined;
  }

  /** Every object of `kind`, in key order. */
  list(kind: Kind): Obj[] {
    return Object.values(this.state[kind]);
  }

  /** Out-of-band change: deep-merges `patch` (creating the object if absent), or deletes it when `patch` is null. */
  mutate(kind: Kind | "account", id: string | number | undefined, patch: Obj | null): Obj | null {
    this.targetingReads.clear();
    const key = String(id);
    let result: Obj | null = null;
    if (kind === "account") result = deepMerge(this.state.account, patch ?? {});
    else if (patch === null) delete this.state[kind][key];
    else {
      // A created object gets its id field, so the state stays loadable (keys must equal ids).
      const fresh = { [idField(kind)]: /^\d{1,15}$/.test(key) ? Number(key) : key };
      result = deepMerge(this.state[kind][key] ?? fresh, patch);
      this.state[kind][key] = result;
    }
    this.commit();
    return result;
  }

  reset(): void {
    this.state = structuredClone(this.fixture);
    this.targetingReads.clear();
    this.archivedWords.clear();
    this.commit();
  }

  /** Persists the state if a state file is configured: write a temp file, then rename over. */
  commit(): void {
    if (!this.stateFile) return;
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.state));
    fs.renameSync(tmp, this.stateFile);
  }
}
