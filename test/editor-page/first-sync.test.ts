import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { sheetModels } from '../../src/model/sheets/sheet-model.js';
import { skipEncodingFirstSync } from '../../web/shared/first-sync.js';
import { testDatabases } from '../support/databases.js';
import { eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';

/**
 * The editor page's first sync (web/shared/first-sync.ts): applied without Yjs encoding it again for the provider's
 * update listener, which is back once synced, so that what the page changes afterwards reaches the service.
 */
describe('first sync of an editor page', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true });
  });
  afterAll(async () => svc.close());

  /** A provider on the file as a page's session opens it, with the `update` events its document emitted, by transaction origin. */
  async function open(fileId: string, skip: boolean) {
    const doc = new Y.Doc();
    const emitted: unknown[] = [];
    const emit = doc.emit.bind(doc);
    doc.emit = (name, args) => {
      if (name === 'update') emitted.push(args[1]);
      emit(name, args);
    };
    const query = new URLSearchParams({ signature: await svc.sign(), token: 'user-token' });
    const socket = new HocuspocusProviderWebsocket({ url: `${svc.url.replace(/^http/, 'ws')}/sdk/v2/collab-files/${fileId}/collaboration?${query}`, WebSocketPolyfill: WebSocket });
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: fileId, document: doc });
    if (skip) skipEncodingFirstSync(provider);
    provider.attach();
    await eventually(() => provider.isSynced, 'synced');
    return {
      doc,
      provider,
      emitted,
      close() {
        provider.destroy();
        socket.destroy();
      },
    };
  }

  it('is applied without an update event, and what the page changes afterwards reaches the service', { timeout: 60_000 }, async () => {
    expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'sync-1' } })).status).toBe(200);
    const rows = Array.from({ length: 200 }, (_, r) => [`row ${r + 1}`, r + 1, `=B${r + 1}*2`]);
    expect((await svc.call('POST', '/sdk/v2/api/files/sync-1/sheets/values', { body: { range: 'Sheet1!A1:C200', resource: { values: rows } } })).status).toBe(200);

    // the provider's own listener has Yjs encode the whole synced document as an update: the cost skipped
    const plain = await open('sync-1', false);
    expect(plain.emitted).toContain(plain.provider);
    plain.close();

    const page = await open('sync-1', true);
    expect(page.emitted).toEqual([]);
    const sheet = sheetModels(page.doc)[0]!;
    expect(sheet.cell(199, 0)).toEqual({ v: 'row 200' });
    expect(sheet.cell(199, 2)).toEqual({ f: '=B200*2' });

    // an edit after the sync is sent: the service reads it back
    page.doc.transact(() => sheet.setCell(199, 1, { v: 7 }));
    expect(page.emitted).toEqual([null]);
    await eventually(async () => {
      const answer = await svc.call('GET', '/sdk/v2/api/files/sync-1/sheets/values', { query: { range: 'Sheet1!B200:C200' } });
      return JSON.stringify((answer.body as { data: { values: unknown[][] } }).data.values) === JSON.stringify([[7, 14]]);
    }, 'the edit read back by the values API');
    page.close();
  });
});
