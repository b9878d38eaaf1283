/** Operations declared once, as data: {@link defineOperation} makes each declaration its typed call. */
import { z } from "zod";
import type { RetryKind } from "./errors";
import { templateParams } from "./path";

/** Any zod schema. */
export type Schema = z.ZodType;

/** The description of one API operation. */
export interface Operation<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
> {
  /** Spec section (`4.1`...), or `ext:<name>` for a read the spec lacks (docs/design.md, "Single-object reads"). */
  id: string;
  method: "GET" | "POST";
  /** Path template, e.g. `/v2/cb/{backupid}`. */
  path: string;
  /** Declared `connect-only` for an operation that must not be repeated; `retriable` when left out. */
  retry: RetryKind;
  /** Path parameters; values are validated, then each encoded as one segment. */
  params?: P;
  /** Query parameters (strict). */
  query?: Q;
  /** Body (strict); its output is what goes on the wire. */
  body?: B;
  /** Response (lenient: unknown fields kept). */
  response: R;
}

/** The input half of a call, for a schema slot that may be absent. */
type Slot<K extends string, S, Optional extends boolean> = S extends Schema
  ? Optional extends true
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: undefined };

/** What a call of operation `O` takes. */
export type CallInput<O extends Operation> =
  O extends Operation<infer P, infer Q, infer B, Schema>
    ? Slot<"params", P, false> & Slot<"query", Q, true> & Slot<"body", B, false>
    : never;

/** What a call of operation `O` resolves to. */
export type CallOutput<O extends Operation> = z.output<O["response"]>;

/** Per-call options. */
export interface RequestOptions {
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number;
  /** Overrides the client's maximum retries for this call. */
  maxRetries?: number;
}

// ---- the derived call's arguments, read from the path template --------------------------------

/** `"/v2/ad-manager/{pid}/campaigns/{cid}"` -> `["pid", "cid"]`. */
export type TemplateParams<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? [Name, ...TemplateParams<Rest>]
  : [];

/** The value types of the path parameters named `Names`, in template order. */
type ParamArgs<Names extends string[], In> = Names extends [infer N extends string, ...infer Rest extends string[]]
  ? [N extends keyof In ? In[N] : never, ...ParamArgs<Rest, In>]
  : [];

/** The body argument: optional when the body schema accepts `{}`, absent when there is no body. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends X`: X's keys are all optional
type BodyArg<B> = B extends Schema ? ({} extends z.input<B> ? [body?: z.input<B>] : [body: z.input<B>]) : [];

/** The query argument: always optional, absent when there is no query. */
type QueryArg<Q> = Q extends Schema ? [query?: z.input<Q>] : [];

/** The positional arguments of an operation's call after the client. */
export type CallArgs<Path extends string, P, Q, B> = [
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no path parameters
  ...ParamArgs<TemplateParams<Path>, P extends Schema ? z.input<P> : {}>,
  ...BodyArg<B>,
  ...QueryArg<Q>,
  options?: RequestOptions,
];

/** A declared operation: its description, and callable as `op(client, ...pathParams, body?, query?, options?)`. */
export type DefinedOperation<
  Path extends string,
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  R extends Schema,
> = Operation<P, Q, B, R> & {
  readonly path: Path;
  (client: OperationCaller, ...args: CallArgs<Path, P, Q, B>): Promise<z.output<R>>;
};

/** What a declared operation needs of the client (`CdnstreamClient`), so the two modules do not import each other. */
export interface OperationCaller {
  call<O extends Operation>(op: O, input: CallInput<O>, options?: RequestOptions): Promise<CallOutput<O>>;
}

const DECLARED = new WeakSet<object>();
/** True for a value made by {@link defineOperation} (the registry lists them). */
export const isOperation = (value: unknown): value is Operation => DECLARED.has(value as object);

/**
 * Declares an operation once; returns it callable. The path template's placeholders name the
 * call's first arguments; a body whose schema accepts `{}` may be left out (sent as `{}`).
 */
export function defineOperation<
  const Path extends string,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema = Schema,
>(op: Omit<Operation<P, Q, B, R>, "retry"> & { path: Path; retry?: RetryKind }): DefinedOperation<Path, P, Q, B, R> {
  const names = templateParams(op.path);
  // Whether `{}` stands in for a left-out body: asked at the first call that leaves it out, not
  // when the module loads (zod compiles a schema at its first parse).
  let bodyMayBeEmpty: boolean | undefined;
  const emptyBody = () => {
    bodyMayBeEmpty ??= op.body!.safeParse({}).success;
    return bodyMayBeEmpty ? {} : undefined;
  };
  const call = (client: OperationCaller, ...args: unknown[]) => {
    let i = 0;
    const params = names.length > 0 ? Object.fromEntries(names.map((name) => [name, args[i++]])) : undefined;
    const body = op.body === undefined ? undefined : (args[i++] ?? emptyBody());
    const query = op.query === undefined ? undefined : args[i++];
    return client.call(defined as Operation, { params, body, query } as never, args[i] as RequestOptions | undefined);
  };
  const described = Object.assign(call, { retry: "retriable" }, op);
  const defined = Object.freeze(described) as unknown as DefinedOperation<Path, P, Q, B, R>;
  DECLARED.add(defined);
  return defined;
}
