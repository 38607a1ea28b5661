import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ConfigError, loadConfig } from '../../src/config.js';
import { DECODED_BYTES_PER_ENCODED_BYTE, DecodedCache, estimateDecodedBytes } from '../../src/domain/content/decoded-cache.js';

const MiB = 1024 * 1024;
/** encoded bytes of updates that weigh `mebibytes` MiB once applied */
const encodedFor = (mebibytes: number) => (mebibytes * MiB) / DECODED_BYTES_PER_ENCODED_BYTE;

describe('decoded document cache', () => {
  it('keeps documents within its budget, evicting the least recently used first', () => {
    const cache = new DecodedCache(10 * MiB);
    const [a, b, c] = [new Y.Doc(), new Y.Doc(), new Y.Doc()];
    cache.set('a', a, 1, 4 * MiB);
    cache.set('b', b, 1, 4 * MiB);
    expect(cache.get('a')?.doc).toBe(a); // a is now the most recently used
    cache.set('c', c, 1, 4 * MiB);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.doc).toBe(a);
    expect(cache.get('c')?.doc).toBe(c);
    expect(cache.size).toBe(8 * MiB);
  });

  it('does not keep a document larger than the whole budget, and a budget of 0 keeps nothing', () => {
    const cache = new DecodedCache(10 * MiB);
    cache.set('huge', new Y.Doc(), 1, 11 * MiB);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(0);
    const off = new DecodedCache(0);
    off.set('small', new Y.Doc(), 1, 10);
    expect(off.get('small')).toBeUndefined();
  });

  it('accounts for updates applied later, evicting others when a document grows', () => {
    const cache = new DecodedCache(10 * MiB);
    cache.set('a', new Y.Doc(), 1, 4 * MiB);
    cache.set('b', new Y.Doc(), 3, 4 * MiB);
    cache.grew('b', 7, encodedFor(3));
    expect(cache.get('b')?.seq).toBe(7);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(7 * MiB);
    cache.delete('b');
    expect(cache.size).toBe(0);
  });

  it('counts what was computed from a document as it changes, evicting others when it grows', () => {
    const cache = new DecodedCache(10 * MiB);
    cache.set('a', new Y.Doc(), 1, 4 * MiB);
    cache.set('b', new Y.Doc(), 1, 2 * MiB);
    cache.derived('b', 3 * MiB);
    expect(cache.size).toBe(9 * MiB);
    cache.derived('b', 5 * MiB);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(7 * MiB);
    cache.grew('b', 2, encodedFor(1));
    expect(cache.size).toBe(8 * MiB);
    cache.derived('b', 11 * MiB);
    expect(cache.get('b')).toBeUndefined();
  });

  it('estimates a document from its items: cells in blocks about their encoded size, cells as map entries far more', () => {
    const encodedAndEstimated = (fill: (doc: Y.Doc) => void) => {
      const doc = new Y.Doc();
      doc.transact(() => fill(doc));
      return { encoded: Y.encodeStateAsUpdate(doc).byteLength, estimated: estimateDecodedBytes(doc) };
    };
    // grid model 3 keeps cells as block strings (docs/CONTENT-MODEL.md): 100,000 cells in 100 map entries
    const blocks = encodedAndEstimated((doc) => {
      for (let block = 0; block < 100; block++) doc.getMap('blocks').set(`b${block}`, JSON.stringify(Array.from({ length: 1000 }, (_, cell) => ({ v: block * cell }))));
    });
    expect(blocks.estimated / blocks.encoded).toBeGreaterThan(0.9);
    expect(blocks.estimated / blocks.encoded).toBeLessThan(1.5);
    // one map entry per cell, as values written cell by cell are (measured at 15 times their encoded size)
    const entries = encodedAndEstimated((doc) => {
      for (let cell = 0; cell < 10_000; cell++) doc.getMap('grid').set(`row${cell}:column${cell % 10}`, { v: cell * 1.5 });
    });
    expect(entries.estimated / entries.encoded).toBeGreaterThan(10);
    expect(entries.estimated / entries.encoded).toBeLessThan(25);
    // the cache measures a document it is handed
    const cache = new DecodedCache(10 * MiB);
    const doc = new Y.Doc();
    doc.getText('text').insert(0, 'x'.repeat(1000));
    cache.set('empty', new Y.Doc(), 1);
    expect(cache.get('empty')).toBeDefined();
    cache.delete('empty');
    cache.set('text', doc, 1);
    expect(cache.size).toBe(estimateDecodedBytes(doc));
    expect(cache.size).toBeGreaterThan(1000);
  });

  it('takes its budget from SVC_CONTENT_CACHE_BYTES (256 MiB by default, 0 turns it off)', () => {
    expect(loadConfig({}).content.cacheBytes).toBe(256 * MiB);
    expect(loadConfig({ SVC_CONTENT_CACHE_BYTES: '0' }).content.cacheBytes).toBe(0);
    expect(loadConfig({ SVC_CONTENT_CACHE_BYTES: '1048576' }).content.cacheBytes).toBe(MiB);
    for (const bad of ['lots', '-1', '1.5']) expect(() => loadConfig({ SVC_CONTENT_CACHE_BYTES: bad })).toThrow(ConfigError);
  });
});
