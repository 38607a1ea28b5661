import { Type } from '@sinclair/typebox';
import * as Y from 'yjs';
import type { ContentService } from '../../content/content-service.js';
import { slideMaps } from '../../../model/content.js';
import type { ResolvedSelection, SelectionModule } from './selection-module.js';
import { defineSelectionModule, selectionNotFound, withContent } from './shared.js';

export const PresentationSelectionSchema = Type.Object(
  {
    slideId: Type.String({ minLength: 1, maxLength: 128, description: 'the commented slide' }),
    boxId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'a text box of that slide, when the comment is about the box' })),
  },
  { additionalProperties: false, title: 'PresentationSelection', description: 'presentation: a slide, or a text box of it' },
);

const PresentationAnchor = Type.Object({ slideId: Type.String(), boxId: Type.Optional(Type.String()) });

/** What a presentation selection answers when listed. */
export interface ResolvedPresentationSelection extends ResolvedSelection {
  slideId: string;
  boxId?: string;
}

/** Each slide's id with the ids of its text boxes. */
function slideBoxes(doc: Y.Doc): Map<string, Set<string>> {
  const slides = new Map<string, Set<string>>();
  for (const slide of slideMaps(doc)) {
    const id = slide.get('id');
    if (typeof id !== 'string') continue;
    const boxes = slide.get('boxes');
    const boxIds = boxes instanceof Y.Array ? boxes.toArray().flatMap((box: unknown) => (box instanceof Y.Map && typeof box.get('id') === 'string' ? [box.get('id') as string] : [])) : [];
    slides.set(id, new Set(boxIds));
  }
  return slides;
}

/** Comments on a slide or one of its text boxes. */
export function presentationSelections(content: ContentService): SelectionModule {
  return defineSelectionModule({
    name: 'presentation',
    fileTypes: ['presentation'],
    schema: PresentationSelectionSchema,
    expected: '{slideId} or {slideId, boxId}',
    anchorSchema: PresentationAnchor,
    anchor: (context, input) =>
      withContent(content, context, (doc) => {
        const boxes = slideBoxes(doc).get(input.slideId);
        if (!boxes) throw selectionNotFound(`no slide with id "${input.slideId}" in this presentation`);
        if (input.boxId !== undefined && !boxes.has(input.boxId)) throw selectionNotFound(`slide "${input.slideId}" has no text box with id "${input.boxId}"`);
        const anchor = input.boxId === undefined ? { slideId: input.slideId } : { slideId: input.slideId, boxId: input.boxId };
        return { anchor, title: input.slideId };
      }),
    resolve: async (context, anchors) => {
      if (anchors.length === 0) return [];
      const slides = await withContent(content, context, slideBoxes);
      return anchors.map((anchor): ResolvedPresentationSelection => {
        const boxes = slides.get(anchor.slideId);
        const detached = !boxes || (anchor.boxId !== undefined && !boxes.has(anchor.boxId));
        return anchor.boxId === undefined ? { slideId: anchor.slideId, detached } : { slideId: anchor.slideId, boxId: anchor.boxId, detached };
      });
    },
  });
}
