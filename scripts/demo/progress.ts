/**
 * The demo's progress output: numbered steps with their time, detail lines indented below, and
 * every line passed through redaction, so no secret reaches the terminal whatever a step prints.
 */
import { redactText } from "../../client/core/redact";

/** What a step can do while it runs. */
export interface StepContext {
  /** An indented line under the step, printed at once. */
  detail(line: string): void;
  /** The text after the step's label on its closing line. */
  summary: string;
}

export class Progress {
  private index = 0;

  constructor(
    private readonly total: number,
    private readonly secrets: () => readonly string[],
    private readonly started = Date.now(),
    private readonly write: (text: string) => void = (t) => process.stdout.write(t),
  ) {}

  /** A line outside any step. */
  line(text = ""): void {
    this.write(`${redactText(text, this.secrets())}\n`);
  }

  /** Seconds since the demo started, e.g. `52.3s`. */
  elapsed(): string {
    return seconds(Date.now() - this.started);
  }

  /** Prints a step that already ran (the build, done before this module loaded). */
  done(label: string, summary: string, ms: number): void {
    this.line(`${this.prefix()} ${label}: ${summary} (${seconds(ms)})`);
  }

  /**
   * Runs a step. Its heading is printed when it starts, `[4/9] label`, so a long step is never
   * a silent wait; then its detail lines as they come, then `      -> summary (14.2s)`.
   */
  async step<T>(label: string, run: (ctx: StepContext) => Promise<T>): Promise<T> {
    const t0 = Date.now();
    this.line(`${this.prefix()} ${label}`);
    const ctx: StepContext = {
      summary: "ok",
      detail: (line) => this.line(`      ${line}`),
    };
    try {
      const value = await run(ctx);
      this.line(`      -> ${ctx.summary} (${seconds(Date.now() - t0)})`);
      return value;
    } catch (e) {
      this.line(
        `      FAILED after ${seconds(Date.now() - t0)}: ${(e instanceof Error ? e.message : String(e)).trim()}`,
      );
      throw new StepFailed(label);
    }
  }

  private prefix(): string {
    this.index += 1;
    return `[${this.index}/${this.total}]`;
  }
}

/** A step failed; its message is already printed. */
export class StepFailed extends Error {
  constructor(readonly step: string) {
    super(`step "${step}" failed`);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
