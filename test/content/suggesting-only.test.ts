import { suggestChanges, transformToSuggestionTransaction } from '@handlewithcare/prosemirror-suggest-changes';
import { EditorState } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { schemaNodeOf } from '../../src/model/rich-text/schema.js';
import { suggestingOnlyRefusal, withSuggestionsRejected } from '../../src/model/rich-text/suggesting-only.js';
import type { ProseMirrorNode } from '../../src/model/rich-text/node-json.js';

const mark = (type: string, id: string, author: string) => ({ type, attrs: { id, author, authorName: author, date: '2026-11-27T10:00:00Z' } });
const body = (...runs: ProseMirrorNode[]) => schemaNodeOf([{ type: 'paragraph', content: runs }]);
const text = (value: string, ...marks: Array<ReturnType<typeof mark>>): ProseMirrorNode => (marks.length ? { type: 'text', text: value, marks } : { type: 'text', text: value });

describe('what a user who may only suggest may change', () => {
  const plain = body(text('Hello world'));

  it('rejecting every suggestion gives the body without them', () => {
    const suggested = body(text('Hello '), text('big ', mark('insertion', 'a', 'bob')), text('world', mark('deletion', 'b', 'bob')));
    expect(withSuggestionsRejected(suggested).eq(plain)).toBe(true);
  });

  it('accepts their own insertions and deletions', () => {
    expect(suggestingOnlyRefusal(plain, body(text('Hello '), text('big ', mark('insertion', 'a', 'bob')), text('world')), 'bob')).toBeUndefined();
    expect(suggestingOnlyRefusal(plain, body(text('Hello '), text('world', mark('deletion', 'b', 'bob'))), 'bob')).toBeUndefined();
  });

  it('refuses a direct edit, a suggestion in another name, and changing another user\'s suggestion', () => {
    expect(suggestingOnlyRefusal(plain, body(text('Hello there')), 'bob')).toBe('edit');
    expect(suggestingOnlyRefusal(plain, body(text('Hello '), text('big ', mark('insertion', 'a', 'alice')), text('world')), 'bob')).toBe('author');
    const alices = body(text('Hello '), text('big ', mark('insertion', 'a', 'alice')), text('world'));
    // taking Alice's insertion out (rejecting it) or accepting it are an editor's decisions
    expect(suggestingOnlyRefusal(alices, plain, 'bob')).toBe('others');
    expect(suggestingOnlyRefusal(alices, body(text('Hello big world')), 'bob')).toBe('edit');
    // Alice may take back her own
    expect(suggestingOnlyRefusal(alices, plain, 'alice')).toBeUndefined();
  });

  it('takes formatting as a suggestion: the library proposes the formatted text in place of the plain one', () => {
    const state = EditorState.create({ doc: plain, plugins: [suggestChanges()] });
    const bold = state.schema.marks.bold!.create();
    const formatted = transformToSuggestionTransaction(state.tr.addMark(1, 6, bold), state, () => 'f1');
    const marksOf = (kind: string) => {
      const found: string[] = [];
      formatted.doc.descendants((node) => {
        if (node.isText && node.marks.some((mark) => mark.type.name === kind)) found.push(`${node.text}${node.marks.some((mark) => mark.type.name === 'bold') ? ' (bold)' : ''}`);
      });
      return found;
    };
    expect(marksOf('insertion')).toEqual(['Hello (bold)']);
    expect(marksOf('deletion')).toEqual(['Hello']);
    // once its author is stamped (the editor's stamp plugin), it is what a commenter may send
    const stamped = formatted.doc.type.create(null, formatted.doc.content);
    let withAuthor = EditorState.create({ doc: stamped }).tr;
    stamped.descendants((node, pos) => {
      for (const mark of node.marks) if (mark.type.name === 'insertion' || mark.type.name === 'deletion') withAuthor = withAuthor.addMark(pos, pos + node.nodeSize, mark.type.create({ ...mark.attrs, author: 'bob' }));
    });
    expect(suggestingOnlyRefusal(plain, withAuthor.doc, 'bob')).toBeUndefined();
  });
});
