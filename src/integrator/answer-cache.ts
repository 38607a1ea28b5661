interface Entry<T> {
  parts: readonly string[];
  value: Promise<T>;
  /** the answer once it arrived (lets `forget` look at what was answered, e.g. which user a token is) */
  settled?: { value: T };
  expires: number;
}

/**
 * Remembers callback answers for a short time, keyed by parts (app, token, file). It stores the promise, so a
 * burst of concurrent requests shares one callback instead of each making its own; a failed answer is
 * forgotten at once so the next request asks again.
 */
export class AnswerCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(parts: readonly string[], load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const key = cacheKey(parts);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.entries.delete(key);
    this.makeRoom(now);
    const value = load();
    const entry: Entry<T> = { parts, value, expires: now + this.ttlMs };
    this.entries.set(key, entry);
    value.then(
      (answer) => {
        entry.settled = { value: answer };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /** Asks again now, past any remembered answer, and remembers the new one. */
  refresh(parts: readonly string[], load: () => Promise<T>): Promise<T> {
    this.entries.delete(cacheKey(parts));
    return this.get(parts, load);
  }

  /**
   * Forgets the answers `match` picks: by their key parts and, once arrived, the answer (undefined while
   * the callback is still out: such an answer may predate the change, so a match should count it in).
   */
  forget(match: (parts: readonly string[], answer: T | undefined) => boolean): void {
    for (const [key, entry] of this.entries) if (match(entry.parts, entry.settled?.value)) this.entries.delete(key);
  }

  /** The arrived answers remembered, with their key parts. */
  *answers(): Iterable<[readonly string[], T]> {
    for (const entry of this.entries.values()) if (entry.settled) yield [entry.parts, entry.settled.value];
  }

  clear(): void {
    this.entries.clear();
  }

  private makeRoom(now: number): void {
    if (this.entries.size < this.maxEntries) return;
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
    // Still full: drop the oldest (Map keeps insertion order).
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}

/** A cache key that cannot collide across parts (a NUL never occurs in ids or tokens we accept). */
function cacheKey(parts: readonly string[]): string {
  return parts.join('\u0000');
}
