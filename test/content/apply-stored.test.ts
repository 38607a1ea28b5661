import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { applyStoredWithoutUpdateEvents, type StoredContent } from '../../src/storage/content-store.js';

/** Stored content of a document holding `text`, as a snapshot and one logged update after it. */
function storedText(first: string, second: string): StoredContent {
  const source = new Y.Doc();
  source.getText('t').insert(0, first);
  const snapshot = Y.encodeStateAsUpdate(source);
  const before = Y.encodeStateVector(source);
  source.getText('t').insert(first.length, second);
  return { snapshot, updates: [{ seq: 2, update: Y.encodeStateAsUpdate(source, before) }], snapshotSeq: 1, seq: 2 };
}

describe('applyStoredWithoutUpdateEvents', () => {
  it('loads stored content without update events (Yjs encodes nothing for the listeners) and keeps the listeners for later changes', () => {
    const doc = new Y.Doc();
    const heard: Uint8Array[] = [];
    doc.on('update', (update: Uint8Array) => heard.push(update));
    applyStoredWithoutUpdateEvents(doc, storedText('stored ', 'and logged'), 'storage', () => undefined);
    expect(doc.getText('t').toString()).toBe('stored and logged');
    expect(heard).toEqual([]);
    doc.getText('t').insert(0, '> ');
    expect(heard).toHaveLength(1);
  });

  it('puts the listeners back when an entry is refused, and reports the entry', () => {
    const doc = new Y.Doc();
    let heard = 0;
    doc.on('update', () => heard++);
    const content = storedText('a', 'b');
    const refused: number[] = [];
    applyStoredWithoutUpdateEvents(doc, { ...content, updates: [{ seq: 2, update: new Uint8Array([255, 255, 255]) }] }, null, (seq) => refused.push(seq));
    expect(refused).toEqual([2]);
    expect(doc.getText('t').toString()).toBe('a');
    doc.getText('t').insert(0, 'x');
    expect(heard).toBe(1);
  });
});
