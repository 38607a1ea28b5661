import { LRUCache } from 'lru-cache';
import * as Y from 'yjs';

/**
 * Recently read documents of files no editor has open, kept decoded so that the next read does not rebuild
 * them from storage (for 100,000 spreadsheet cells that takes most of a second). Bounded by an estimate
 * of memory, least recently used first out. Entries are never trusted blindly: the content engine compares
 * `seq` with the file's stored update counter before every use and brings the document up to date (or
 * drops it), and applies its own changes at once.
 */

/**
 * Heap taken by one decoded Yjs item beyond its content, and by each value of a map or array item (an object
 * such as a cell's `{"v":…}`), measured with Node 20's heap after `Y.applyUpdate` (docs/PERFORMANCE.md "What a
 * cached document is counted at"): 100,000 map entries of cells took 466 bytes each beyond their characters,
 * 33,357 text items 244 bytes each; a string's characters take a byte each (V8 keeps Latin-1 strings one byte
 * wide) or two.
 */
const ITEM_BYTES = 250;
/** A Y.Doc with nothing in it (its store, maps and event handlers): never counted as nothing (lru-cache wants a size). */
const EMPTY_DOCUMENT_BYTES = 2_000;
const VALUE_BYTES = 200;

/**
 * Decoded size per encoded byte of an update applied to a cached document: updates are mostly new items, which
 * take 12-15 times their encoded size (the same measurements).
 */
export const DECODED_BYTES_PER_ENCODED_BYTE = 15;

/**
 * What a decoded document takes in the heap, estimated from its items: per item, its own record, its map key, the
 * values it holds and their characters. A grid model 3 spreadsheet keeps its cells as block strings (a thousand
 * items for a million cells) and takes about its encoded size; a document of many small items 12-15 times it.
 * One pass over the document's items: about a millisecond per 10,000.
 */
export function estimateDecodedBytes(doc: Y.Doc): number {
  let bytes = EMPTY_DOCUMENT_BYTES;
  for (const structs of doc.store.clients.values()) {
    for (const struct of structs) {
      bytes += ITEM_BYTES;
      if (!(struct instanceof Y.Item)) continue;
      if (struct.parentSub) bytes += struct.parentSub.length;
      const content = struct.content;
      if (content instanceof Y.ContentString) bytes += content.str.length;
      else if (content instanceof Y.ContentAny || content instanceof Y.ContentJSON) {
        for (const value of content.arr as unknown[]) bytes += VALUE_BYTES + (typeof value === 'string' ? value.length : 0);
      } else if (content instanceof Y.ContentBinary) bytes += content.content.byteLength;
    }
  }
  return bytes;
}

/** Default budget (SVC_CONTENT_CACHE_BYTES): a few spreadsheets of 100,000 cells. */
export const DEFAULT_CONTENT_CACHE_BYTES = 256 * 1024 * 1024;

export interface DecodedEntry {
  doc: Y.Doc;
  /** highest log seq applied to `doc` */
  seq: number;
  /** estimated memory: the document as decoded (`estimateDecodedBytes`), updates since × DECODED_BYTES_PER_ENCODED_BYTE, plus `derivedBytes` */
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

  /**
   * Keeps `doc` unless it alone is larger than the budget; evicts the least recently used beyond it. `bytes` is what
   * it takes decoded (measured from its items unless given).
   */
  set(key: string, doc: Y.Doc, seq: number, bytes: number = this.entries ? estimateDecodedBytes(doc) : 0): void {
    this.delete(key);
    this.entries?.set(key, { doc, seq, bytes, derivedBytes: 0 });
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
