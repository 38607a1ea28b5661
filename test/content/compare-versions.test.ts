import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { richTextOf } from '../../src/model/content.js';
import { compareDocuments, textBlocks, type Comparison } from '../../src/model/rich-text/compare.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';

const text = (value: string): ProseMirrorNode => ({ type: 'text', text: value });
const paragraph = (value: string): ProseMirrorNode => ({ type: 'paragraph', content: value ? [text(value)] : [] });
const heading = (value: string): ProseMirrorNode => ({ type: 'heading', attrs: { level: 2 }, content: [text(value)] });
const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };

/** The text of one side of a comparison, block by block: `older` leaves the insertions out, the newer the deletions. */
function side(comparison: Comparison, which: 'older' | 'newer'): string[] {
  const skipped = which === 'older' ? 'insert' : 'delete';
  const status = which === 'older' ? 'inserted' : 'deleted';
  return comparison.blocks.filter((block) => block.status !== status).map((block) => block.runs.filter((run) => run.change !== skipped).map((run) => run.text).join(''));
}

describe('comparing two versions of a document', () => {
  it('marks the words edited in a paragraph, and whole blocks inserted and deleted, in document order', () => {
    const older = [heading('Plan'), paragraph('We ship on Monday.'), paragraph('Old risk list'), paragraph('Owners: Ann')];
    const newer = [heading('Plan'), paragraph('We ship on Friday.'), paragraph('Owners: Ann'), { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph('New task')] }] }];
    const comparison = compareDocuments(older, newer);
    expect(comparison.blocks.map((block) => [block.status, block.type])).toEqual([
      ['equal', 'heading'],
      ['changed', 'paragraph'],
      ['deleted', 'paragraph'],
      ['equal', 'paragraph'],
      ['inserted', 'paragraph'],
    ]);
    expect(comparison.blocks[0]).toMatchObject({ level: 2 });
    expect(comparison.blocks[1]!.runs).toEqual([{ text: 'We ship on ' }, { text: 'Monday', change: 'delete' }, { text: 'Friday', change: 'insert' }, { text: '.' }]);
    expect(comparison.blocks[2]!.runs).toEqual([{ text: 'Old risk list', change: 'delete' }]);
    expect(comparison.blocks[4]!.runs).toEqual([{ text: 'New task', change: 'insert' }]);
    expect(comparison).toMatchObject({ inserted: 'Friday'.length + 'New task'.length, deleted: 'Monday'.length + 'Old risk list'.length });
  });

  it('reads table cells, mentions and images as text blocks', () => {
    const table = { type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableCell', content: [paragraph('A1')] }, { type: 'tableCell', content: [{ type: 'paragraph', content: [{ type: 'mention', attrs: { id: 'u', label: 'Bo' } }] }] }] }] };
    expect(textBlocks([table, { type: 'image', attrs: { src: 'x', alt: 'chart' } }])).toEqual([
      { type: 'paragraph', text: 'A1' },
      { type: 'paragraph', text: '@Bo' },
      { type: 'image', text: '[chart]' },
    ]);
  });

  it('property: each side of the comparison is exactly that version\'s text', () => {
    const words = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '中文', ' ', ', ', 'x');
    const block = fc.tuple(fc.constantFrom('p', 'h'), fc.array(words, { maxLength: 8 })).map(([kind, parts]) => (kind === 'p' ? paragraph(parts.join('')) : heading(parts.join('') || 'h')));
    fc.assert(
      fc.property(fc.array(block, { maxLength: 8 }), fc.array(block, { maxLength: 8 }), (older, newer) => {
        const comparison = compareDocuments(older, newer);
        expect(side(comparison, 'older')).toEqual(textBlocks(older).map((b) => b.text));
        expect(side(comparison, 'newer')).toEqual(textBlocks(newer).map((b) => b.text));
      }),
      { numRuns: 300 },
    );
  });
});

for (const database of testDatabases()) {
  describe(`GET history/{a}/compare/{b} [${database.name}]`, { timeout: 60_000 }, () => {
    let svc: TestService;
    const write = (fileId: string, nodes: ProseMirrorNode[]) =>
      svc.services.content.change(svc.app.id, fileId, author, (doc) => {
        const root = richTextOf(doc);
        root.delete(0, root.length);
        root.insert(0, toYNodes(parseFragment(nodes)));
      });
    const revision = async (fileId: string, title: string): Promise<string> => {
      const created = await svc.call('POST', `/sdk/v2/collab-files/${fileId}/revisions`, { body: { title } });
      expect(created.status, created.text).toBe(200);
      return created.body.data.docHistoryId as string;
    };
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
      for (const [fileId, type] of [['memo', 'document'], ['sheet', 'spreadsheet']]) {
        expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } })).status).toBe(200);
      }
    });
    afterAll(() => svc.close());

    it('answers the insertions and deletions between two revisions; unknown ids and other file kinds are refused', async () => {
      await write('memo', [paragraph('Budget is 10k.'), paragraph('Draft only')]);
      const first = await revision('memo', 'v1');
      await write('memo', [paragraph('Budget is 12k.'), paragraph('Approved by the board')]);
      const second = await revision('memo', 'v2');

      const compared = await svc.call('GET', `/sdk/v2/collab-files/memo/history/${first}/compare/${second}`);
      expect(compared.status, compared.text).toBe(200);
      expect(compared.body.data.blocks).toEqual([
        { status: 'changed', type: 'paragraph', runs: [{ text: 'Budget is ' }, { text: '10k', change: 'delete' }, { text: '12k', change: 'insert' }, { text: '.' }] },
        // rewritten: nothing but a space in common, so shown replaced rather than chopped word by word
        { status: 'deleted', type: 'paragraph', runs: [{ text: 'Draft only', change: 'delete' }] },
        { status: 'inserted', type: 'paragraph', runs: [{ text: 'Approved by the board', change: 'insert' }] },
      ]);
      const backwards = await svc.call('GET', `/sdk/v2/collab-files/memo/history/${second}/compare/${first}`);
      expect(backwards.body.data).toMatchObject({ inserted: compared.body.data.deleted, deleted: compared.body.data.inserted });

      const unknown = await svc.call('GET', `/sdk/v2/collab-files/memo/history/${first}/compare/nope`);
      expect([unknown.status, unknown.body.status]).toEqual([404, 60011]);
      const sheetRevision = await revision('sheet', 's1');
      const sheet = await svc.call('GET', `/sdk/v2/collab-files/sheet/history/${sheetRevision}/compare/${sheetRevision}`);
      expect([sheet.status, sheet.body.status]).toEqual([400, 70004]);
      svc.integrator.addFile({ id: 'memo', type: 'document', grants: { [DEFAULT_USER.id]: { readable: false } } });
      svc.services.access.forget();
      const refused = await svc.call('GET', `/sdk/v2/collab-files/memo/history/${first}/compare/${second}`);
      expect(refused.status).toBe(403);
    });
  });
}
