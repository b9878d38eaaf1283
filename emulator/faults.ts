/** Fault injection for the admin door: the next N API requests (or N of one operation) get a status, latency or a drop. */
import { z } from "zod";

/** A fault as posted to `POST /__emulator/faults`. */
export const faultSchema = z.strictObject({
  /** Answer with this HTTP status and a `{result:"error", message}` body. */
  status: z.int().min(400).max(599).optional(),
  /** Sent as the Retry-After header (seconds, or an HTTP date) with `status`. */
  retryAfter: z.union([z.int().min(0), z.string().min(1)]).optional(),
  /** Delay before answering (or before dropping). */
  latencyMs: z.int().min(0).max(60_000).optional(),
  /** Destroy the socket without a response, before the request is carried out. */
  dropConnection: z.boolean().optional(),
  /** Carry the request out, then destroy the socket instead of answering (a lost response). */
  dropResponse: z.boolean().optional(),
  /** How many API requests get this fault. */
  count: z.int().min(1).default(1),
  /** Only requests of this operation, written as in the request log's counts; default: any API request. */
  operation: z
    .string()
    .regex(/^[A-Z]+ \/\S+$/, 'must be "METHOD /v2/path-template", as in GET /__emulator/requests counts')
    .optional(),
});

export type Fault = z.infer<typeof faultSchema>;

/** Pending faults, consumed in the order they were posted, one per API request. */
export class Faults {
  private queue: Fault[] = [];

  add(fault: Fault): void {
    this.queue.push({ ...fault });
  }

  /**
   * The fault for an API request of `operation` (null when no route matched), if any: the
   * oldest pending fault that applies to it, counted down.
   */
  take(operation: string | null = null): Fault | undefined {
    const index = this.queue.findIndex((f) => f.operation === undefined || f.operation === operation);
    if (index < 0) return undefined;
    const fault = this.queue[index];
    fault.count -= 1;
    if (fault.count <= 0) this.queue.splice(index, 1);
    return fault;
  }

  pending(): Fault[] {
    return this.queue.map((f) => ({ ...f }));
  }

  clear(): void {
    this.queue = [];
  }
}
