/**
 * Remembers callback answers for a short time, keyed by app + token (+ file). It stores the promise, so a
 * burst of concurrent requests shares one callback instead of each making its own; a failed answer is
 * forgotten at once so the next request asks again.
 */
export class AnswerCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.entries.delete(key);
    this.makeRoom(now);
    const value = load();
    const entry = { value, expires: now + this.ttlMs };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Asks again now, past any remembered answer, and remembers the new one. */
  refresh(key: string, load: () => Promise<T>): Promise<T> {
    this.entries.delete(key);
    return this.get(key, load);
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
export function cacheKey(...parts: string[]): string {
  return parts.join('\u0000');
}
