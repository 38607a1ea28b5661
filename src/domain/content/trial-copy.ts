import * as Y from 'yjs';

/**
 * A copy of a live document that follows it (each of its updates applied here too), on which updates are tried
 * before the live document takes them: made when first needed, thrown away when an update tried on it was refused
 * (Yjs cannot take it back) and made again at the next need. Copying a document costs as much as loading it, and
 * following it one more application of each update, so a document gets one only while a check needs it: a lock that matters to its editors
 * (lock-enforcement.ts), a user who may only suggest (suggestion-enforcement.ts).
 */
const copies = new WeakMap<Y.Doc, { copy: Y.Doc; follow: (update: Uint8Array) => void }>();

/**
 * Tries an update on the document's trial copy: `judge` applies it there and answers why it is refused, or
 * undefined. A refusal, or a throw (an update Yjs or a reader cannot take), throws the copy away with the update
 * half or wholly in it, so the next trial starts from the live document again; the refusal is answered.
 */
export function tryOnTrialCopy<Refusal>(doc: Y.Doc, judge: (copy: Y.Doc) => Refusal | undefined): Refusal | undefined {
  let refusal: Refusal | undefined;
  try {
    refusal = judge(trialCopyOf(doc));
  } catch (error) {
    dropTrialCopy(doc);
    throw error;
  }
  if (refusal !== undefined) dropTrialCopy(doc);
  return refusal;
}

function trialCopyOf(doc: Y.Doc): Y.Doc {
  let kept = copies.get(doc);
  if (!kept) {
    const copy = new Y.Doc({ gc: false });
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
    const follow = (update: Uint8Array) => Y.applyUpdate(copy, update);
    doc.on('update', follow);
    copies.set(doc, (kept = { copy, follow }));
  }
  return kept.copy;
}

/** Throws away the document's trial copy, if it has one (a document no longer live keeps none). */
export function dropTrialCopy(doc: Y.Doc): void {
  const kept = copies.get(doc);
  if (!kept) return;
  doc.off('update', kept.follow);
  kept.copy.destroy();
  copies.delete(doc);
}
