import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentText, labelContent, MAX_CONTENT_MENTIONS, parseContent, type ContentInputValue } from '../../src/domain/conversations/content.js';
import { ApiError, Errors } from '../../src/errors.js';

const userId = fc.constantFrom('user-1', 'user-2', 'user-3', '__proto__', 'u-ä');
const node = fc.oneof(
  fc.string({ maxLength: 20 }).map((text) => ({ type: 'text', text })),
  userId.map((id) => ({ type: 'mention', attrs: { id } })),
  fc.tuple(userId, fc.constantFrom('g-1', 'g-2')).map(([id, guid]) => ({ type: 'mention', attrs: { id, guid } })),
  fc.constant({ type: 'hardBreak' }),
);

describe('conversation content', () => {
  it('valid inline nodes parse: mentions once each in order, guids unique, text form as written', () => {
    fc.assert(
      fc.property(fc.array(node, { maxLength: 40 }), (nodes) => {
        const mentions = nodes.filter((n) => n.type === 'mention');
        const hasText = nodes.some((n) => n.type === 'text' && (n as { text: string }).text.trim().length > 0);
        if (mentions.length > MAX_CONTENT_MENTIONS || (!hasText && mentions.length === 0)) {
          expect(() => parseContent(nodes as ContentInputValue)).toThrow(ApiError);
          return;
        }
        const parsed = parseContent(nodes as ContentInputValue);
        const ids = mentions.map((n) => (n as { attrs: { id: string } }).attrs.id);
        expect(parsed.mentioned).toEqual([...new Set(ids)]);
        const guids = parsed.nodes.flatMap((n) => (n.type === 'mention' ? [n.attrs.guid] : []));
        expect(new Set(guids).size).toBe(guids.length);
        const labelled = labelContent(parsed, (id) => `Name ${id}`);
        const expected = nodes
          .map((n) => (n.type === 'text' ? (n as { text: string }).text : n.type === 'hardBreak' ? '\n' : `@Name ${(n as { attrs: { id: string } }).attrs.id}`))
          .join('');
        expect(labelled.text).toBe(expected);
        expect(contentText(labelled.nodes)).toBe(expected);
      }),
    );
  });

  it('anything else is refused with 74000, never another error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.anything(), { maxLength: 10 })), (input) => {
        try {
          parseContent(input as ContentInputValue);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).spec).toBe(Errors.invalidConversationParams);
        }
      }),
    );
  });
});
