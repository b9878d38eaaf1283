/** Messages for broken input rules, shared by the handlers' checks and the data sources' (both import the client). */
import type { z } from "zod";

/** `a.b[2]` for a zod issue path, the way Pulumi names nested properties. */
export function propertyPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join("");
}

/** One broken rule: where (a zod path) and what the rule is, in words a user can act on. */
export interface InputIssue {
  path: PropertyKey[];
  reason: string;
  /** A key the schema does not know: wrong whatever its value, so judged even while unknown. */
  unknownKey?: boolean;
}

const EXPECTED: Record<string, string> = {
  number: "a number",
  string: "a string",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

/** Messages for zod's own issues, used where a rule has no message of its own. */
const plainMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "invalid_type")
    return issue.input === undefined ? "is required" : `must be ${EXPECTED[issue.expected ?? ""] ?? issue.expected}`;
  if (issue.code === "invalid_value" && issue.values)
    return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  return undefined;
};

/** The JSON type of a value, as messages name it. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path)
    value = value && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  return value;
}

/**
 * What was given instead, for a value of the wrong JSON type (typically one read from stack
 * config with `requireObject`, which keeps the type the JSON has), and how to write it.
 */
function given(
  issue: { code: string; expected?: string; values?: unknown[] },
  value: unknown,
  message: string,
): string {
  if (value === undefined) return issue.code === "invalid_type" && !/required/.test(message) ? " (required)" : "";
  // zod reports a fraction where a whole number belongs as `invalid_type` (expected "int"): the
  // JSON type is right, the value is not, so say the value.
  if (issue.expected === "int" && typeof value === "number") return `, not ${value}`;
  const wrongType =
    issue.code === "invalid_type" ||
    (issue.code === "invalid_value" && (issue.values ?? []).every((v) => typeof v !== typeof value));
  if (!wrongType) return "";
  const asJson = "(in stack config too: the value's JSON type is what arrives)";
  const how =
    issue.expected === "number" && typeof value === "string"
      ? `: write the number without quotes ${asJson}`
      : issue.expected === "array"
        ? `: write a list, e.g. [${JSON.stringify(typeof value === "string" ? value : "...")}] ${asJson}`
        : issue.expected === "string" && typeof value === "number"
          ? `: write it in quotes ${asJson}`
          : issue.expected === "boolean" && typeof value === "string"
            ? `: write true or false without quotes ${asJson}`
            : "";
  return `, not ${kindOf(value)}${how}`;
}

/**
 * What of a schema's definition (zod's public `.def`) leads to the keys an object declares: the
 * schema an optional, nullable or default wraps, a pipe's input, an array's elements, an object's fields.
 */
interface Definition {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

const definition = (schema: z.ZodType | undefined) => schema?.def as Definition | undefined;

/** The keys a (possibly wrapped) object schema declares at `path`, for suggesting a misspelt key. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.ZodType | undefined = schema;
  const unwrap = () => {
    for (let def = definition(node); def; def = definition(node)) {
      if (def.type === "optional" || def.type === "nullable" || def.type === "default") node = def.innerType;
      else if (def.type === "pipe") node = def.in;
      else break;
    }
  };
  for (const part of path) {
    unwrap();
    const def = definition(node);
    node = typeof part === "number" ? def?.element : def?.shape?.[part as string];
  }
  unwrap();
  const shape = definition(node)?.shape;
  return shape ? Object.keys(shape) : [];
}

function unknownKeyReason(schema: z.ZodType, path: readonly PropertyKey[], key: string): string {
  const known = keysAt(schema, path);
  const lower = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  const meant = known.find((k) => {
    const l = k.toLowerCase();
    return l === lower || (lower.length >= 3 && (l.startsWith(lower) || lower.startsWith(l)));
  });
  const name = JSON.stringify(key);
  if (meant) return `${name} is not an input: did you mean "${meant}"?`;
  return known.length ? `${name} is not an input (inputs here: ${known.join(", ")})` : `${name} is not an input`;
}

/** Longest rendering of an offending value in a message; a longer one is cut, ending in `…`. */
export const SHOWN_VALUE_MAX = 60;

/** A value as a message shows it: its JSON, at most {@link SHOWN_VALUE_MAX} characters. */
export function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_VALUE_MAX ? `${text.slice(0, SHOWN_VALUE_MAX - 1)}…` : text;
}

/** The issues of `value` against `schema`; an unknown key is one issue per key, with the input it likely means. */
export function describeIssues(schema: z.ZodType, value: unknown): InputIssue[] {
  const result = schema.safeParse(value, { error: plainMessages });
  if (result.success) return [];
  return result.error.issues.flatMap((issue): InputIssue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...issue.path, key],
        reason: unknownKeyReason(schema, issue.path, key),
        unknownKey: true,
      }));
    }
    const at = valueAt(value, issue.path);
    const reason = issue.message + given(issue as Parameters<typeof given>[0], at, issue.message);
    // Pulumi shows the value of a top-level property beside its error, but not of a list's
    // element (`customDomains[1] value {<nil>}`): the reason says which value is wrong.
    const inList = issue.path.some((part) => typeof part === "number");
    return [{ path: issue.path, reason: inList && at !== undefined ? `${shownValue(at)} ${reason}` : reason }];
  });
}
