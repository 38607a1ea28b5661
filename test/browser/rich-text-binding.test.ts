import { getSchema, type JSONContent } from '@tiptap/core';
import { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { updateYFragment, yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { mentionsOfContent } from '../../src/domain/content/mentions.js';
import { richTextOf } from '../../src/model/content.js';
import { plainTextOf } from '../../src/domain/content/plain-text.js';
import { bookmarksIn, parseFragment, richTextSchema, richTextToPlain, toYNodes } from '../../src/model/rich-text/schema.js';
import { countWords } from '../../src/domain/content/word-count.js';
import { modelExtensions, READING_HOST } from '../../web/rich-text/model.js';

/**
 * The editor's binding against the server's model code, headless: the schema is built from the editor's own
 * extension list (web/rich-text/model.ts: the model's extensions with the browser's node views and menus) and
 * compared with the server's (src/model/rich-text/schema.ts, from the same extensions); content goes between ProseMirror and Yjs through y-prosemirror's
 * `updateYFragment` / `yXmlFragmentToProseMirrorRootNode`, the functions the Collaboration extension's sync
 * plugin runs on every edit. The browser tests (rich-text-editing) do the same through typing.
 */
const schema = getSchema(modelExtensions(READING_HOST));

const text = (value: string, marks?: JSONContent['marks']): JSONContent => (marks ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const paragraph = (...content: JSONContent[]): JSONContent => ({ type: 'paragraph', content });
const cell = (type: 'tableCell' | 'tableHeader', value: string): JSONContent => ({ type, attrs: { colspan: 1, rowspan: 1, colwidth: null }, content: [paragraph(text(value))] });

/** A document with every node and mark of docs/CONTENT-MODEL.md. */
const EVERYTHING: JSONContent = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [text('Plan for Q3')] },
    paragraph(
      text('Ask '),
      { type: 'mention', attrs: { id: 'user-2', label: 'Bob', guid: 'mention-guid-1', mentionSuggestionChar: '@' } },
      text(' about '),
      { type: 'fileMention', attrs: { fileId: 'budget-1', fileType: 'spreadsheet', label: 'Budget 2026', fullUrl: null } },
      text(' before '),
      { type: 'dateMention', attrs: { date: '2026-12-01', guid: 'date-guid-1' } },
      { type: 'hardBreak' },
      text('bold', [{ type: 'bold' }]),
      text(' italic', [{ type: 'italic' }]),
      text(' under', [{ type: 'underline' }]),
      text(' strike', [{ type: 'strike' }]),
      text(' code', [{ type: 'code' }]),
      text(' site', [{ type: 'link', attrs: { href: 'https://example.com/a', target: '_blank', rel: null, class: null, title: null } }]),
      text(' hi', [{ type: 'highlight' }]),
      text(' red', [{ type: 'textStyle', attrs: { color: null } }]),
      text(' H', [{ type: 'subscript' }]),
      text('2', [{ type: 'superscript' }]),
      { type: 'image', attrs: { src: '/sdk/v2/attachments/img-1', alt: 'chart', title: null, width: null, height: null } },
    ),
    { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('first'))] }, { type: 'listItem', content: [paragraph(text('second'))] }] },
    { type: 'orderedList', attrs: { start: 3, type: null }, content: [{ type: 'listItem', content: [paragraph(text('third'))] }] },
    { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [paragraph(text('done'))] }] },
    { type: 'blockquote', content: [paragraph(text('quoted'))] },
    { type: 'codeBlock', attrs: { language: 'ts' }, content: [text('const x = 1;')] },
    {
      type: 'table',
      content: [
        { type: 'tableRow', content: [cell('tableHeader', 'Name'), cell('tableHeader', 'Score')] },
        { type: 'tableRow', content: [cell('tableCell', 'Ann'), cell('tableCell', '9')] },
      ],
    },
    { type: 'horizontalRule' },
    { type: 'pageBreak' },
    { type: 'callout', content: [paragraph(text('Mind the gap.'))] },
    { type: 'bookmark', attrs: { name: 'conclusion' }, content: [paragraph(text('The end.'))] },
  ],
};

const EXPECTED_PLAIN = [
  'Plan for Q3',
  'Ask @Bob about Budget 2026 before 2026-12-01',
  'bold italic under strike code site hi red H2',
  'first',
  'second',
  'third',
  'done',
  'quoted',
  'const x = 1;',
  'Name\tScore',
  'Ann\t9',
  '\f',
  'Mind the gap.',
  'The end.',
].join('\n');

/** What the editor's sync plugin writes for a ProseMirror document. */
function writtenByEditor(json: JSONContent): Y.Doc {
  const doc = new Y.Doc();
  const node = ProseMirrorNode.fromJSON(schema, json);
  node.check();
  updateYFragment(doc, richTextOf(doc), node, { mapping: new Map(), isOMark: new Map() });
  return doc;
}

/** What the editor shows for a Yjs document. */
function readByEditor(doc: Y.Doc): ProseMirrorNode {
  const node = yXmlFragmentToProseMirrorRootNode(richTextOf(doc), schema);
  node.check();
  return node;
}

describe('rich-text binding: the editor and the server read the same model', () => {
  it('the editor and the server build one schema from the same extensions', () => {
    const spec = (from: typeof schema) => ({
      nodes: Object.fromEntries(Object.entries(from.nodes).map(([name, type]) => [name, { content: type.spec.content, group: type.spec.group, inline: type.isInline, attrs: Object.keys(type.spec.attrs ?? {}) }])),
      marks: Object.fromEntries(Object.entries(from.marks).map(([name, type]) => [name, Object.keys(type.spec.attrs ?? {})])),
    });
    expect(spec(schema)).toEqual(spec(richTextSchema));
    // every node and mark of EVERYTHING is known to both
    const used = new Set<string>();
    const walk = (node: JSONContent) => {
      used.add(node.type!);
      for (const mark of node.marks ?? []) used.add(mark.type);
      for (const child of node.content ?? []) walk(child);
    };
    walk(EVERYTHING);
    for (const name of used) expect(richTextSchema.nodes[name] ?? richTextSchema.marks[name], name).toBeDefined();
    for (const name of ['mention', 'fileMention', 'dateMention', 'hardBreak', 'image']) expect(schema.nodes[name]!.isInline, name).toBe(true);
    expect(schema.nodes.bookmark!.spec.content).toBe('block+');
    expect(schema.nodes.pageBreak!.isBlock && schema.nodes.pageBreak!.isLeaf).toBe(true);
    // a paragraph stays the block the editor makes by default (the page break's priority must not change it)
    expect(schema.topNodeType.contentMatch.defaultType?.name).toBe('paragraph');
  });

  it('what the editor writes, the server reads: plain text, word count, mentions, bookmarks', () => {
    const doc = writtenByEditor(EVERYTHING);
    expect(plainTextOf(doc, 'document')).toBe(EXPECTED_PLAIN);
    expect(countWords(plainTextOf(doc, 'document'))).toBe(countWords(EXPECTED_PLAIN));
    expect(mentionsOfContent(doc, 'document').map(({ userId, atGuid }) => ({ userId, atGuid }))).toEqual([{ userId: 'user-2', atGuid: 'mention-guid-1' }]);
    const bookmarks = bookmarksIn(richTextOf(doc));
    expect([...bookmarks.keys()]).toEqual(['conclusion']);
    expect(richTextToPlain(bookmarks.get('conclusion')!)).toBe('The end.');
    // attribute names as the model's readers look them up
    const body = richTextOf(doc).get(1) as Y.XmlElement;
    const [mention, fileMention, dateMention] = body.toArray().filter((child): child is Y.XmlElement => child instanceof Y.XmlElement);
    expect(mention!.getAttributes()).toMatchObject({ id: 'user-2', label: 'Bob', guid: 'mention-guid-1' });
    expect(fileMention!.getAttributes()).toMatchObject({ fileId: 'budget-1', fileType: 'spreadsheet', label: 'Budget 2026' });
    expect(dateMention!.getAttributes()).toMatchObject({ date: '2026-12-01', guid: 'date-guid-1' });
    const runs = (body.toArray().find((child) => child instanceof Y.XmlText && child.toString().includes('site')) as Y.XmlText).toDelta() as Array<{ insert: string; attributes?: Record<string, unknown> }>;
    expect(runs.find((run) => run.insert === ' site')!.attributes).toMatchObject({ link: { href: 'https://example.com/a', target: '_blank' } });
    expect(runs.find((run) => run.insert === 'bold')!.attributes).toEqual({ bold: {} });
  });

  it('what the server writes (ProseMirror JSON through the bookmark API), the editor shows unchanged', () => {
    const doc = new Y.Doc();
    doc.transact(() => richTextOf(doc).insert(0, toYNodes(parseFragment(EVERYTHING))));
    const shown = readByEditor(doc);
    expect(shown.eq(ProseMirrorNode.fromJSON(schema, EVERYTHING))).toBe(true);
    // and the editor writing it back changes nothing the server reads
    expect(plainTextOf(writtenByEditor(shown.toJSON() as JSONContent), 'document')).toBe(plainTextOf(doc, 'document'));
  });

  it('a round trip through the editor keeps every node and attribute', () => {
    const shown = readByEditor(writtenByEditor(EVERYTHING));
    expect(shown.toJSON()).toEqual(ProseMirrorNode.fromJSON(schema, EVERYTHING).toJSON());
  });
});
