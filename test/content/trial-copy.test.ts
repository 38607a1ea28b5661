import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { tryOnTrialCopy } from '../../src/domain/content/trial-copy.js';

/** The copy lock and suggestion checks try updates on (trial-copy.ts): it never keeps what was not taken. */
describe('trial copies', () => {
  /** The copy's text, read by a trial that refuses nothing (so the copy is kept). */
  const copyText = (doc: Y.Doc) => {
    let text = '';
    tryOnTrialCopy(doc, (copy) => void (text = copy.getText('t').toString()));
    return text;
  };

  it('follows the live document, keeps a trial taken, and forgets a refused or failed one', () => {
    const doc = new Y.Doc();
    doc.getText('t').insert(0, 'live');
    expect(copyText(doc)).toBe('live');
    doc.getText('t').insert(4, '!');
    expect(copyText(doc)).toBe('live!');
    // a trial taken stays in the copy (the live document takes the same update next, which the copy then ignores)
    const update = (() => {
      const other = new Y.Doc();
      Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
      const before = Y.encodeStateVector(other);
      other.getText('t').insert(0, '> ');
      return Y.encodeStateAsUpdate(other, before);
    })();
    expect(tryOnTrialCopy(doc, (copy) => void Y.applyUpdate(copy, update))).toBeUndefined();
    Y.applyUpdate(doc, update);
    expect(copyText(doc)).toBe('> live!');
    // a trial that changed the copy and then threw: the next trial starts from the live document again
    expect(() =>
      tryOnTrialCopy(doc, (copy) => {
        copy.getText('t').insert(0, 'half ');
        throw new Error('unreadable');
      }),
    ).toThrow('unreadable');
    expect(copyText(doc)).toBe('> live!');
    // so does a refused one
    expect(tryOnTrialCopy(doc, (copy) => (copy.getText('t').insert(0, 'refused '), 'no'))).toBe('no');
    expect(copyText(doc)).toBe('> live!');
  });
});
