/** The request log behind `GET /__emulator/requests`; no configured key is ever stored in it. */

/** One logged API request. */
export interface LogEntry {
  time: string;
  method: string;
  path: string;
  /** The query string without `?`, or "" */
  query: string;
  /** `METHOD /v2/path/{template}`, or null when no operation matched. */
  operation: string | null;
  /** HTTP status sent; 0 when an injected fault dropped the connection. */
  status: number;
  durationMs: number;
  /** The JSON body of a write, with secret-looking fields redacted. */
  body?: unknown;
  /** The injected fault applied to this request, if any. */
  fault?: "status" | "latency" | "drop" | "drop-response";
}

/** The log keeps the newest entries only, so long benchmarks cannot grow memory without bound. */
export const MAX_LOG_ENTRIES = 10_000;

// Field names whose values are credentials (§2.2 ftpdetails.password, §2.5 rtmpauth.password,
// §4.19 securetoken[list] which is the token key, s3 keys).
const SECRET_FIELD = /pass|secret|token|key|auth/i;

export class RequestLog {
  private entries: LogEntry[] = [];
  private counts: Record<string, number> = {};

  constructor(private readonly secrets: string[]) {}

  record(entry: LogEntry): void {
    const clean: LogEntry = { ...entry, path: this.hide(entry.path), query: this.hide(entry.query) };
    if (entry.body !== undefined) clean.body = this.redact(entry.body, "");
    this.entries.push(clean);
    if (this.entries.length > MAX_LOG_ENTRIES) this.entries.shift();
    if (clean.operation) this.counts[clean.operation] = (this.counts[clean.operation] ?? 0) + 1;
  }

  snapshot(): { requests: LogEntry[]; counts: Record<string, number> } {
    return { requests: this.entries, counts: this.counts };
  }

  clear(): void {
    this.entries = [];
    this.counts = {};
  }

  private hide(s: string): string {
    for (const secret of this.secrets)
      s = s.replaceAll(secret, "[REDACTED]").replaceAll(encodeURIComponent(secret), "[REDACTED]");
    return s;
  }

  private redact(value: unknown, field: string): unknown {
    if (typeof value === "string") return SECRET_FIELD.test(field) ? "[REDACTED]" : this.hide(value);
    if (Array.isArray(value)) return value.map((v) => this.redact(v, field));
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.hide(k), this.redact(v, k)]));
  }
}
