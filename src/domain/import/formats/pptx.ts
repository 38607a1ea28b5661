import { parse } from 'pptxtojson/dist/index.js';
import { SLIDE_HEIGHT, SLIDE_WIDTH } from '../../content/model.js';
import { ConversionError, type FormatReader, type ReadSlide } from '../conversion.js';
import { htmlToBlocks } from './rich-text-html.js';

interface Positioned {
  type: string;
  left: number;
  top: number;
  width: number;
  height: number;
  content?: string;
  elements?: Positioned[];
}

/** Text-bearing elements of a slide, groups flattened (their children are positioned relative to the group). */
function textElements(elements: readonly Positioned[], dx = 0, dy = 0): Positioned[] {
  return elements.flatMap((element) => {
    if (element.type === 'group' && element.elements) return textElements(element.elements, dx + element.left, dy + element.top);
    if ((element.type === 'text' || element.type === 'shape') && typeof element.content === 'string' && element.content.trim() !== '') {
      return [{ ...element, left: element.left + dx, top: element.top + dy }];
    }
    return [];
  });
}

/**
 * PowerPoint (pptx) through pptxtojson: each slide's text boxes (text elements and shapes with text) with their
 * position and size, scaled from the file's slide size to the model's 960 × 540 stage, and their formatted text.
 */
export const pptx: FormatReader = {
  zip: true,
  async read(bytes, report) {
    let parsed: Awaited<ReturnType<typeof parse>>;
    try {
      parsed = await parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, { imageMode: 'none', videoMode: 'none', audioMode: 'none' });
    } catch (error) {
      throw new ConversionError('importCorrupt', `the file is not a readable pptx presentation (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
    }
    report(0.5);
    const scaleX = SLIDE_WIDTH / (parsed.size.width || SLIDE_WIDTH);
    const scaleY = SLIDE_HEIGHT / (parsed.size.height || SLIDE_HEIGHT);
    const slides: ReadSlide[] = parsed.slides.map((slide, index) => {
      report(0.5 + (0.5 * index) / Math.max(1, parsed.slides.length));
      return {
        boxes: textElements(slide.elements as unknown as Positioned[]).map((element) => ({
          x: Math.round(element.left * scaleX),
          y: Math.round(element.top * scaleY),
          width: Math.round(element.width * scaleX),
          height: Math.round(element.height * scaleY),
          // pptxtojson spells every space of a run as &nbsp;
          blocks: htmlToBlocks((element.content ?? '').replace(/&nbsp;|\u00a0/g, ' ')),
        })),
      };
    });
    report(1);
    return { shape: 'slides', slides, images: [] };
  },
};
