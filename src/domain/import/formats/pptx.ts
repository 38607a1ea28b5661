import path from 'node:path';
import { parse } from 'pptxtojson/dist/index.js';
import { sniffImage } from '../../attachments/sniff.js';
import { SLIDE_HEIGHT, SLIDE_WIDTH } from '../../../model/content.js';
import { ConversionError, type ExtractedImage, type FormatReader, type ReadBox, type ReadSlide } from '../conversion.js';
import { htmlToBlocks } from './rich-text-html.js';

/** The part of pptxtojson's elements this reader uses. */
interface Positioned {
  type: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** text and shapes: their text as HTML */
  content?: string;
  /** groups: their members, positioned relative to the group */
  elements?: Positioned[];
  /** pictures: the media part's path in the package and its bytes as a data: URL */
  ref?: string;
  base64?: string;
}

/** Text-bearing elements and pictures of a slide in drawing order, groups flattened to slide coordinates. */
function drawnElements(elements: readonly Positioned[], dx = 0, dy = 0): Positioned[] {
  return elements.flatMap((element) => {
    if (element.type === 'group' && element.elements) return drawnElements(element.elements, dx + element.left, dy + element.top);
    const hasText = (element.type === 'text' || element.type === 'shape') && typeof element.content === 'string' && element.content.trim() !== '';
    const isPicture = element.type === 'image' && typeof element.base64 === 'string';
    return hasText || isPicture ? [{ ...element, left: element.left + dx, top: element.top + dy }] : [];
  });
}

/**
 * The pictures of a presentation, each image once however many slides show it (by its bytes: writers such as
 * pptxgenjs store a copy per slide): only PNG, JPEG, GIF and
 * WebP (recognised from their bytes, as uploads are) become attachments; other formats (EMF, WMF, TIFF, SVG)
 * have no box, since browsers could not show them and an SVG can carry script.
 */
class Pictures {
  readonly images: ExtractedImage[] = [];
  private readonly byDataUrl = new Map<string, ExtractedImage | undefined>();

  /** The attachment a picture element shows, undefined when its image is not kept. */
  of(element: Positioned): ExtractedImage | undefined {
    const dataUrl = element.base64!;
    if (this.byDataUrl.has(dataUrl)) return this.byDataUrl.get(dataUrl);
    const match = /^data:[^;,]*;base64,(.*)$/s.exec(dataUrl);
    const data = match ? Buffer.from(match[1]!, 'base64') : undefined;
    const sniffed = data ? sniffImage(data) : undefined;
    let image: ExtractedImage | undefined;
    if (data && sniffed) {
      const name = path.posix.basename(element.ref ?? '').replace(/\.[^.]*$/, '') || `image-${this.images.length + 1}`;
      image = { guid: crypto.randomUUID(), data, filename: `${name}.${sniffed.mimeType.split('/')[1]}` };
      this.images.push(image);
    }
    this.byDataUrl.set(dataUrl, image);
    return image;
  }
}

/**
 * PowerPoint (pptx) through pptxtojson: each slide's text boxes (text elements and shapes with text) and
 * pictures with their position and size, scaled from the file's slide size to the model's 960 × 540 stage, in
 * drawing order. Text keeps its formatting; pictures become image attachments of the new file, their file name
 * the box's text alternative (pptxtojson does not read a picture's description). Cropping, rotation and flips
 * of pictures are not kept: the whole picture fills its box.
 */
export const pptx: FormatReader = {
  zip: true,
  async read(bytes, report) {
    let parsed: Awaited<ReturnType<typeof parse>>;
    try {
      parsed = await parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, { imageMode: 'base64', videoMode: 'none', audioMode: 'none' });
    } catch (error) {
      throw new ConversionError('importCorrupt', `the file is not a readable pptx presentation (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`);
    }
    report(0.5);
    const scaleX = SLIDE_WIDTH / (parsed.size.width || SLIDE_WIDTH);
    const scaleY = SLIDE_HEIGHT / (parsed.size.height || SLIDE_HEIGHT);
    const pictures = new Pictures();
    const slides: ReadSlide[] = parsed.slides.map((slide, index) => {
      report(0.5 + (0.5 * index) / Math.max(1, parsed.slides.length));
      return {
        boxes: drawnElements(slide.elements as unknown as Positioned[]).flatMap((element): ReadBox[] => {
          const frame = {
            x: Math.round(element.left * scaleX),
            y: Math.round(element.top * scaleY),
            width: Math.round(element.width * scaleX),
            height: Math.round(element.height * scaleY),
          };
          if (element.type === 'image') {
            const image = pictures.of(element);
            return image ? [{ ...frame, type: 'image', guid: image.guid, alt: image.filename }] : [];
          }
          // pptxtojson spells every space of a run as &nbsp;
          return [{ ...frame, type: 'text', blocks: htmlToBlocks((element.content ?? '').replace(/&nbsp;|\u00a0/g, ' ')) }];
        }),
      };
    });
    report(1);
    return { shape: 'slides', slides, images: pictures.images };
  },
};
