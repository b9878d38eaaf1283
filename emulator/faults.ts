/** Fault injection for the admin door: the next N API requests get a status, latency or a drop. */
import { z } from "zod";

/** A fault as posted to `POST /__emulator/faults`. */
export const faultSchema = z.strictObject({
  /** Answer with this HTTP status and a `{result:"error", message}` body. */
  status: z.int().min(400).max(599).optional(),
  /** Sent as the Retry-After header (seconds, or an HTTP date) with `status`. */
  retryAfter: z.union([z.int().min(0), z.string().min(1)]).optional(),
  /** Delay before answering (or before dropping). */
  latencyMs: z.int().min(0).max(60_000).optional(),
  /** Destroy the socket without a response. */
  dropConnection: z.boolean().optional(),
  /** How many API requests get this fault. */
  count: z.int().min(1).default(1),
});

/** A fault to inject, as accepted by the admin door. */
export type Fault = z.infer<typeof faultSchema>;

/** Pending faults, consumed in the order they were posted, one per API request. */
export class Faults {
  private queue: Fault[] = [];

  add(fault: Fault): void {
    this.queue.push({ ...fault });
  }

  /** The fault for the next API request, if any, counting it down. */
  take(): Fault | undefined {
    const head = this.queue[0];
    if (!head) return undefined;
    head.count -= 1;
    if (head.count <= 0) this.queue.shift();
    return head;
  }

  pending(): Fault[] {
    return this.queue.map((f) => ({ ...f }));
  }

  clear(): void {
    this.queue = [];
  }
}
