import { LRUCache } from 'lru-cache';
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
  /** estimated memory: encoded bytes applied × DECODED_BYTES_PER_ENCODED_BYTE, plus `derivedBytes` */
  bytes: number;
  /** memory held by what was computed from the document since it was decoded (a spreadsheet's formula engine, built as it is read) */
  derivedBytes: number;
}

/** The entries by file, least recently used out first when their estimated memory passes the budget (lru-cache). */
export class DecodedCache {
  /** undefined: a budget of 0, nothing is kept */
  private readonly entries: LRUCache<string, DecodedEntry> | undefined;

  constructor(budgetBytes: number) {
    // Evicted documents are dropped, not destroyed: a request that read one a moment ago may still be using it.
    this.entries = budgetBytes > 0 ? new LRUCache({ maxSize: budgetBytes, sizeCalculation: (entry) => entry.bytes }) : undefined;
  }

  get(key: string): DecodedEntry | undefined {
    return this.entries?.get(key);
  }

  /** Keeps `doc` unless it alone is larger than the budget; evicts the least recently used beyond it. */
  set(key: string, doc: Y.Doc, seq: number, encodedBytes: number): void {
    this.delete(key);
    this.entries?.set(key, { doc, seq, bytes: encodedBytes * DECODED_BYTES_PER_ENCODED_BYTE, derivedBytes: 0 });
  }

  /** Records updates applied to a cached document: its new seq and the memory they add (evicting others, or it). */
  grew(key: string, seq: number, encodedBytes: number): void {
    const entry = this.entries?.peek(key);
    if (!entry) return;
    this.entries?.set(key, { ...entry, seq: Math.max(entry.seq, seq), bytes: entry.bytes + encodedBytes * DECODED_BYTES_PER_ENCODED_BYTE });
  }

  /**
   * Records what the memory computed from a cached document now takes (measured by the caller at each use: a formula
   * engine grows with the cells read), evicting others, or it, when the total passes the budget.
   */
  derived(key: string, derivedBytes: number): void {
    const entry = this.entries?.peek(key);
    if (!entry || entry.derivedBytes === derivedBytes) return;
    this.entries?.set(key, { ...entry, bytes: entry.bytes - entry.derivedBytes + derivedBytes, derivedBytes });
  }

  delete(key: string): void {
    this.entries?.delete(key);
  }

  /** Estimated bytes held (for tests and diagnostics). */
  get size(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}
