import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVICE_RESTART_CLOSE_CODE } from '../../src/domain/content/content-service.js';
import { startBalancer, type Balancer } from '../support/balancer.js';
import { testDatabases } from '../support/databases.js';
import { eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { appendParagraph, connectEditor, plainText, startPeer, type Editor } from './support.js';

/** Changes are recorded a minute after the last edit: only the shutdown can have recorded them. */
const SLOW_RECORDING = { coalesceMs: 60_000, coalesceMaxMs: 120_000, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };

const paragraphs = (editor: Editor) =>
  editor.doc
    .getXmlFragment('default')
    .toArray()
    .map((node) => node.toString().replace(/<[^>]+>/g, ''));

for (const database of testDatabases()) {
  describe(`graceful shutdown of a process [${database.name}]`, () => {
    let survivor: TestService;
    let balancer: Balancer;
    const editors: Editor[] = [];
    beforeEach(async () => {
      survivor = await startService(database, { integrator: true, content: SLOW_RECORDING });
      survivor.integrator.addUser({ id: 'user-2', name: 'Second User', token: 'token-2' });
    });
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await balancer?.close();
      await survivor.close();
    });

    it('tells editors to reconnect (1012), records their pending change, and the other process has every acknowledged edit', async () => {
      expect((await survivor.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc-move' } })).status).toBe(200);
      // the process that stops: a second instance on the same database, behind the same balancer
      const stopping = await startPeer(survivor);
      balancer = await startBalancer(stopping.url);
      const editor = await connectEditor({ url: balancer.url, sign: survivor.sign }, 'doc-move');
      editors.push(editor);
      const second = await connectEditor({ url: balancer.url, sign: survivor.sign }, 'doc-move', { token: 'token-2' });
      editors.push(second);
      for (let i = 1; i <= 20; i++) appendParagraph(editor.doc, `acknowledged ${i}`);
      await editor.saved();
      await eventually(() => paragraphs(second).length === 20, 'the second editor has the edits');

      // the balancer's health check takes the process out; then it gets SIGTERM (what main.ts runs)
      balancer.target = survivor.url;
      await stopping.close();

      expect(editor.closes).toContain(SERVICE_RESTART_CLOSE_CODE);
      expect(second.closes).toContain(SERVICE_RESTART_CLOSE_CODE);
      // the burst of edits was recorded by the stopping process: version bumped, one FileContent event queued
      const recorded = await survivor.services.storage.db
        .selectFrom('event_outbox')
        .select(['payload'])
        .where('file_id', '=', 'doc-move')
        .where('event_class', '=', 'FileContent')
        .execute();
      expect(recorded).toHaveLength(1);
      expect(JSON.parse(recorded[0]!.payload)).toMatchObject({ fileId: 'doc-move', fileContent: { version: 1 } });

      // both editors are back, on the other process, and keep working together
      await eventually(() => editor.provider.isSynced && second.provider.isSynced, 'editors reconnected');
      appendParagraph(second.doc, 'after the move');
      await second.saved();
      await eventually(() => paragraphs(editor).at(-1) === 'after the move', 'the first editor sees the edit made after the move');
      const stored = (await plainText(survivor, 'doc-move')).split('\n');
      expect(stored).toEqual([...Array.from({ length: 20 }, (_, i) => `acknowledged ${i + 1}`), 'after the move']);
      // the change recorded at shutdown reaches the integrator (whichever worker delivers it)
      await eventually(() => survivor.integrator.events.some((event) => event.eventClass === 'FileContent' && event.body.fileId === 'doc-move'), 'FileContent delivered');
    });
  });
}
