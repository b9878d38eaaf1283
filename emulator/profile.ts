/** Server profiles: the readings of what the spec leaves open (emulator/README.md, "Server profiles"). */
import { z } from "zod";
import { splitList } from "./validate";

const profileSchema = z.strictObject({
  /** Items per page of §4.7, §4.9 and §4.10. */
  pageSize: z.int().min(1),
  /** A page number past the last one: an empty list, or the last page again. */
  pastLastPage: z.enum(["empty", "repeat-last"]),
  /** §4.2: re-sending a slot's identity replaces it, or is refused with 422 naming the slot. */
  slots: z.enum(["upsert", "add-only"]),
  /** The single-object GET reads are served, or every path the spec does not list answers 404 (`strictSpec`). */
  reads: z.enum(["extensions", "spec-only"]),
  /** The campaign `status` word after §4.3 archive. */
  archivedStatus: z.string().trim().min(1).max(64),
  /** How a non-null `deleted` (§2.2, §2.5, §2.17) is written: as stored, or Unix seconds (a number). */
  deleted: z.enum(["date", "unix"]),
  /** An empty `warnings` (§2.1) as [] or null. */
  emptyWarnings: z.enum(["array", "null"]),
  /** true: every successful write also carries a `message` and non-empty `warnings` and `errors`. */
  writeNotes: z.boolean(),
});

/** One reading of every place the spec leaves open that clients depend on. */
export type ServerProfile = z.infer<typeof profileSchema>;

/** The emulator's original readings. */
export const DEFAULT_PROFILE: Readonly<ServerProfile> = Object.freeze({
  pageSize: 20,
  pastLastPage: "empty",
  slots: "upsert",
  reads: "extensions",
  archivedStatus: "archived",
  deleted: "date",
  emptyWarnings: "array",
  writeNotes: false,
});

/** Validates a partial profile: every field optional, unknown fields refused. */
export const profilePatchSchema = profileSchema.partial();

/** A change to some fields of a profile. */
export type ProfilePatch = Partial<ServerProfile>;

/** Named profiles the test suites run under; each is a patch over {@link DEFAULT_PROFILE}. */
export const PROFILES = {
  default: {},
  "pages-of-1": { pageSize: 1 },
  "pages-of-2-repeating": { pageSize: 2, pastLastPage: "repeat-last" },
  "pages-of-1000": { pageSize: 1000 },
  "add-only-slots": { slots: "add-only" },
  "no-reads": { reads: "spec-only" },
  "other-words": { archivedStatus: "ARCHIVED", deleted: "unix", emptyWarnings: "null", writeNotes: true },
  "strict-server": {
    pageSize: 2,
    pastLastPage: "repeat-last",
    slots: "add-only",
    reads: "spec-only",
    archivedStatus: "Archived",
    deleted: "unix",
    emptyWarnings: "null",
    writeNotes: true,
  },
} as const satisfies Record<string, ProfilePatch>;

export type ProfileName = keyof typeof PROFILES;

const FIELDS = Object.keys(DEFAULT_PROFILE) as (keyof ServerProfile)[];

/** What each field accepts, for messages. */
const ACCEPTS: Record<keyof ServerProfile, string> = {
  pageSize: "an integer >= 1",
  pastLastPage: "empty or repeat-last",
  slots: "upsert or add-only",
  reads: "extensions or spec-only",
  archivedStatus: "a non-empty word of at most 64 characters",
  deleted: "date or unix",
  emptyWarnings: "array or null",
  writeNotes: "true or false",
};

/** Checks a partial profile; throws an Error naming each bad field, the value given and what it accepts. */
export function checkProfilePatch(data: unknown): ProfilePatch {
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new Error("profile: must be a JSON object of profile fields");
  const result = profilePatchSchema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((k) => `${k}: unknown profile field; known fields: ${FIELDS.join(", ")}`).join("; ");
    const field = String(issue.path[0]) as keyof ServerProfile;
    const given = (data as Record<string, unknown>)[field];
    return `${field}: must be ${ACCEPTS[field]} (got ${JSON.stringify(given)})`;
  });
  throw new Error(problems.join("; "));
}

/**
 * Parses the CLI form `pageSize=2,slots=add-only` (values as text; `writeNotes=true`). An item
 * without `=` names one of {@link PROFILES}, e.g. `strict-server` or `other-words,pageSize=3`;
 * later items override earlier ones. Throws an Error naming the bad item.
 */
export function parseProfileFlag(text: string): ProfilePatch {
  const patch: Record<string, unknown> = {};
  for (const item of splitList(text)) {
    const eq = item.indexOf("=");
    if (eq < 0) {
      if (!Object.prototype.hasOwnProperty.call(PROFILES, item)) {
        throw new Error(
          `--profile: '${item}' is neither field=value nor a named profile; named profiles: ${Object.keys(PROFILES).join(", ")}; fields: ${FIELDS.join(", ")}`,
        );
      }
      Object.assign(patch, PROFILES[item as ProfileName]);
      continue;
    }
    const key = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    patch[key] =
      key === "pageSize" && /^-?\d+$/.test(raw)
        ? Number(raw)
        : key === "writeNotes" && (raw === "true" || raw === "false")
          ? raw === "true"
          : raw;
  }
  try {
    return checkProfilePatch(patch);
  } catch (e) {
    throw new Error(`--profile: ${(e as Error).message}`);
  }
}
