import type * as Y from 'yjs';

/**
 * Recently read documents of files no editor has open, kept decoded so that the next read does not rebuild
 * them from storage (for 100,000 spreadsheet cells that takes most of a second). Bounded by an estimate
 * of memory, least recently used first out. Entries are never trusted blindly: the content engine compares
 * `seq` with the file's stored update counter before every use and brings the document up to date (or
 * drops it), and applies its own changes at once.
 */

/**
 * Decoded size per encoded byte, measured: a Yjs document of spreadsheet cells takes about 20 times its
 * encoded size in the heap, and the formula engine's state about 9 times more (docs/PERFORMANCE.md).
 */
export const DECODED_BYTES_PER_ENCODED_BYTE = 30;

/** Default budget (SVC_CONTENT_CACHE_BYTES): a few spreadsheets of 100,000 cells. */
export const DEFAULT_CONTENT_CACHE_BYTES = 256 * 1024 * 1024;

export interface DecodedEntry {
  doc: Y.Doc;
  /** highest log seq applied to `doc` */
  seq: number;
  /** estimated memory: encoded bytes applied × DECODED_BYTES_PER_ENCODED_BYTE */
  bytes: number;
}

export class DecodedCache {
  /** insertion order is recency order: a hit moves the entry to the end */
  private readonly entries = new Map<string, DecodedEntry>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string): DecodedEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps `doc` unless it alone is larger than the budget; evicts the least recently used beyond it. */
  set(key: string, doc: Y.Doc, seq: number, encodedBytes: number): void {
    this.delete(key);
    const bytes = encodedBytes * DECODED_BYTES_PER_ENCODED_BYTE;
    if (bytes > this.budgetBytes) return;
    this.entries.set(key, { doc, seq, bytes });
    this.total += bytes;
    this.evict();
  }

  /** Records updates applied to a cached document: its new seq and the memory they add. */
  grew(key: string, seq: number, encodedBytes: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.seq = Math.max(entry.seq, seq);
    const added = encodedBytes * DECODED_BYTES_PER_ENCODED_BYTE;
    entry.bytes += added;
    this.total += added;
    this.evict();
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  /** Estimated bytes held (for tests and diagnostics). */
  get size(): number {
    return this.total;
  }

  // Evicted documents are dropped, not destroyed: a request that read one a moment ago may still be using it.
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budgetBytes) return;
      this.entries.delete(key);
      this.total -= entry.bytes;
    }
  }
}
