/**
 * An abort signal that fires `ms` from now, or when `parent` fires, held by a timer this object owns.
 *
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])` looks the same but holds its sources weakly, as the DOM
 * standard says: once nothing else refers to the timeout signal, a garbage collection takes it and its timer
 * with it, and the combined signal never fires (an import whose URL never answered stayed running for minutes).
 * Call `clear()` when the work is done.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort: () => void;

  constructor(
    readonly ms: number,
    private readonly parent?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.controller.abort(new DeadlinePassed(ms)), ms);
    this.onParentAbort = () => this.controller.abort(parent?.reason);
    if (parent?.aborted) this.onParentAbort();
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when it fired because time ran out (not because the parent was aborted). */
  get passed(): boolean {
    return this.controller.signal.aborted && this.controller.signal.reason instanceof DeadlinePassed;
  }

  /** Milliseconds left, at least 1 (undici takes 0 as "no timeout"). */
  remainingMs(startedAt: number): number {
    return Math.max(1, this.ms - (Date.now() - startedAt));
  }

  clear(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}

export class DeadlinePassed extends Error {
  constructor(ms: number) {
    super(`deadline of ${ms} ms passed`);
  }
}
