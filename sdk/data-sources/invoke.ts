/**
 * How a data source runs one operation: its arguments checked (./args.ts) and renamed to the
 * API's field names, the shared client, and failures turned into messages a Pulumi user can act
 * on (the argument names they wrote, the plan or add-on a 403 is about).
 *
 * Internal to the SDK: every export is `@internal`, so the published declarations
 * (`stripInternal`) name neither zod nor the client's types.
 */
import type { z } from "zod";
import type {
  ApiError,
  CdnstreamClient,
  Operation,
  PermissionDeniedError,
  ValidationError,
  ValidationIssue,
} from "../../client";
import { dataSourceClient, type DataSourceOptions } from "./client";
import { clientModule } from "./lazy-client";
import { camelize, camelKey } from "./naming";

/** What a data source declares about the operation it runs. @internal */
export interface DataSourceCall {
  /** The exported function, e.g. `getAdBreaks`. */
  fn: string;
  /** The client operation it runs (spec section and path, for messages). */
  op: Operation;
  /** What it reads, for messages: "ad breaks". */
  what: string;
  /** Every argument: its name -> the API's name for it (path parameters included). */
  names: Readonly<Record<string, string>>;
  /** The arguments' rules (args.ts), checked before anything else. */
  args?: z.ZodType;
  /** Plan gates of the operation (the API's operation headings): what a 403 most likely means. */
  needs?: {
    customPlan?: boolean;
    /** `true`: the operation needs the advanced analytics add-on; a list: these arguments do. */
    addOn?: boolean | readonly string[];
  };
}

/**
 * Checks `args`, renames them to API names and runs `call` on the data source client; every
 * error comes back prefixed with the function's name.
 * @internal
 */
export async function invoke<T>(
  spec: DataSourceCall,
  args: object | undefined,
  options: DataSourceOptions | undefined,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked by `spec`, passed on to typed client calls
  call: (client: CdnstreamClient, api: Record<string, any>, request: { signal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  const given = (args ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(given).filter((k) => given[k] !== undefined && !Object.hasOwn(spec.names, k));
  if (unknown.length > 0) throw unknownArguments(spec, unknown);
  if (spec.args) {
    const { describeIssues, propertyPath } = clientModule();
    const issues = describeIssues(spec.args, given).map((issue) => ({
      field: propertyPath(issue.path),
      rule: issue.reason,
    }));
    if (issues.length > 0) throw invalid(spec, issues);
  }
  try {
    const api: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(given)) if (value !== undefined) api[spec.names[name]!] = value;
    return await call(dataSourceClient(options), api, { signal: options?.signal });
  } catch (err) {
    throw explain(spec, given, err);
  }
}

/** Arguments that break their rules: refused before the client is made, nothing sent. */
function invalid(spec: DataSourceCall, issues: ValidationIssue[]): ValidationError {
  return new (clientModule().ValidationError)(message(spec, issues), {
    status: undefined,
    operation: { method: spec.op.method, path: spec.op.path },
    attempts: 0,
    sent: false,
    issues,
  });
}

/** A misspelt or API-spelt argument (`content_ids` for `contentIds`): refused, nothing sent. */
function unknownArguments(spec: DataSourceCall, unknown: string[]): ValidationError {
  const known = Object.keys(spec.names);
  const issues = unknown.map((k) => {
    const meant = known.find((a) => a === camelKey(k) || a.toLowerCase() === k.toLowerCase());
    return {
      field: k,
      rule: `is not an argument of ${spec.fn}${meant ? ` (did you mean \`${meant}\`?)` : known.length ? ` (arguments: ${known.join(", ")})` : " (it takes none)"}`,
    };
  });
  return invalid(spec, issues);
}

/** The documented result of a response: `result` dropped (a value means success), keys camelCased. @internal */
export function toResult<T>(response: object): T {
  const { result: _result, ...rest } = response as Record<string, unknown>;
  return camelize(rest) as T;
}

/**
 * A counted listing (`POST /v2/ad-manager/{pid}/requests`, `GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks`): the one `page` asked for, with its paging fields, or every
 * page's items, each once, with the API's `total` (the client's paginator). @internal
 */
export async function onePageOrAll<T>(
  page: number | undefined,
  onePage: (page: number) => Promise<object>,
  every: () => { collect(): Promise<{ items: readonly unknown[]; total?: number }> },
): Promise<T> {
  if (page !== undefined) return toResult<T>(await onePage(page));
  const { items, total } = await every().collect();
  return { items: camelize(items), ...(total === undefined ? {} : { total }) } as T;
}

/** The error a Pulumi user should see for `err`. @internal */
export function explain(spec: DataSourceCall, args: Record<string, unknown>, err: unknown): unknown {
  const { CdnstreamError, PermissionDeniedError, ValidationError } = clientModule();
  if (err instanceof ValidationError && !err.sent) return invalidArguments(spec, err);
  if (err instanceof PermissionDeniedError) return permissionDenied(spec, args, err);
  if (err instanceof CdnstreamError) err.message = `${spec.fn}: ${err.message}`;
  return err;
}

function invalidArguments(spec: DataSourceCall, err: ValidationError): ValidationError {
  const argOf = new Map(Object.entries(spec.names).map(([arg, api]) => [api, arg]));
  const issues: ValidationIssue[] = err.issues.map((issue) => {
    const [head = "", ...rest] = issue.field.split(".");
    return { field: [argOf.get(head) ?? head, ...rest].filter(Boolean).join("."), rule: issue.rule };
  });
  return new (clientModule().ValidationError)(message(spec, issues), { ...fieldsOf(err), sent: false, issues });
}

function message(spec: DataSourceCall, issues: ValidationIssue[]): string {
  const detail = issues.map((i) => (i.field ? `\`${i.field}\` ${i.rule}` : i.rule)).join("; ");
  return `${spec.fn}: invalid argument${issues.length > 1 ? "s" : ""}, nothing was sent to the API: ${detail}. Fix the value and run again.`;
}

const ADD_ON = "the advanced analytics add-on";

function permissionDenied(
  spec: DataSourceCall,
  args: Record<string, unknown>,
  err: PermissionDeniedError,
): PermissionDeniedError {
  const said = err.apiMessage ? ` The API said: "${err.apiMessage}".` : "";
  const section = `${spec.op.method} ${spec.op.path}`;
  const addOn = spec.needs?.addOn;
  const gated = Array.isArray(addOn) ? addOn.filter((a) => args[a] !== undefined) : [];
  const needs = [spec.needs?.customPlan && "the custom plan", addOn === true && ADD_ON].filter((n): n is string =>
    Boolean(n),
  );
  const denied = (message: string) => new (clientModule().PermissionDeniedError)(message, fieldsOf(err));
  if (needs.length === 0 && gated.length === 0) {
    return denied(
      `${spec.fn}: permission denied (403): the API key is valid but this account may not read ${spec.what} ` +
        `(an account restriction; ${section} needs no plan or add-on).${said} Check the account's restrictions in the dashboard.`,
    );
  }
  const filters = gated.length
    ? `${needs.length ? "; " : " with "}the filter${gated.length > 1 ? "s" : ""} ${gated.map((a) => `\`${a}\``).join(", ")} need${gated.length > 1 ? "" : "s"} ${ADD_ON}`
    : "";
  const missing = gated.length && addOn !== true ? [...needs, ADD_ON] : needs;
  return denied(
    `${spec.fn}: permission denied (403): reading ${spec.what}${needs.length ? ` needs ${needs.join(" and ")}` : ""}${filters} (${section}).${said} ` +
      `Add ${missing.join(" and ")} to the account in the dashboard${gated.length ? ", or drop those filters" : ""}, then run again. ` +
      `If the account already has ${missing.length > 1 ? "both" : "it"}, the account is restricted.`,
  );
}

function fieldsOf(err: ApiError) {
  return {
    status: err.status,
    operation: err.operation,
    requestPath: err.requestPath,
    apiMessage: err.apiMessage,
    body: err.body,
    attempts: err.attempts,
  };
}
