import type { HocuspocusProvider } from '@hocuspocus/provider';

/**
 * Keeps the provider's update listener off the document until its first sync is applied. Yjs encodes a
 * transaction's changes again as an update for `update` listeners, whatever they do with it, and the first sync is
 * the whole document in one transaction: for a million-cell sheet (16 MB) that encoding took 0.8 s of the page's
 * 1.2 s applying it (docs/PERFORMANCE.md "A million cells in the editor"). The provider's listener sends local
 * changes only (it drops the sync's own update, whose origin is the provider), and nothing changes the document
 * locally before it is synced (editors are mounted after), so it misses nothing; it is back at `synced`, before
 * anything else runs, and later syncs (reconnections: the changes missed) are encoded as before.
 */
export function skipEncodingFirstSync(provider: HocuspocusProvider): void {
  if (provider.isSynced) return;
  const { document: doc } = provider;
  doc.off('update', provider.boundDocumentUpdateHandler);
  const reattach = () => {
    provider.off('synced', reattach);
    doc.on('update', provider.boundDocumentUpdateHandler);
  };
  provider.on('synced', reattach);
}
