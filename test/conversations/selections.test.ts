import fc from 'fast-check';
import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newTextBox, recordStructureEdit, richTextOf, sheetsOf, slidesOf } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { createSelectionModules, type SelectionContext, type SelectionModules } from '../../src/domain/conversations/selections/index.js';
import type { FileType } from '../../src/model/file-types.js';
import type { RequestAuth } from '../../src/auth/request-auth.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { connectEditor, type Editor } from '../content/support.js';
import { API, createBase, createTable, insertRows } from '../tables/helpers.js';

const FAST_CONTENT = { coalesceMs: 100, coalesceMaxMs: 1000, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };
const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };

const text = (value: string, marks?: ProseMirrorNode['marks']): ProseMirrorNode => ({ type: 'text', text: value, ...(marks ? { marks } : {}) });
const paragraph = (...content: ProseMirrorNode[]): ProseMirrorNode => ({ type: 'paragraph', content });
const mention = (id: string, label: string): ProseMirrorNode => ({ type: 'mention', attrs: { id, label, guid: `at-${id}` } });

const encode = (position: Y.RelativePosition) => Buffer.from(Y.encodeRelativePosition(position)).toString('base64');

// ---------------------------------------------------------------------------------------------------
// An independent account of ProseMirror's counting over ProseMirror JSON (Node.nodeSize, textBetween):
// the module counts over the Yjs tree, this over the node tree the editor holds.

const LEAVES = new Set(['image', 'horizontalRule', 'hardBreak', 'mention']);
const TEXTBLOCKS = new Set(['paragraph', 'heading', 'codeBlock']);

function nodeSize(node: ProseMirrorNode): number {
  if (node.type === 'text') return node.text!.length;
  if (LEAVES.has(node.type)) return 1;
  return 2 + (node.content ?? []).reduce((sum, child) => sum + nodeSize(child), 0);
}

const docSize = (blocks: ProseMirrorNode[]) => blocks.reduce((sum, block) => sum + nodeSize(block), 0);

function leafReads(node: ProseMirrorNode): string {
  if (node.type === 'hardBreak') return '\n';
  if (node.type === 'mention') return `@${String(node.attrs?.label)}`;
  return '';
}

/** ProseMirror's doc.textBetween(from, to, "\n", leafReads), and whether a character or mention lies inside. */
function referenceText(blocks: ProseMirrorNode[], from: number, to: number): { text: string; coversText: boolean } {
  let text = '';
  let coversText = false;
  let first = true;
  const walk = (nodes: ProseMirrorNode[], start: number) => {
    let pos = start;
    for (const node of nodes) {
      const end = pos + nodeSize(node);
      if (pos < to && end > from) {
        if (node.type === 'text') {
          const slice = node.text!.slice(Math.max(from, pos) - pos, to - pos);
          text += slice;
          coversText ||= slice.length > 0;
        } else if (LEAVES.has(node.type)) {
          text += leafReads(node);
          coversText ||= node.type === 'mention';
        } else {
          if (TEXTBLOCKS.has(node.type)) {
            if (!first) text += '\n';
            first = false;
          }
          walk(node.content ?? [], pos + 1);
        }
      }
      pos = end;
    }
  };
  walk(blocks, 0);
  return { text, coversText };
}

/** Where each run of consecutive text nodes (one Y.XmlText in the Yjs tree) starts, in document order. */
function textRuns(blocks: ProseMirrorNode[]): Array<{ start: number; text: string }> {
  const runs: Array<{ start: number; text: string }> = [];
  const walk = (nodes: ProseMirrorNode[], start: number) => {
    let pos = start;
    let previousWasText = false;
    for (const node of nodes) {
      if (node.type === 'text') {
        if (previousWasText) runs[runs.length - 1]!.text += node.text!;
        else runs.push({ start: pos, text: node.text! });
      } else if (!LEAVES.has(node.type)) {
        walk(node.content ?? [], pos + 1);
      }
      previousWasText = node.type === 'text';
      pos += nodeSize(node);
    }
  };
  walk(blocks, 0);
  return runs;
}

function xmlTexts(node: Y.XmlFragment): Y.XmlText[] {
  return node.toArray().flatMap((child) => (child instanceof Y.XmlText ? [child] : child instanceof Y.XmlElement ? xmlTexts(child) : []));
}

// Random documents with every kind of node whose counting differs: nested lists, tables, quotes, leaves.
const inlineArb: fc.Arbitrary<ProseMirrorNode> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 5, unit: fc.constantFrom('a', 'b', 'ç', '中', ' ', 'é') }), fc.boolean()).map(([value, bold]) => text(value, bold ? [{ type: 'bold' }] : undefined)) },
  { weight: 1, arbitrary: fc.constant<ProseMirrorNode>({ type: 'hardBreak' }) },
  { weight: 1, arbitrary: fc.constantFrom(mention('u1', 'Ann'), mention('u2', 'Bo Li')) },
  { weight: 1, arbitrary: fc.constant<ProseMirrorNode>({ type: 'image', attrs: { src: 'i.png' } }) },
);
const textblockArb = fc.tuple(fc.constantFrom('paragraph', 'heading'), fc.array(inlineArb, { maxLength: 4 })).map(([type, content]): ProseMirrorNode => (type === 'heading' ? { type, attrs: { level: 2 }, content } : { type, content }));
const { block: blockArb } = fc.letrec<{ block: ProseMirrorNode }>((tie) => ({
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: textblockArb },
    fc.constant<ProseMirrorNode>({ type: 'horizontalRule' }),
    // a picture on a line of its own: the editor's schema holds it in a paragraph
    fc.constant<ProseMirrorNode>({ type: 'paragraph', content: [{ type: 'image', attrs: { src: 'b.png' } }] }),
    fc.array(tie('block'), { minLength: 1, maxLength: 2 }).map((content): ProseMirrorNode => ({ type: 'blockquote', content })),
    fc.array(fc.array(tie('block'), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }).map((items): ProseMirrorNode => ({
      type: 'bulletList',
      content: items.map((content) => ({ type: 'listItem', content })),
    })),
    fc.array(fc.array(textblockArb, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }).map((rows): ProseMirrorNode => ({
      type: 'table',
      content: rows.map((cells) => ({ type: 'tableRow', content: cells.map((cell) => ({ type: 'tableCell', content: [cell] })) })),
    })),
  ),
}));
const documentArb = fc.array(blockArb, { minLength: 1, maxLength: 4 });

for (const database of testDatabases()) {
  describe(`selection modules [${database.name}]`, () => {
    let svc: TestService;
    let modules: SelectionModules;
    let auth: RequestAuth;
    const editors: Editor[] = [];
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      modules = createSelectionModules({ content: svc.services.content, tables: svc.services.tables });
      auth = { app: svc.app, claims: {}, token: DEFAULT_USER.token, requestId: 'selections-test' };
    });
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await svc.close();
    });

    const context = (fileId: string): SelectionContext => ({ appId: svc.app.id, fileId, auth });
    const createFile = async (fileId: string, type: string) => {
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } });
      expect(created.status, created.text).toBe(200);
    };
    const change = (fileId: string, mutate: (doc: Y.Doc) => void) => svc.services.content.change(svc.app.id, fileId, author, mutate);
    const writeBlocks = (fileId: string, blocks: ProseMirrorNode[]) =>
      change(fileId, (doc) => {
        const root = richTextOf(doc);
        if (root.length > 0) root.delete(0, root.length);
        root.insert(0, toYNodes(parseFragment(blocks)));
      });
    /** Runs `use` on the file's current content (a copy built from storage when no editor has it open). */
    const inContent = async <T>(fileId: string, use: (doc: Y.Doc) => T): Promise<T> => {
      const doc = await svc.services.content.read(svc.app.id, fileId);
      try {
        return use(doc);
      } finally {
        if (!svc.services.content.isLive(doc)) doc.destroy();
      }
    };
    const anchorOf = (fileId: string, type: FileType, selection: unknown) => modules.forFileType(type).anchor(context(fileId), selection);
    const resolveOne = async (fileId: string, type: FileType, anchor: Record<string, unknown>) =>
      (await modules.forFileType(type).resolve(context(fileId), [anchor]))[0];
    const refused = async (promise: Promise<unknown>, message: RegExp) => {
      await expect(promise).rejects.toMatchObject({ spec: { http: 400, code: 74001 }, message: expect.stringMatching(message) });
    };

    describe('registry', () => {
      it('finds modules by file type and by name, and lists their schemas', () => {
        expect(modules.forFileType('document').name).toBe('document');
        expect(modules.forFileType('documentPro')).toBe(modules.forFileType('document'));
        expect(modules.byName('spreadsheet')).toBe(modules.forFileType('spreadsheet'));
        expect(modules.byName('presentation')?.fileTypes).toEqual(['presentation']);
        expect(modules.byName('table')?.fileTypes).toEqual(['table']);
        expect(modules.byName('nope')).toBeUndefined();
        expect(modules.schemas).toHaveLength(4);
        for (const schema of modules.schemas) expect(typeof schema.description).toBe('string');
      });

      it('refuses a selection of another kind, naming the shape it expects', async () => {
        await createFile('sheet', 'spreadsheet');
        await refused(anchorOf('sheet', 'spreadsheet', { from: 1, to: 3 }), /spreadsheet file is \{sheetId, range\} or \{sheet, range\}.*got \{from, to\}/);
        await createFile('doc', 'document');
        await refused(anchorOf('doc', 'document', { sheet: 'Sheet1', range: 'A1' }), /\{from, to\}.*\{start, end\}.*got \{sheet, range\}/);
        await refused(anchorOf('doc', 'document', 'B2'), /got a string/);
        await refused(anchorOf('doc', 'document', null), /got nothing/);
      });
    });

    describe('document', () => {
      const SENTENCE = 'Hello brave new world';
      // <p>Hello brave new world</p>: the text starts at 1, so "brave" is 7..12
      const BRAVE = { from: 7, to: 12 };

      it('anchors a range by positions and resolves it with its quote', async () => {
        await createFile('doc', 'documentPro');
        await writeBlocks('doc', [paragraph(text(SENTENCE)), paragraph(text('Ask '), mention('u2', 'Second User'), text(' now'), { type: 'hardBreak' }, text('ok'))]);
        const anchored = await anchorOf('doc', 'documentPro', BRAVE);
        expect(anchored.title).toBeUndefined();
        expect(anchored.content).toBeUndefined();
        expect(await resolveOne('doc', 'document', anchored.anchor)).toEqual({ ...BRAVE, quote: 'brave', detached: false });

        // across both paragraphs: one line break between textblocks, mentions as @label, hard breaks as line breaks
        const size = SENTENCE.length + 2 + 4 + 1 + 4 + 1 + 2 + 2;
        const all = await anchorOf('doc', 'documentPro', { from: 0, to: size });
        expect(await resolveOne('doc', 'document', all.anchor)).toEqual({ from: 0, to: size, quote: `${SENTENCE}\nAsk @Second User now\nok`, detached: false });
      });

      it('refuses ranges that are inverted, outside the document or cover no text, and foreign relative positions', async () => {
        await createFile('doc', 'document');
        await refused(anchorOf('doc', 'document', { from: 0, to: 1 }), /past the end of the document \(its size is 0\)/);
        await writeBlocks('doc', [paragraph(text(SENTENCE)), paragraph({ type: 'image', attrs: { src: 'x.png' } }), paragraph()]);
        const size = SENTENCE.length + 2 + 3 + 2;
        await refused(anchorOf('doc', 'document', { from: 5, to: 5 }), /selection.from \(5\) must be less than selection.to \(5\)/);
        await refused(anchorOf('doc', 'document', { from: 9, to: 3 }), /must be less than/);
        await refused(anchorOf('doc', 'document', { from: 3, to: size + 1 }), /past the end of the document \(its size is 28\)/);
        await refused(anchorOf('doc', 'document', { from: -1, to: 3 }), /\{from, to\}/);
        await refused(anchorOf('doc', 'document', { from: 1.5, to: 3 }), /\{from, to\}/);
        await refused(anchorOf('doc', 'document', { from: 1, to: 3, extra: true }), /got \{from, to, extra\}/);
        // the paragraph's opening, the picture's paragraph, the empty paragraph: structure only
        await refused(anchorOf('doc', 'document', { from: 0, to: 1 }), /positions 0-1 cover no text/);
        await refused(anchorOf('doc', 'document', { from: SENTENCE.length + 1, to: size }), /cover no text/);

        await refused(anchorOf('doc', 'document', { start: 'not base64!', end: 'AAAA' }), /\{start, end\}/);
        await refused(anchorOf('doc', 'document', { start: 'AAAA', end: 'AAAA' }), /selection.start is not a relative position in this document's text/);
        // positions in another document (its items do not exist here), and in another root type of this one
        const other = new Y.Doc();
        const otherText = new Y.XmlText('elsewhere');
        richTextOf(other).insert(0, [otherText]);
        await refused(anchorOf('doc', 'document', { start: encode(Y.createRelativePositionFromTypeIndex(otherText, 0)), end: encode(Y.createRelativePositionFromTypeIndex(otherText, 3)) }), /selection.start is not a relative position/);
        const foreignRoot = encode(Y.createRelativePositionFromTypeIndex(other.getArray('sheets'), 0));
        await refused(anchorOf('doc', 'document', { start: foreignRoot, end: foreignRoot }), /selection.start is not a relative position/);
        const [start, end] = await inContent('doc', (doc) => {
          const sentence = xmlTexts(richTextOf(doc))[0]!;
          return [encode(Y.createRelativePositionFromTypeIndex(sentence, 6)), encode(Y.createRelativePositionFromTypeIndex(sentence, 2))];
        });
        await refused(anchorOf('doc', 'document', { start, end }), /selection.start \(position 7\) must come before selection.end \(position 3\)/);
      });

      it('takes relative positions made on the text, as an editor sends them', async () => {
        await createFile('doc', 'document');
        await writeBlocks('doc', [{ type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('first'))] }, { type: 'listItem', content: [paragraph(text(SENTENCE))] }] }]);
        const selection = await inContent('doc', (doc) => {
          const sentence = xmlTexts(richTextOf(doc))[1]!;
          return { start: encode(Y.createRelativePositionFromTypeIndex(sentence, 6)), end: encode(Y.createRelativePositionFromTypeIndex(sentence, 11)) };
        });
        // <ul><li><p>first</p></li><li><p>Hello …: the second text starts at 1 + 1 + 7 + 1 + 1 + 1 = 12
        const anchored = await anchorOf('doc', 'document', selection);
        expect(await resolveOne('doc', 'document', anchored.anchor)).toEqual({ from: 18, to: 23, quote: 'brave', detached: false });
      });

      it('follows edits made through the API: before, inside, partly and wholly deleting the range', async () => {
        await createFile('doc', 'document');
        await writeBlocks('doc', [paragraph(text(SENTENCE)), paragraph(text('second line'))]);
        const { anchor } = await anchorOf('doc', 'document', BRAVE);
        const sentence = (doc: Y.Doc) => xmlTexts(richTextOf(doc))[0]!;

        await change('doc', (doc) => sentence(doc).insert(0, 'Oh, '));
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 11, to: 16, quote: 'brave', detached: false });
        await change('doc', (doc) => sentence(doc).insert(12, 'XY')); // "Oh, Hello brXYave new world"
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 11, to: 18, quote: 'brXYave', detached: false });
        await change('doc', (doc) => sentence(doc).delete(9, 3)); // " br": "Oh, HelloXYave new world"
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 10, to: 15, quote: 'XYave', detached: false });
        // a new paragraph before the commented one moves it by the paragraph's size
        await change('doc', (doc) => richTextOf(doc).insert(0, toYNodes([paragraph(text('new'))])));
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 15, to: 20, quote: 'XYave', detached: false });
        await change('doc', (doc) => xmlTexts(richTextOf(doc))[1]!.delete(9, 5));
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 15, to: 15, quote: '', detached: true });
        expect(await resolveOne('doc', 'document', (await anchorOf('doc', 'document', { from: 2, to: 4 })).anchor)).toMatchObject({ quote: 'ew' });
      });

      it('detaches a range whose paragraphs were deleted as a whole, and keeps what survives of a range across paragraphs', async () => {
        await createFile('doc', 'document');
        await writeBlocks('doc', [paragraph(text('one')), { type: 'blockquote', content: [paragraph(text('two')), paragraph(text('three'))] }, paragraph(text('four'))]);
        // one: text 1-4; the quote opens at 5; two: 7-10; three: 12-17; the quote closes at 18; four: 20-24
        const inTwo = (await anchorOf('doc', 'document', { from: 7, to: 10 })).anchor;
        const twoToFour = (await anchorOf('doc', 'document', { from: 8, to: 22 })).anchor;
        expect(await resolveOne('doc', 'document', twoToFour)).toEqual({ from: 8, to: 22, quote: 'wo\nthree\nfo', detached: false });

        // delete the paragraph "two": its text is garbage collected with it
        await change('doc', (doc) => (richTextOf(doc).get(1) as Y.XmlElement).delete(0, 1));
        expect(await resolveOne('doc', 'document', inTwo)).toEqual({ from: 6, to: 6, quote: '', detached: true });
        expect(await resolveOne('doc', 'document', twoToFour)).toEqual({ from: 6, to: 17, quote: 'three\nfo', detached: false });
        // everything but "one" goes
        await change('doc', (doc) => richTextOf(doc).delete(1, 2));
        expect(await resolveOne('doc', 'document', twoToFour)).toMatchObject({ from: 5, to: 5, detached: true });
      });

      it('follows edits made by a collaboration editor', async () => {
        await createFile('doc', 'document');
        await writeBlocks('doc', [paragraph(text(SENTENCE))]);
        const { anchor } = await anchorOf('doc', 'document', BRAVE);
        const editor = await connectEditor(svc, 'doc');
        editors.push(editor);
        const sentence = () => xmlTexts(richTextOf(editor.doc))[0]!;

        sentence().insert(0, 'Well, ');
        await editor.saved();
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 13, to: 18, quote: 'brave', detached: false });
        sentence().insert(15, 'aaa');
        await editor.saved();
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 13, to: 21, quote: 'braaaave', detached: false });
        sentence().delete(11, 4); // " bra"
        await editor.saved();
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 12, to: 17, quote: 'aaave', detached: false });
        // an editor splitting the paragraph: the range's text moves to a new paragraph, the old one keeps the rest
        editor.doc.transact(() => {
          sentence().delete(0, 11);
          richTextOf(editor.doc).insert(0, toYNodes([paragraph(text('Well, Hello'))]));
        });
        await editor.saved();
        expect(await resolveOne('doc', 'document', anchor)).toEqual({ from: 14, to: 19, quote: 'aaave', detached: false });
        const moved = xmlTexts(richTextOf(editor.doc))[1]!;
        moved.delete(0, moved.length);
        await editor.saved();
        expect(await resolveOne('doc', 'document', anchor)).toMatchObject({ quote: '', detached: true });

        // several anchors resolve against one read of the live document
        const other = (await anchorOf('doc', 'document', { from: 1, to: 5 })).anchor;
        const both = await modules.forFileType('document').resolve(context('doc'), [anchor, other]);
        expect(both.map((resolved) => resolved.detached)).toEqual([true, false]);
      });

      it('anchors then resolves any valid range of any document to the same positions and its text, as ProseMirror counts them', async () => {
        await createFile('doc', 'document');
        await fc.assert(
          fc.asyncProperty(documentArb, fc.nat(), fc.nat(), async (blocks, a, b) => {
            await writeBlocks('doc', blocks);
            const size = docSize(blocks);
            const from = Math.min(a, b) % (size + 1);
            const to = Math.max(a, b) % (size + 1);
            const reference = referenceText(blocks, from, to);
            if (from >= to || !reference.coversText) {
              await expect(anchorOf('doc', 'document', { from, to })).rejects.toMatchObject({ spec: { code: 74001 } });
              return;
            }
            const { anchor } = await anchorOf('doc', 'document', { from, to });
            expect(await resolveOne('doc', 'document', anchor)).toEqual({ from, to, quote: reference.text, detached: false });

            // relative positions made on each text resolve where ProseMirror counts that text
            const runs = textRuns(blocks);
            const selections = await inContent('doc', (doc) => {
              const texts = xmlTexts(richTextOf(doc));
              expect(texts.map((node) => node.toString().replace(/<[^>]*>/g, ''))).toEqual(runs.map((run) => run.text));
              return texts.map((node) => ({ start: encode(Y.createRelativePositionFromTypeIndex(node, 0)), end: encode(Y.createRelativePositionFromTypeIndex(node, node.length)) }));
            });
            const anchored = await Promise.all(selections.map((selection) => anchorOf('doc', 'document', selection)));
            const resolved = await modules.forFileType('document').resolve(context('doc'), anchored.map((one) => one.anchor));
            expect(resolved).toEqual(runs.map((run) => ({ from: run.start, to: run.start + run.text.length, quote: run.text, detached: false })));
          }),
          { numRuns: 60 },
        );
      });
    });

    describe('spreadsheet', () => {
      const sheetIds = (fileId: string) => inContent(fileId, (doc) => sheetsOf(doc).map((sheet) => String(sheet.get('id'))));

      it('anchors cells of a sheet by id or name and resolves the current name', async () => {
        await createFile('sheet', 'spreadsheet');
        const [first] = await sheetIds('sheet');
        const byName = await anchorOf('sheet', 'spreadsheet', { sheet: 'Sheet1', range: 'c4:$b$2' });
        expect(byName).toEqual({ anchor: { sheetId: first, range: 'B2:C4', edits: 0 }, title: first });
        const byId = await anchorOf('sheet', 'spreadsheet', { sheetId: first, range: 'Z1000' });
        expect(byId).toEqual({ anchor: { sheetId: first, range: 'Z1000', edits: 0 }, title: first });
        expect(await resolveOne('sheet', 'spreadsheet', byName.anchor)).toEqual({ sheetId: first, sheet: 'Sheet1', range: 'B2:C4', detached: false });

        await change('sheet', (doc) => sheetsOf(doc).get(0).set('name', 'Plan'));
        expect(await resolveOne('sheet', 'spreadsheet', byId.anchor)).toEqual({ sheetId: first, sheet: 'Plan', range: 'Z1000', detached: false });
        await change('sheet', (doc) => {
          const second = sheetsOf(doc).get(0).clone();
          second.set('id', 'second-sheet');
          sheetsOf(doc).push([second]);
          sheetsOf(doc).delete(0, 1);
        });
        expect(await resolveOne('sheet', 'spreadsheet', byId.anchor)).toEqual({ sheetId: first, sheet: null, range: 'Z1000', detached: true });
      });

      it('moves with rows and columns inserted or deleted after it was anchored, and detaches when they are all gone', async () => {
        await createFile('sheet', 'spreadsheet');
        const deleteRows = async (index: number, count: number) => {
          const response = await svc.call('DELETE', `/sdk/v2/api/files/sheet/sheets/Sheet1/rows/${index}`, { query: { count: String(count) } });
          expect(response.status, response.text).toBe(200);
        };
        // as the spreadsheet editor inserts: the cells move (not needed here) and the edit is logged in the same change
        const insert = (axis: 'rows' | 'columns', index: number, count: number) =>
          change('sheet', (doc) => recordStructureEdit(sheetsOf(doc).get(0), { kind: 'insert', axis, index, count }));
        const block = (await anchorOf('sheet', 'spreadsheet', { sheet: 'Sheet1', range: 'B3:C5' })).anchor;
        const cell = (await anchorOf('sheet', 'spreadsheet', { sheet: 'Sheet1', range: 'D10' })).anchor;
        const where = async (anchor: Record<string, unknown>) => {
          const resolved = (await resolveOne('sheet', 'spreadsheet', anchor)) as { range: string; detached: boolean };
          return `${resolved.range}${resolved.detached ? ' detached' : ''}`;
        };

        await deleteRows(0, 1); // row 1 gone: everything below moves up
        expect([await where(block), await where(cell)]).toEqual(['B2:C4', 'D9']);
        await insert('rows', 2, 3); // three rows above row 3 (inside the block): it grows
        expect([await where(block), await where(cell)]).toEqual(['B2:C7', 'D12']);
        await insert('columns', 0, 1);
        expect([await where(block), await where(cell)]).toEqual(['C2:D7', 'E12']);
        // a thread anchored now starts from here: earlier edits do not move it again
        const late = (await anchorOf('sheet', 'spreadsheet', { sheet: 'Sheet1', range: 'A1' })).anchor;
        expect(late.edits).toBe(3);
        expect(await where(late)).toBe('A1');
        await deleteRows(11, 1); // the commented cell's row
        expect([await where(block), await where(cell)]).toEqual(['C2:D7', 'D10 detached']);
        await deleteRows(0, 10);
        expect(await where(block)).toBe('B3:C5 detached');
      });

      it('refuses unknown sheets and ranges that are not cells inside the grid', async () => {
        await createFile('sheet', 'spreadsheet');
        const [first] = await sheetIds('sheet');
        await refused(anchorOf('sheet', 'spreadsheet', { sheet: 'Other', range: 'A1' }), /no sheet named "Other" in this spreadsheet \(its sheets: "Sheet1"\)/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: 'missing', range: 'A1' }), /no sheet with id "missing"/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: first, range: 'Sheet1!A1' }), /without a sheet name/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: first, range: 'AA1' }), /not inside sheet "Sheet1" \(A1:Z1000\)/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: first, range: 'B2:B1001' }), /not inside sheet/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: first, range: 'A:C' }), /not inside sheet/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: first, range: 'B2:' }), /selection.range:/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: first, sheet: 'Sheet1', range: 'A1' }), /got \{sheetId, sheet, range\}/);
        await refused(anchorOf('sheet', 'spreadsheet', { sheetId: first }), /\{sheetId, range\}/);
      });
    });

    describe('presentation', () => {
      it('anchors a slide or a box of it and detaches when they are removed', async () => {
        await createFile('deck', 'presentation');
        await change('deck', (doc) => {
          const boxes = slidesOf(doc).get(0).get('boxes') as Y.Array<Y.Map<unknown>>;
          boxes.push([newTextBox({ x: 0, y: 0, width: 10, height: 10 }, 'box-1')]);
          const second = slidesOf(doc).get(0).clone();
          second.set('id', 'slide-2');
          slidesOf(doc).push([second]);
        });
        const firstSlide = await inContent('deck', (doc) => String(slidesOf(doc).get(0).get('id')));
        const slide = await anchorOf('deck', 'presentation', { slideId: firstSlide });
        expect(slide).toEqual({ anchor: { slideId: firstSlide }, title: firstSlide });
        const box = await anchorOf('deck', 'presentation', { slideId: firstSlide, boxId: 'box-1' });
        expect(box).toEqual({ anchor: { slideId: firstSlide, boxId: 'box-1' }, title: firstSlide });
        const second = await anchorOf('deck', 'presentation', { slideId: 'slide-2' });

        const resolve = () => modules.forFileType('presentation').resolve(context('deck'), [slide.anchor, box.anchor, second.anchor]);
        expect(await resolve()).toEqual([
          { slideId: firstSlide, detached: false },
          { slideId: firstSlide, boxId: 'box-1', detached: false },
          { slideId: 'slide-2', detached: false },
        ]);
        await change('deck', (doc) => (slidesOf(doc).get(0).get('boxes') as Y.Array<unknown>).delete(0, 1));
        expect((await resolve()).map((resolved) => resolved.detached)).toEqual([false, true, false]);
        await change('deck', (doc) => slidesOf(doc).delete(0, 1));
        expect((await resolve()).map((resolved) => resolved.detached)).toEqual([true, true, false]);
      });

      it('refuses unknown slides and boxes', async () => {
        await createFile('deck', 'presentation');
        const firstSlide = await inContent('deck', (doc) => String(slidesOf(doc).get(0).get('id')));
        await refused(anchorOf('deck', 'presentation', { slideId: 'nope' }), /no slide with id "nope"/);
        await refused(anchorOf('deck', 'presentation', { slideId: firstSlide, boxId: 'nope' }), new RegExp(`slide "${firstSlide}" has no text box with id "nope"`));
        await refused(anchorOf('deck', 'presentation', { boxId: 'x' }), /presentation file is \{slideId\} or \{slideId, boxId\}/);
      });
    });

    describe('table', () => {
      const COLUMNS = [
        { name: 'Title', type: 'SingleLineText' },
        { name: 'Amount', type: 'Number', props: { precision: 2 } },
        { name: 'Tags', type: 'MultipleChoice', props: { options: [{ name: 'red' }, { name: 'blue' }] } },
        { name: 'Checked', type: 'CheckBox' },
      ];

      it('anchors a row or a cell with the cell as text, and detaches deleted rows', async () => {
        const base = await createBase(svc, 'base-1');
        const table = await createTable(svc, base, COLUMNS);
        const column = (name: string) => table.columns.find((candidate) => candidate.name === name)!.guid;
        const [full, empty] = await insertRows(svc, table.guid, [{ Title: 'Write spec', Amount: 12.5, Tags: ['red', 'blue'], Checked: true }, {}]);

        const row = await anchorOf(base, 'table', { tableGuid: table.guid, rowGuid: full!.guid });
        expect(row).toEqual({ anchor: { tableGuid: table.guid, rowGuid: full!.guid }, title: table.guid, content: 'Write spec' });
        const cell = async (rowGuid: string, name: string) => (await anchorOf(base, 'table', { tableGuid: table.guid, rowGuid, columnGuid: column(name) })).content;
        expect(await cell(full!.guid, 'Amount')).toBe('12.5');
        expect(await cell(full!.guid, 'Tags')).toBe('red, blue');
        expect(await cell(full!.guid, 'Checked')).toBe('true');
        expect(await cell(empty!.guid, 'Title')).toBe('');
        expect((await anchorOf(base, 'table', { tableGuid: table.guid, rowGuid: empty!.guid })).content).toBe('');
        const amount = await anchorOf(base, 'table', { tableGuid: table.guid, rowGuid: empty!.guid, columnGuid: column('Amount') });
        expect(amount.anchor).toEqual({ tableGuid: table.guid, rowGuid: empty!.guid, columnGuid: column('Amount') });

        const other = await createTable(svc, base, [{ name: 'Name', type: 'SingleLineText' }], { name: 'Other' });
        const [otherRow] = await insertRows(svc, other.guid, [{ Name: 'x' }]);
        const otherAnchor = (await anchorOf(base, 'table', { tableGuid: other.guid, rowGuid: otherRow!.guid })).anchor;

        const resolve = () => modules.forFileType('table').resolve(context(base), [row.anchor, amount.anchor, otherAnchor]);
        expect(await resolve()).toEqual([
          { tableGuid: table.guid, rowGuid: full!.guid, detached: false },
          { tableGuid: table.guid, rowGuid: empty!.guid, columnGuid: column('Amount'), detached: false },
          { tableGuid: other.guid, rowGuid: otherRow!.guid, detached: false },
        ]);
        const removed = await svc.call('DELETE', `${API}/tables/${table.guid}/rows/${full!.guid}`);
        expect(removed.status, removed.text).toBe(200);
        expect((await resolve()).map((resolved) => resolved.detached)).toEqual([true, false, false]);
        expect(await modules.forFileType('table').resolve(context(base), [])).toEqual([]);
      });

      it('refuses tables of another base, unknown or deleted rows and unknown columns', async () => {
        const base = await createBase(svc, 'base-1');
        const table = await createTable(svc, base, COLUMNS);
        const [row, gone] = await insertRows(svc, table.guid, [{ Title: 'a' }, { Title: 'b' }]);
        await svc.call('DELETE', `${API}/tables/${table.guid}/rows/${gone!.guid}`);
        const elsewhere = await createBase(svc, 'base-2');
        const foreign = await createTable(svc, elsewhere, COLUMNS);
        const [foreignRow] = await insertRows(svc, foreign.guid, [{ Title: 'c' }]);

        await refused(anchorOf(base, 'table', { tableGuid: foreign.guid, rowGuid: foreignRow!.guid }), new RegExp(`table ${foreign.guid} is not a table of this base`));
        await refused(anchorOf(base, 'table', { tableGuid: 'tblmissing', rowGuid: row!.guid }), /is not a table of this base/);
        await refused(anchorOf(base, 'table', { tableGuid: table.guid, rowGuid: gone!.guid }), new RegExp(`row ${gone!.guid} not found`));
        await refused(anchorOf(base, 'table', { tableGuid: table.guid, rowGuid: foreignRow!.guid }), /not found/);
        await refused(anchorOf(base, 'table', { tableGuid: table.guid, rowGuid: row!.guid, columnGuid: foreign.columns[0]!.guid }), /column .* not found in table/);
        await refused(anchorOf(base, 'table', { tableGuid: table.guid }), /table file is \{tableGuid, rowGuid\} or \{tableGuid, rowGuid, columnGuid\}/);
      });

      it('reads through the table service, which asks the integrator for readable', async () => {
        const base = await createBase(svc, 'base-1');
        const table = await createTable(svc, base, COLUMNS);
        const [row] = await insertRows(svc, table.guid, [{ Title: 'a' }]);
        svc.integrator.addUser({ id: 'stranger', name: 'Stranger', token: 'stranger-token' });
        svc.integrator.grant(base, 'stranger', { readable: false });
        const stranger: SelectionContext = { appId: svc.app.id, fileId: base, auth: { ...auth, token: 'stranger-token' } };
        await expect(modules.forFileType('table').anchor(stranger, { tableGuid: table.guid, rowGuid: row!.guid })).rejects.toMatchObject({ spec: { http: 403 } });
      });
    });
  });
}
