import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newImageBox, newTextBox, richTextOf, slidesOf, type Cell } from '../../src/model/content.js';
import { plainTextOf } from '../../src/domain/content/plain-text.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { connectEditor, plainText, type Editor } from './support.js';
import { appendSheet, sheetModels } from '../../src/model/sheets/sheet-model.js';
import { pageNumbersShown, setPageNumbersShown } from '../../src/model/rich-text/page-setup.js';

const FAST_CONTENT = { coalesceMs: 100, coalesceMaxMs: 1000, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };
const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };

const text = (value: string, marks?: ProseMirrorNode['marks']): ProseMirrorNode => ({ type: 'text', text: value, ...(marks ? { marks } : {}) });
const paragraph = (...content: ProseMirrorNode[]): ProseMirrorNode => ({ type: 'paragraph', content });

const RICH_DOCUMENT: ProseMirrorNode[] = [
  { type: 'heading', attrs: { level: 1 }, content: [text('Quarterly report')] },
  paragraph(text('Revenue grew, '), text('strongly', [{ type: 'bold' }]), text(' this quarter.')),
  {
    type: 'bulletList',
    content: [
      { type: 'listItem', content: [paragraph(text('first point'))] },
      { type: 'listItem', content: [paragraph(text('second point'))] },
    ],
  },
  {
    type: 'table',
    content: [
      { type: 'tableRow', content: [{ type: 'tableHeader', content: [paragraph(text('Region'))] }, { type: 'tableHeader', content: [paragraph(text('Sales'))] }] },
      { type: 'tableRow', content: [{ type: 'tableCell', content: [paragraph(text('North'))] }, { type: 'tableCell', content: [paragraph(text('42'))] }] },
    ],
  },
  paragraph(text('Ask '), { type: 'mention', attrs: { id: 'user-2', label: 'Second User', guid: 'at-1' } }, text(' about it.')),
  { type: 'image', attrs: { src: 'https://example.com/chart.png', alt: 'chart' } },
  paragraph(text('中文内容，很好。')),
];

for (const database of testDatabases()) {
  describe(`content backend API [${database.name}]`, () => {
    let svc: TestService;
    const editors: Editor[] = [];
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
    });
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await svc.close();
    });

    const createFile = async (fileId: string, type: string) => {
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } });
      expect(created.status, created.text).toBe(200);
    };
    const writeRichText = (fileId: string, nodes: ProseMirrorNode[]) =>
      svc.services.content.change(svc.app.id, fileId, author, (doc) => {
        const root = richTextOf(doc);
        root.insert(root.length, toYNodes(parseFragment(nodes)));
      });
    const setCells = (fileId: string, cells: Record<string, Cell>, sheet = 0) =>
      svc.services.content.change(svc.app.id, fileId, author, (doc) => {
        // keys "row:column", zero-based
        for (const [key, cell] of Object.entries(cells)) {
          const [row, column] = key.split(':').map(Number);
          sheetModels(doc)[sheet]!.setCell(row!, column!, cell);
        }
      });
    const fillAllKinds = async () => {
      await createFile('doc', 'document');
      await writeRichText('doc', RICH_DOCUMENT);
      await createFile('pro', 'documentPro');
      await writeRichText('pro', [
        paragraph(text('Dear customer,')),
        { type: 'bookmark', attrs: { name: 'greeting' }, content: [paragraph(text('Hello old friend'))] },
        { type: 'bookmark', attrs: { name: 'terms' }, content: [paragraph(text('Pay in 30 days')), paragraph(text('No refunds'))] },
      ]);
      await createFile('sheet', 'spreadsheet');
      await setCells('sheet', { '0:0': { v: 'Name' }, '0:1': { v: 'Score' }, '1:0': { v: 'Ann' }, '1:1': { v: 9.5 }, '3:2': { f: '=SUM(B2:B3)' }, '2:0': { v: true } });
      await svc.services.content.change(svc.app.id, 'sheet', author, (doc) => {
        appendSheet(doc, 'Second').setCell(0, 0, { v: 'other sheet' });
      });
      await createFile('deck', 'presentation');
      await svc.services.content.change(svc.app.id, 'deck', author, (doc) => {
        const slides = slidesOf(doc);
        const title = newTextBox({ x: 10, y: 10, width: 600, height: 80 });
        const body = newTextBox({ x: 10, y: 100, width: 600, height: 300 });
        // an image box between the text boxes reads as nothing
        const picture = newImageBox({ x: 620, y: 10, width: 300, height: 200 }, { src: '/sdk/v2/attachments/some-guid', alt: 'chart' });
        (slides.get(0).get('boxes') as Y.Array<Y.Map<unknown>>).push([title, picture, body]);
        (title.get('content') as Y.XmlFragment).insert(0, toYNodes([paragraph(text('Welcome'))]));
        (body.get('content') as Y.XmlFragment).insert(0, toYNodes([paragraph(text('Agenda for today'))]));
        const second = new Y.Map<unknown>();
        second.set('id', 'slide-2');
        const boxes = new Y.Array<Y.Map<unknown>>();
        second.set('boxes', boxes);
        slides.push([second]);
        const closing = newTextBox({ x: 0, y: 0, width: 100, height: 100 });
        boxes.push([closing]);
        (closing.get('content') as Y.XmlFragment).insert(0, toYNodes([paragraph(text('Thanks '), { type: 'mention', attrs: { id: 'user-3', label: 'Cy', guid: 'at-9' } })]));
      });
    };

    it('gives plain text of every kind', async () => {
      await fillAllKinds();
      expect(await plainText(svc, 'doc')).toBe(
        ['Quarterly report', 'Revenue grew, strongly this quarter.', 'first point', 'second point', 'Region\tSales', 'North\t42', 'Ask @Second User about it.', '中文内容，很好。'].join('\n'),
      );
      expect(await plainText(svc, 'pro')).toBe('Dear customer,\nHello old friend\nPay in 30 days\nNo refunds');
      // the formula reads as computed: SUM(B2:B3) = 9.5
      expect(await plainText(svc, 'sheet')).toBe('Name\tScore\nAnn\t9.5\nTRUE\n\t\t9.5\n\nother sheet');
      expect(await plainText(svc, 'deck')).toBe('Welcome\nAgenda for today\n\nThanks @Cy');
      await createFile('empty', 'document');
      expect(await plainText(svc, 'empty')).toBe('');
    });

    it('counts words (CJK one by one) and keywords for every kind', async () => {
      await fillAllKinds();
      const count = async (fileId: string, keywords?: string[]) => {
        const response = await svc.call('POST', `/sdk/v2/collab-files/${fileId}/plain-text/wc`, keywords ? { body: { keywords } } : {});
        expect(response.status, response.text).toBe(200);
        return response.body.data as { wordCount: number; keywords: Record<string, number> };
      };
      // Quarterly report(2) Revenue grew strongly this quarter(5) first point(2) second point(2) Region Sales(2) North 42(2)
      // Ask Second User about it(5) 中文内容很好(6)
      expect(await count('doc', ['point', 'QUARTER', '中文', 'absent'])).toEqual({ wordCount: 26, keywords: { point: 2, QUARTER: 2, 中文: 1, absent: 0 } });
      expect((await count('pro')).wordCount).toBe(11);
      expect(await count('sheet', ['ann'])).toEqual({ wordCount: 8, keywords: { ann: 1 } }); // Name Score Ann 9.5 TRUE 9.5 other sheet
      expect((await count('deck')).wordCount).toBe(6);
      const bad = await svc.call('POST', '/sdk/v2/collab-files/doc/plain-text/wc', { body: { keywords: 'point' } });
      expect(bad.status).toBe(400);
    });

    it('lists mentions of documents and presentations', async () => {
      await fillAllKinds();
      const doc = await svc.call('GET', '/sdk/v2/collab-files/doc/mention-at-list');
      expect(doc.body.data).toEqual({ mentionAtList: [{ userId: 'user-2', atGuid: 'at-1', source: 'body' }] });
      const deck = await svc.call('GET', '/sdk/v2/collab-files/deck/mention-at-list');
      expect(deck.body.data).toEqual({ mentionAtList: [{ userId: 'user-3', atGuid: 'at-9', source: 'body' }] });
      expect((await svc.call('GET', '/sdk/v2/collab-files/sheet/mention-at-list')).body.data).toEqual({ mentionAtList: [] });
    });

    it('copies every kind into an independent file and refuses an existing target', async () => {
      await fillAllKinds();
      for (const fileId of ['doc', 'pro', 'sheet', 'deck']) {
        const before = await plainText(svc, fileId);
        const copied = await svc.call('POST', `/sdk/v2/collab-files/${fileId}/copy`, { body: { fileId: `${fileId}-copy` } });
        expect(copied.status, copied.text).toBe(200);
        expect(copied.body.data).toMatchObject({ fileId: `${fileId}-copy` });
        expect(await plainText(svc, `${fileId}-copy`)).toBe(before);
      }
      // independent: editing the copy leaves the original alone
      await writeRichText('doc-copy', [paragraph(text('only in the copy'))]);
      expect(await plainText(svc, 'doc')).not.toContain('only in the copy');
      expect(await plainText(svc, 'doc-copy')).toContain('only in the copy');

      const exists = await svc.call('POST', '/sdk/v2/collab-files/doc/copy', { body: { fileId: 'sheet' } });
      expect(exists.status).toBe(409);
      expect(exists.body.status).toBe(70012);
      expect(await plainText(svc, 'sheet')).toContain('Name\tScore');
      const invalid = await svc.call('POST', '/sdk/v2/collab-files/doc/copy', { body: { fileId: 'a/b' } });
      expect(invalid.body.status).toBe(70001);
      const missing = await svc.call('POST', '/sdk/v2/collab-files/nope/copy', { body: { fileId: 'x' } });
      expect(missing.status).toBe(404);

      svc.integrator.addFile({ id: 'locked', type: 'document', grants: { [DEFAULT_USER.id]: { readable: true, copyable: false } } });
      await createFile('locked', 'document');
      const refused = await svc.call('POST', '/sdk/v2/collab-files/locked/copy', { body: { fileId: 'locked-copy' } });
      expect(refused.status).toBe(403);
      expect((await svc.call('GET', '/sdk/v2/collab-files/locked-copy/plain-text')).status).toBe(404);
    });

    it('copies what editors have open, including their latest edits', async () => {
      await createFile('live', 'document');
      const editor = await connectEditor(svc, 'live');
      editors.push(editor);
      const paragraphNode = new Y.XmlElement('paragraph');
      paragraphNode.insert(0, [new Y.XmlText('typed just now')]);
      editor.doc.getXmlFragment('default').insert(0, [paragraphNode]);
      await editor.saved();
      await svc.call('POST', '/sdk/v2/collab-files/live/copy', { body: { fileId: 'live-copy' } });
      expect(await plainText(svc, 'live-copy')).toBe('typed just now');
    });

    it('compacts the update log into the snapshot as it grows, keeping every update', async () => {
      const compactEvery = 4;
      await svc.close();
      svc = await startService(database, { integrator: true, content: { ...FAST_CONTENT, compactAfter: compactEvery } });
      await createFile('compact', 'document');
      for (let i = 0; i < 10; i++) await writeRichText('compact', [paragraph(text(`line ${i}`))]);
      await eventually(async () => ((await svc.services.content.store.head(svc.app.id, 'compact'))?.snapshotSeq ?? 0) >= 8, 'compaction');
      const left = await svc.services.content.store.updatesAfter(svc.app.id, 'compact', 0);
      expect(left.length).toBeLessThan(compactEvery);
      expect((await plainText(svc, 'compact')).split('\n')).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`));
    });

    it('compacts again when a late compaction took in more than its share of the log', async () => {
      const compactEvery = 4;
      await svc.close();
      svc = await startService(database, { integrator: true, content: { ...FAST_CONTENT, compactAfter: compactEvery } });
      await createFile('late', 'document');
      // the first compaction starts only once six updates are in: it takes all six, and two are left after it
      const store = svc.services.content.store;
      const compact = store.compact.bind(store);
      let held = true;
      store.compact = async (...args) => {
        if (held) await eventually(async () => ((await store.head(svc.app.id, 'late'))?.updateSeq ?? 0) >= 6, 'six updates');
        held = false;
        return compact(...args);
      };
      for (let i = 0; i < 6; i++) await writeRichText('late', [paragraph(text(`line ${i}`))]);
      await eventually(async () => (await store.head(svc.app.id, 'late'))?.snapshotSeq === 6, 'the late compaction');
      for (let i = 6; i < 10; i++) await writeRichText('late', [paragraph(text(`line ${i}`))]);
      // the log reached four again at the tenth update (a compaction every fourth seq would have waited for the twelfth)
      await eventually(async () => ((await store.head(svc.app.id, 'late'))?.snapshotSeq ?? 0) === 10, 'the second compaction');
      expect(await store.updatesAfter(svc.app.id, 'late', 0)).toEqual([]);
      expect((await plainText(svc, 'late')).split('\n')).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`));
    });

    it('answers a table file with 70004', async () => {
      await createFile('tbl', 'table');
      const response = await svc.call('GET', '/sdk/v2/collab-files/tbl/plain-text');
      expect(response.status).toBe(400);
      expect(response.body.status).toBe(70004);
    });

    it('reads and replaces bookmarks, all or nothing', async () => {
      await fillAllKinds();
      const read = await svc.call('GET', '/sdk/v2/api/files/pro/documentpro/bookmark_content', { query: { bookmarks: 'terms' } });
      expect(read.body.data).toEqual([{ bookmark: 'terms', content: 'Pay in 30 days\nNo refunds' }]);
      const all = await svc.call('GET', '/sdk/v2/api/files/pro/documentpro/bookmark_content');
      expect(all.body.data.map((entry: { bookmark: string }) => entry.bookmark)).toEqual(['greeting', 'terms']);

      const editor = await connectEditor(svc, 'pro');
      editors.push(editor);
      const put = await svc.call('PUT', '/sdk/v2/api/files/pro/documentpro/bookmark_content', {
        body: {
          replacements: [
            { bookmark: 'greeting', type: 'text', value: 'Hi Ann\nWelcome back' },
            { bookmark: 'terms', type: 'document', value: { type: 'doc', content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'New terms' }] }] } },
          ],
        },
      });
      expect(put.status, put.text).toBe(200);
      expect(await plainText(svc, 'pro')).toBe('Dear customer,\nHi Ann\nWelcome back\nNew terms');
      // connected editors see the replacement at once
      await eventually(() => editor.doc.getXmlFragment('default').toString().includes('New terms'), 'editor sees the replacement');

      const unknown = await svc.call('PUT', '/sdk/v2/api/files/pro/documentpro/bookmark_content', {
        body: { replacements: [{ bookmark: 'greeting', type: 'text', value: 'changed' }, { bookmark: 'nope', type: 'text', value: 'x' }] },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ status: 70014, data: { missing: ['nope'] } });
      const badFragment = await svc.call('PUT', '/sdk/v2/api/files/pro/documentpro/bookmark_content', {
        body: { replacements: [{ bookmark: 'greeting', type: 'document', value: { type: 'doc', content: [{ type: 'script', text: 'x' }] } }] },
      });
      expect(badFragment.status).toBe(400);
      expect(badFragment.body.status).toBe(70002);
      expect(badFragment.body.message).toContain('script');
      expect(await plainText(svc, 'pro')).toBe('Dear customer,\nHi Ann\nWelcome back\nNew terms');

      const missingRead = await svc.call('GET', '/sdk/v2/api/files/pro/documentpro/bookmark_content', { query: { bookmarks: 'nope' } });
      expect(missingRead.status).toBe(404);
      const notPro = await svc.call('GET', '/sdk/v2/api/files/doc/documentpro/bookmark_content');
      expect(notPro.body.status).toBe(70004);
    });

    it('keeps history, creates revisions newest first and restores one live, with Revision events', async () => {
      await createFile('rev', 'document');
      await writeRichText('rev', [paragraph(text('first draft'))]);
      await svc.services.content.flush(svc.app.id, 'rev');
      const first = await svc.call('POST', '/sdk/v2/collab-files/rev/revisions', { body: { title: 'Draft', label: 'v1' } });
      expect(first.status, first.text).toBe(200);
      expect(first.body.data).toMatchObject({ title: 'Draft', label: 'v1', user: { id: DEFAULT_USER.id, name: DEFAULT_USER.name } });

      const editor = await connectEditor(svc, 'rev');
      editors.push(editor);
      const node = new Y.XmlElement('paragraph');
      node.insert(0, [new Y.XmlText('second draft')]);
      editor.doc.getXmlFragment('default').insert(1, [node]);
      await editor.saved();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const second = await svc.call('POST', '/sdk/v2/collab-files/rev/revisions', { body: { title: 'Second' } });
      expect(second.status).toBe(200);

      const list = await svc.call('GET', '/sdk/v2/collab-files/rev/revisions');
      expect(list.body.data.map((revision: { title: string }) => revision.title)).toEqual(['Second', 'Draft']);

      const restored = await svc.call('POST', `/sdk/v2/collab-files/rev/revisions/${first.body.data.id}/restore`);
      expect(restored.status, restored.text).toBe(200);
      expect(await plainText(svc, 'rev')).toBe('first draft');
      await eventually(() => editor.doc.getXmlFragment('default').length === 1, 'editor sees the restore live');

      await eventually(() => svc.integrator.events.filter((event) => event.eventClass === 'Revision').length === 3, 'Revision events');
      const revisionEvents = svc.integrator.events.filter((event) => event.eventClass === 'Revision').map((event) => event.body);
      expect(revisionEvents[0]).toMatchObject({ kind: 'revision', action: 'create', fileId: 'rev', userId: DEFAULT_USER.id, revision: { revisionId: first.body.data.id, title: 'Draft', label: 'v1', docHistoryId: first.body.data.docHistoryId } });
      expect(revisionEvents[2]).toMatchObject({ kind: 'revision', action: 'update', revision: { revisionId: first.body.data.id } });
      const contentVersions = svc.integrator.events.filter((event) => event.eventClass === 'FileContent').map((event) => (event.body.fileContent as { version: number }).version);
      expect(contentVersions.at(-1)).toBe(restored.body.data.version);

      const history = await svc.call('GET', '/sdk/v2/collab-files/rev/doc-sidebar-info', { query: { pageSize: 2 } });
      expect(history.body.data.histories).toHaveLength(2);
      expect(history.body.data.isLastPage).toBe(false);
      expect(history.body.data.histories[0]).toMatchObject({ historyType: 2, userId: DEFAULT_USER.id, name: DEFAULT_USER.name });
      const rest = await svc.call('GET', '/sdk/v2/collab-files/rev/doc-sidebar-info', { query: { pageSize: 50, count: 2 } });
      expect(rest.body.data.isLastPage).toBe(true);
      const edits = await svc.call('GET', '/sdk/v2/collab-files/rev/doc-sidebar-info', { query: { historyType: 1 } });
      expect(edits.body.data.histories.every((entry: { historyType: number }) => entry.historyType === 1)).toBe(true);

      // a revision of an older history entry
      const fromHistory = await svc.call('POST', '/sdk/v2/collab-files/rev/revisions', { body: { title: 'From history', docHistoryId: edits.body.data.histories.at(-1).id } });
      expect(fromHistory.status).toBe(200);

      expect((await svc.call('POST', '/sdk/v2/collab-files/rev/revisions/nope/restore')).body.status).toBe(60010);
      expect((await svc.call('POST', '/sdk/v2/collab-files/rev/revisions', { body: { title: 'x', docHistoryId: 'nope' } })).body.status).toBe(60011);
      expect((await svc.call('POST', '/sdk/v2/collab-files/rev/revisions', { body: { title: '' } })).body.status).toBe(60012);
    });

    it("restores a documentPro's page setup with its text, and a copy keeps it", async () => {
      await createFile('paged', 'documentPro');
      const editor = await connectEditor(svc, 'paged');
      editors.push(editor);
      // what the SDK's removeAllPageNums / addPageNum do in the editor: change the file's page setup
      const edit = async (words: string, pageNumbers: boolean) => {
        editor.doc.transact(() => {
          const node = new Y.XmlElement('paragraph');
          node.insert(0, [new Y.XmlText(words)]);
          richTextOf(editor.doc).insert(richTextOf(editor.doc).length, [node]);
          setPageNumbersShown(editor.doc, pageNumbers);
        });
        await editor.saved();
      };
      const revise = async (title: string) => {
        await svc.services.content.flush(svc.app.id, 'paged');
        const revision = await svc.call('POST', '/sdk/v2/collab-files/paged/revisions', { body: { title } });
        expect(revision.status, revision.text).toBe(200);
        return revision.body.data.id as string;
      };
      const restore = async (revisionId: string) => {
        const restored = await svc.call('POST', `/sdk/v2/collab-files/paged/revisions/${revisionId}/restore`);
        expect(restored.status, restored.text).toBe(200);
      };
      /** The setting as a client that opens the file now reads it. */
      const storedPageNumbers = async (fileId: string) => {
        const reader = await connectEditor(svc, fileId);
        try {
          return pageNumbersShown(reader.doc);
        } finally {
          await reader.close();
        }
      };

      const numbered = await revise('Numbered'); // nothing set yet: pages are numbered
      await edit('no numbers', false);
      const unnumbered = await revise('Unnumbered');
      await edit('numbers again', true);

      await restore(unnumbered);
      expect(await plainText(svc, 'paged')).toBe('no numbers');
      await eventually(() => !pageNumbersShown(editor.doc), 'the open editor hides its page numbers');
      expect(await storedPageNumbers('paged')).toBe(false);

      const copied = await svc.call('POST', '/sdk/v2/collab-files/paged/copy', { body: { fileId: 'paged-copy' } });
      expect(copied.status, copied.text).toBe(200);
      expect(await storedPageNumbers('paged-copy')).toBe(false);

      await restore(numbered);
      expect(await plainText(svc, 'paged')).toBe('');
      await eventually(() => pageNumbersShown(editor.doc), 'the open editor shows its page numbers again');
      expect(await storedPageNumbers('paged')).toBe(true);
      // the copy is its own file: restoring the original leaves its setting alone
      expect(await storedPageNumbers('paged-copy')).toBe(false);
    });

    it('keeps the content of the newest history entries and of those revisions name; older entries stay listed without it', async () => {
      await svc.close();
      svc = await startService(database, { integrator: true, content: { ...FAST_CONTENT, historySnapshots: 3 } });
      const contentOf = async (historyId: string) => {
        const response = await fetch(`${svc.url}/sdk/v2/collab-files/kept/history/${encodeURIComponent(historyId)}/content`, {
          headers: { 'x-svc-signature': await svc.sign(), 'x-svc-token': DEFAULT_USER.token },
        });
        return response.status === 200 ? 200 : ((await response.json()) as { status: number }).status;
      };
      const edit = async (words: string) => {
        await writeRichText('kept', [paragraph(text(words))]);
        await svc.services.content.flush(svc.app.id, 'kept');
      };
      const entries = async () => (await svc.call('GET', '/sdk/v2/collab-files/kept/doc-sidebar-info', { query: { pageSize: 50 } })).body.data.histories as { id: string; historyType: number }[];
      await createFile('kept', 'document');
      await edit('one');
      const named = (await svc.call('POST', '/sdk/v2/collab-files/kept/revisions', { body: { title: 'First draft' } })).body.data;
      for (const words of ['two', 'three', 'four', 'five']) await edit(words);

      const listed = await entries();
      expect(listed).toHaveLength(6); // five edits and the revision's snapshot: every entry stays in the history
      const statuses = await Promise.all(listed.map((entry) => contentOf(entry.id)));
      const keptIds = listed.filter((_, index) => statuses[index] === 200).map((entry) => entry.id);
      // the three newest, and the entry the revision names although it is older
      expect(keptIds).toEqual([...listed.slice(0, 3).map((entry) => entry.id), named.docHistoryId]);
      expect(statuses.filter((status) => status !== 200)).toEqual([60013, 60013]);
      // the revision still restores; a revision cannot be made of an entry whose content is gone
      const restored = await svc.call('POST', `/sdk/v2/collab-files/kept/revisions/${named.id}/restore`);
      expect(restored.status, restored.text).toBe(200);
      const gone = listed.find((_, index) => statuses[index] === 60013)!;
      const refused = await svc.call('POST', '/sdk/v2/collab-files/kept/revisions', { body: { title: 'Too late', docHistoryId: gone.id } });
      expect([refused.status, refused.body.status]).toEqual([410, 60013]);
    });

    it('a flush asked while the change is being recorded waits for that recording', async () => {
      await createFile('late-flush', 'document');
      let started!: () => void;
      const recordingStarted = new Promise<void>((resolve) => (started = resolve));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      svc.services.content.addRecordHook({
        name: 'held',
        kinds: ['document'],
        onRecord: async () => {
          started();
          await held;
          return [];
        },
      });
      await writeRichText('late-flush', [paragraph(text('recorded'))]);
      // the coalescing timer (FAST_CONTENT: 100 ms) starts recording the change; a flush now finds nothing pending
      await recordingStarted;
      let flushed = false;
      const flush = svc.services.content.flush(svc.app.id, 'late-flush').then(() => (flushed = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const flushedBeforeRecorded = flushed;
      release();
      await flush;
      expect(flushedBeforeRecorded, 'flush resolved before the recording under way').toBe(false);
      const edits = (await svc.call('GET', '/sdk/v2/collab-files/late-flush/doc-sidebar-info', { query: { historyType: 1 } })).body.data.histories;
      expect(edits).toHaveLength(1);
    });

    it('serves the content of an old version as the Yjs state of its history entry', async () => {
      const historyContent = async (fileId: string, historyId: string, token: string = DEFAULT_USER.token) => {
        const response = await fetch(`${svc.url}/sdk/v2/collab-files/${fileId}/history/${encodeURIComponent(historyId)}/content`, {
          headers: { 'x-svc-signature': await svc.sign(), 'x-svc-token': token },
        });
        const body = new Uint8Array(await response.arrayBuffer());
        return { status: response.status, headers: response.headers, body, json: () => JSON.parse(Buffer.from(body).toString('utf8')) };
      };
      const textOf = (state: Uint8Array, kind: 'document' | 'spreadsheet' = 'document') => {
        const doc = new Y.Doc();
        Y.applyUpdate(doc, state);
        return plainTextOf(doc, kind);
      };
      await createFile('old', 'document');
      await writeRichText('old', [paragraph(text('version one'))]);
      await svc.services.content.flush(svc.app.id, 'old');
      await writeRichText('old', [paragraph(text('version two'))]);
      await svc.services.content.flush(svc.app.id, 'old');
      const edits = (await svc.call('GET', '/sdk/v2/collab-files/old/doc-sidebar-info', { query: { historyType: 1 } })).body.data.histories;
      expect(edits).toHaveLength(2);

      const oldest = await historyContent('old', edits[1].id);
      expect(oldest.status).toBe(200);
      expect(oldest.headers.get('content-type')).toBe('application/octet-stream');
      expect(oldest.headers.get('cache-control')).toBe('private, no-store');
      expect(textOf(oldest.body)).toBe('version one');
      expect(textOf((await historyContent('old', edits[0].id)).body)).toBe('version one\nversion two');

      // a revision names a history entry: its docHistoryId opens the same way
      const revision = (await svc.call('POST', '/sdk/v2/collab-files/old/revisions', { body: { title: 'Both' } })).body.data;
      expect(textOf((await historyContent('old', revision.docHistoryId)).body)).toBe('version one\nversion two');

      // other kinds too (the editor decodes them with the same model)
      await createFile('old-sheet', 'spreadsheet');
      await setCells('old-sheet', { '0:0': { v: 'kept' } });
      await svc.services.content.flush(svc.app.id, 'old-sheet');
      const sheetEntry = (await svc.call('GET', '/sdk/v2/collab-files/old-sheet/doc-sidebar-info')).body.data.histories[0];
      expect(textOf((await historyContent('old-sheet', sheetEntry.id)).body, 'spreadsheet')).toBe('kept');

      // unknown ids, another file's entry, a table file, no permission: JSON envelopes with clear codes
      const unknown = await historyContent('old', 'no-such-entry');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
      expect(unknown.json()).toMatchObject({ status: 60011, message: expect.stringContaining('no-such-entry') });
      expect((await historyContent('old-sheet', edits[1].id)).json().status).toBe(60011);
      expect((await historyContent('no-such-file', edits[1].id)).json().status).toBe(70013);
      expect((await historyContent('old', 'x'.repeat(65))).json().status).toBe(40000);
      await createFile('old-table', 'table');
      expect((await historyContent('old-table', edits[1].id)).json()).toMatchObject({ status: 70004 });

      svc.integrator.addUser({ id: 'user-9', name: 'Reader', token: 'token-9' });
      svc.integrator.addUser({ id: 'user-10', name: 'Stranger', token: 'token-10' });
      svc.integrator.addFile({ id: 'old', type: 'document', grants: { [DEFAULT_USER.id]: { readable: true }, 'user-9': { readable: true }, 'user-10': { readable: false } } });
      expect(textOf((await historyContent('old', edits[1].id, 'token-9')).body)).toBe('version one');
      const refused = await historyContent('old', edits[1].id, 'token-10');
      expect(refused.status).toBe(403);
      expect(refused.json().status).toBe(40300);
    });

    it('lets a reader read but not change', async () => {
      await fillAllKinds();
      svc.integrator.addFile({ id: 'pro', type: 'documentPro', grants: { [DEFAULT_USER.id]: { readable: true, editable: false } } });
      svc.services.access.forget();
      expect((await svc.call('GET', '/sdk/v2/collab-files/pro/plain-text')).status).toBe(200);
      const put = await svc.call('PUT', '/sdk/v2/api/files/pro/documentpro/bookmark_content', { body: { replacements: [{ bookmark: 'greeting', type: 'text', value: 'x' }] } });
      expect(put.status).toBe(403);
      expect((await svc.call('POST', '/sdk/v2/collab-files/pro/revisions', { body: { title: 'x' } })).status).toBe(403);
    });
  });
}
