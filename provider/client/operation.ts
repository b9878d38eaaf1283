/**
 * An operation is data: method, path template, retry class and the zod schemas of its path
 * parameters, query, body and response. Family modules declare them; the client runs them.
 */
import { z } from "zod";
import type { RetryKind } from "./errors";

/** Any zod schema. */
export type Schema = z.ZodType;

/** The description of one API operation. */
export interface Operation<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
> {
  /** Spec section (`4.1`...) or `ext:<name>` for the inferred reads of docs/design.md. */
  id: string;
  method: "GET" | "POST";
  /** Path template, e.g. `/v2/cb/{backupid}`. */
  path: string;
  /** See retry.ts. */
  retry: RetryKind;
  /** Path parameters; values are validated, then each encoded as one segment. */
  params?: P;
  /** Query parameters (strict). */
  query?: Q;
  /** Body (strict); its output is what goes on the wire. */
  body?: B;
  /** Response (lenient: unknown fields kept). */
  response: R;
  /** True for reads that are not in the spec (docs/design.md, "Single-object reads"). */
  extension?: boolean;
}

/** The input half of a call, for a schema slot that may be absent. */
type Slot<K extends string, S, Optional extends boolean> = S extends Schema
  ? Optional extends true
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: undefined };

/** What a call of operation `O` takes. */
export type CallInput<O extends Operation> =
  O extends Operation<infer P, infer Q, infer B, Schema> ? Slot<"params", P, false> & Slot<"query", Q, true> & Slot<"body", B, false> : never;

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

/** Declares an operation, keeping its literal schema types. */
export function defineOperation<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema = Schema,
>(op: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return op;
}
