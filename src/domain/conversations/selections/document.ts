import { Type } from '@sinclair/typebox';
import * as Y from 'yjs';
import type { ContentService } from '../../content/content-service.js';
import type { ResolvedSelection, SelectionModule } from './selection-module.js';
import { RichTextPositions, type AnchoredEnd } from './rich-text-positions.js';
import { defineSelectionModule, selectionNotFound, withContent } from './shared.js';

const RelativePositionText = (description: string) =>
  Type.String({ minLength: 1, maxLength: 4096, pattern: '^[A-Za-z0-9+/_-]+={0,2}$', description });

export const DocumentSelectionSchema = Type.Union(
  [
    Type.Object(
      {
        from: Type.Integer({ minimum: 0, description: 'ProseMirror position where the commented text starts, as y-prosemirror counts it over the document' }),
        to: Type.Integer({ minimum: 1, description: 'ProseMirror position where it ends (after the last commented character); greater than `from`' }),
      },
      { additionalProperties: false, description: 'a range of the document by positions' },
    ),
    Type.Object(
      {
        start: RelativePositionText("base64 of `Y.encodeRelativePosition` of the range's start, as y-prosemirror's absolutePositionToRelativePosition gives it"),
        end: RelativePositionText("base64 of `Y.encodeRelativePosition` of the range's end"),
      },
      { additionalProperties: false, description: 'a range of the document by Yjs relative positions' },
    ),
  ],
  { title: 'DocumentSelection', description: 'document, documentPro: the commented text, by ProseMirror positions or by Yjs relative positions' },
);

const EncodedEnd = Type.Object({
  position: Type.String({ description: 'base64 Yjs relative position' }),
  outer: Type.Array(Type.String(), { description: 'coarser relative positions, innermost first, used when the position was garbage collected' }),
});
const DocumentAnchor = Type.Object({ start: EncodedEnd, end: EncodedEnd });

/** What a document selection answers when listed. */
export interface ResolvedDocumentSelection extends ResolvedSelection {
  from: number;
  to: number;
  /** the text now between `from` and `to` */
  quote: string;
}

function encode(position: Y.RelativePosition): string {
  return Buffer.from(Y.encodeRelativePosition(position)).toString('base64');
}

function decode(text: string): Y.RelativePosition | undefined {
  try {
    return Y.decodeRelativePosition(new Uint8Array(Buffer.from(text, 'base64')));
  } catch {
    return undefined;
  }
}

/** The position an anchored end names now: the first of its positions that still resolves. */
function positionOfEnd(positions: RichTextPositions, end: { position: string; outer: string[] }): number | undefined {
  for (const text of [end.position, ...end.outer]) {
    const relative = decode(text);
    const pos = relative && positions.positionOf(relative);
    if (pos !== undefined) return pos;
  }
  return undefined;
}

function encodeEnd(end: AnchoredEnd): { position: string; outer: string[] } {
  return { position: encode(end.position), outer: end.outer.map(encode) };
}

/** Comments on a range of text of a document or documentPro: the range follows edits made before and inside it. */
export function documentSelections(content: ContentService): SelectionModule {
  return defineSelectionModule({
    name: 'document',
    fileTypes: ['document', 'documentPro'],
    schema: DocumentSelectionSchema,
    expected: '{from, to} (ProseMirror positions, from < to) or {start, end} (base64 Yjs relative positions)',
    anchorSchema: DocumentAnchor,
    anchor: (context, input) =>
      withContent(content, context, (doc) => {
        const positions = new RichTextPositions(doc);
        const size = positions.size;
        let from: number;
        let to: number;
        if ('from' in input) {
          ({ from, to } = input);
          if (from >= to) throw selectionNotFound(`selection.from (${from}) must be less than selection.to (${to})`);
          if (to > size) throw selectionNotFound(`selection.to (${to}) is past the end of the document (its size is ${size})`);
        } else {
          const resolve = (text: string, which: string) => {
            const relative = decode(text);
            const pos = relative && positions.positionOf(relative);
            if (pos === undefined) throw selectionNotFound(`selection.${which} is not a relative position in this document's text`);
            return pos;
          };
          from = resolve(input.start, 'start');
          to = resolve(input.end, 'end');
          if (from >= to) throw selectionNotFound(`selection.start (position ${from}) must come before selection.end (position ${to})`);
        }
        if (!positions.textBetween(from, to).coversText) throw selectionNotFound(`positions ${from}-${to} cover no text of the document`);
        const anchored = positions.anchor(from, to);
        return { anchor: { start: encodeEnd(anchored.start), end: encodeEnd(anchored.end) } };
      }),
    resolve: async (context, anchors) => {
      if (anchors.length === 0) return [];
      return withContent(content, context, (doc) => {
        const positions = new RichTextPositions(doc);
        return anchors.map((anchor): ResolvedDocumentSelection => {
          const from = positionOfEnd(positions, anchor.start);
          const to = positionOfEnd(positions, anchor.end);
          // Neither end resolving, or the ends crossing (blocks moved past each other), leaves nothing commented.
          if (from === undefined || to === undefined || to <= from) {
            const at = from ?? to ?? 0;
            return { from: at, to: at, quote: '', detached: true };
          }
          const { text, coversText } = positions.textBetween(from, to);
          return { from, to, quote: text, detached: !coversText };
        });
      });
    },
  });
}
