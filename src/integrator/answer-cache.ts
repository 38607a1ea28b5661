import { LRUCache } from 'lru-cache';

interface Entry<T> {
  parts: readonly string[];
  value: Promise<T>;
  /** the answer once it arrived (lets `forget` look at what was answered, e.g. which user a token is) */
  settled?: { value: T };
}

/**
 * Remembers callback answers for a short time, keyed by parts (app, token, file). It stores the promise, so a
 * burst of concurrent requests shares one callback instead of each making its own; a failed answer is
 * forgotten at once so the next request asks again. At most `maxEntries` are kept, the least recently used
 * dropped first (lru-cache, which also expires them).
 */
export class AnswerCache<T> {
  /** undefined: a time to live of 0, every call asks */
  private readonly entries: LRUCache<string, Entry<T>> | undefined;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.entries = ttlMs > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs }) : undefined;
  }

  get(parts: readonly string[], load: () => Promise<T>): Promise<T> {
    const entries = this.entries;
    if (!entries) return load();
    const key = cacheKey(parts);
    const hit = entries.get(key);
    if (hit) return hit.value;
    const value = load();
    const entry: Entry<T> = { parts, value };
    entries.set(key, entry);
    value.then(
      (answer) => {
        entry.settled = { value: answer };
      },
      () => {
        if (entries.peek(key) === entry) entries.delete(key);
      },
    );
    return value;
  }

  /** Asks again now, past any remembered answer, and remembers the new one. */
  refresh(parts: readonly string[], load: () => Promise<T>): Promise<T> {
    this.entries?.delete(cacheKey(parts));
    return this.get(parts, load);
  }

  /**
   * Forgets the answers `match` picks: by their key parts and, once arrived, the answer (undefined while
   * the callback is still out: such an answer may predate the change, so a match should count it in).
   */
  forget(match: (parts: readonly string[], answer: T | undefined) => boolean): void {
    if (!this.entries) return;
    const picked = [...this.entries.entries()].filter(([, entry]) => match(entry.parts, entry.settled?.value)).map(([key]) => key);
    for (const key of picked) this.entries.delete(key);
  }

  /** The arrived answers remembered, with their key parts. */
  *answers(): Iterable<[readonly string[], T]> {
    for (const entry of this.entries?.values() ?? []) if (entry.settled) yield [entry.parts, entry.settled.value];
  }

  clear(): void {
    this.entries?.clear();
  }
}

/** A cache key that cannot collide across parts (a NUL never occurs in ids or tokens we accept). */
function cacheKey(parts: readonly string[]): string {
  return parts.join('\u0000');
}
