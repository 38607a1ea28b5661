import * as Y from 'yjs';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryType } from '../../src/domain/content/content-service.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { killed, startServiceProcess } from '../support/processes.js';
import { startService, type TestService } from '../support/service.js';
import { appendParagraph, plainText, startPeer, storageOptionsOf } from './support.js';

/** Short windows: a recovering process waits coalesceMaxMs + coalesceMs + 5 s after the last update. */
const FAST_CONTENT = { coalesceMs: 100, coalesceMaxMs: 100, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };

for (const database of testDatabases()) {
  describe(`content changes left unrecorded by a crash [${database.name}]`, () => {
    let svc: TestService;
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
      await svc.close();
    });

    const history = async (fileId: string) =>
      svc.services.storage.db.selectFrom('content_history').select(['version', 'user_id']).where('file_id', '=', fileId).execute();
    const contentEvents = (fileId: string) => svc.integrator.events.filter((event) => event.eventClass === 'FileContent' && event.body.fileId === fileId);
    const fileContentRows = async (fileId: string) =>
      (await svc.services.storage.db.selectFrom('event_outbox').select('id').where('file_id', '=', fileId).where('event_class', '=', 'FileContent').execute()).length;

    it('records an edit acknowledged just before a crash exactly once, after a restart, though it is younger than the window', { timeout: 120_000 }, async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'sheet' } })).status).toBe(200);
      // a process that keeps changes a minute before recording them: the crash always falls inside its window
      const crashing = await startServiceProcess(await storageOptionsOf(svc), { SVC_CONTENT_COALESCE_MS: '60000', SVC_CONTENT_COALESCE_MAX_MS: '60000' });
      cleanup.push(async () => crashing.exitCode === null && crashing.signalCode === null && killed(crashing));
      const written = await fetch(`${crashing.url}/sdk/v2/api/files/sheet/sheets/values`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-signature': await svc.sign(), 'x-svc-token': DEFAULT_USER.token },
        body: JSON.stringify({ range: 'Sheet1!A1', resource: { values: [['acknowledged']] } }),
      });
      expect(written.status).toBe(200);
      await killed(crashing);
      expect(await history('sheet')).toEqual([]);

      // the restart: a new process looks for unrecorded changes when it starts, nobody opens the file
      const restarted = await startPeer(svc, FAST_CONTENT);
      cleanup.push(() => restarted.close());
      await eventually(() => contentEvents('sheet').length === 1, 'the FileContent event of the acknowledged edit', 30_000);
      expect(contentEvents('sheet')[0]!.body).toMatchObject({ userId: DEFAULT_USER.id, fileContent: { version: 1 } });
      expect(await history('sheet')).toEqual([{ version: 1, user_id: DEFAULT_USER.id }]);

      // further processes, and reads through every one of them, record nothing again
      const another = await startPeer(svc, FAST_CONTENT);
      const read = await fetch(`${another.url}/sdk/v2/api/files/sheet/sheets/values?range=Sheet1!A1`, { headers: { 'x-svc-signature': await svc.sign(), 'x-svc-token': DEFAULT_USER.token } });
      expect(((await read.json()) as { data: { values: unknown[][] } }).data.values).toEqual([['acknowledged']]);
      await another.close();
      await restarted.close();
      cleanup.splice(0);
      await svc.services.content.flush(svc.app.id, 'sheet');
      expect(await history('sheet')).toHaveLength(1);
      expect(await fileContentRows('sheet')).toBe(1);
      const file = await svc.services.storage.db.selectFrom('files').select('version').where('file_id', '=', 'sheet').executeTakeFirstOrThrow();
      expect(Number(file.version)).toBe(1);
    });

    it('records an abandoned edit once when two processes recover it at the same time, even after compaction', async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' } })).status).toBe(200);
      const doc = new Y.Doc();
      appendParagraph(doc, 'stored, acknowledged, never recorded');
      await svc.services.content.initialize(svc.services.storage.db, svc.app.id, 'doc', 'document');
      await svc.services.content.store.append(svc.app.id, 'doc', Y.encodeStateAsUpdate(doc), 'user-2');
      // the log was compacted into the snapshot since (another process's compaction): only the counters tell
      await svc.services.content.compact(svc.app.id, 'doc', 1);
      await svc.services.storage.db.updateTable('content_docs').set({ updated_at: Date.now() - 60_000 }).where('file_id', '=', 'doc').execute();

      const peer = await startPeer(svc, FAST_CONTENT);
      await svc.services.content.recoverAbandoned();
      expect(await plainText(svc, 'doc', peer.url)).toBe('stored, acknowledged, never recorded');
      await eventually(async () => (await history('doc')).length === 1, 'a history entry');
      await peer.close();
      await svc.services.content.flush(svc.app.id, 'doc');
      expect(await history('doc')).toEqual([{ version: 1, user_id: '' }]);
      expect(await fileContentRows('doc')).toBe(1);
    });

    it('records a version only for updates not recorded yet, so a late flush after a recovery adds nothing', async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-2' } })).status).toBe(200);
      const actor = { userId: DEFAULT_USER.id };
      await svc.services.content.change(svc.app.id, 'doc-2', actor, (doc) => appendParagraph(doc, 'one'));
      expect(await svc.services.content.record(svc.app.id, 'doc-2', HistoryType.edit, actor, [actor.userId], true)).toMatchObject({ version: 1 });
      expect(await svc.services.content.record(svc.app.id, 'doc-2', HistoryType.edit, actor, [actor.userId], true)).toBeUndefined();
      await svc.services.content.flush(svc.app.id, 'doc-2');
      expect(await history('doc-2')).toHaveLength(1);
      await svc.services.content.change(svc.app.id, 'doc-2', actor, (doc) => appendParagraph(doc, 'two'));
      await svc.services.content.flush(svc.app.id, 'doc-2');
      expect((await history('doc-2')).map((entry) => entry.version).sort()).toEqual([1, 2]);
    });
  });
}
