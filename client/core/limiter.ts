/** Client-side pacing, applied per attempt (a retry queues like any other request). */

/** A FIFO counting semaphore. */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];
  constructor(readonly size: number) {
    this.#free = size;
  }
  /** Resolves once a slot is held; call the returned function exactly once to free it. */
  async acquire(): Promise<() => void> {
    const held = this.tryAcquire();
    if (held) return held;
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return this.#releaser();
  }
  /**
   * A slot's release function when one is free, without waiting; undefined when all are held. Spares
   * a call the promise of {@link acquire} when nothing is queued (the usual case).
   */
  tryAcquire(): (() => void) | undefined {
    if (this.#free === 0) return undefined;
    this.#free--;
    return this.#releaser();
  }
  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
  /** Requests waiting for a slot. */
  get pending(): number {
    return this.#waiting.length;
  }
}

/**
 * Spaces request starts at least `1000 / rps` ms apart (no bursts), and holds all starts while a
 * server-requested pause is in force. `rps = 0` turns spacing off; pauses still apply.
 */
export class RateGate {
  #nextSlot = 0;
  #pausedUntil = 0;
  constructor(
    readonly rps: number,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /**
   * Resolves when the caller may start, or is undefined when it may start at once (no promise to
   * wait on); `ownPause`: it caused the current pause and has waited it out itself.
   */
  take(ownPause = false): Promise<void> | undefined {
    const now = this.now();
    let start = ownPause ? now : Math.max(now, this.#pausedUntil);
    if (this.rps > 0) {
      start = Math.max(start, this.#nextSlot);
      this.#nextSlot = start + 1000 / this.rps;
    }
    return start > now ? this.wait(start - now) : undefined;
  }

  /** Holds every start for `ms` from now (a 429's `Retry-After`). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.now() + ms);
  }
}
