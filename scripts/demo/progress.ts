/**
 * The demo's progress output: numbered steps with their time, detail lines indented below, and
 * every line passed through redaction, so no secret reaches the terminal whatever a step prints.
 */
import { redactText } from "../../provider/client/redact";

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
   * Runs a step. Without detail lines it prints one line when done: `[4/9] label: summary (0.4s)`.
   * With them, the label first, the details as they come, then `      -> summary (14.2s)`.
   */
  async step<T>(label: string, run: (ctx: StepContext) => Promise<T>): Promise<T> {
    const prefix = this.prefix();
    const t0 = Date.now();
    let opened = false;
    const ctx: StepContext = {
      summary: "ok",
      detail: (line) => {
        if (!opened) this.line(`${prefix} ${label}`);
        opened = true;
        this.line(`      ${line}`);
      },
    };
    try {
      const value = await run(ctx);
      this.line(
        opened
          ? `      -> ${ctx.summary} (${seconds(Date.now() - t0)})`
          : `${prefix} ${label}: ${ctx.summary} (${seconds(Date.now() - t0)})`,
      );
      return value;
    } catch (e) {
      if (!opened) this.line(`${prefix} ${label}`);
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
