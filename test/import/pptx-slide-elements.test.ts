import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { toPptx } from '../../src/domain/export/converters/pptx.js';
import { sourceFromState } from '../../src/domain/export/source.js';
import { pptx } from '../../src/domain/import/formats/pptx.js';
import { newSlide, slidesOf } from '../../src/model/content.js';
import { toYNodes } from '../../src/model/rich-text/schema.js';
import { newLayoutSlide, newShapeBox, notesOf, placeholderBoxes, setTextStyle } from '../../src/model/slides.js';

/**
 * The presentation elements of issue 26 through the pptx exporter and back through the pptx reader, in process:
 * layouts' placeholders (by PowerPoint's names), theme backgrounds and fonts, a text box's own font, size, colour
 * and alignment, shapes with fill and outline, speaker notes and slide transitions.
 */
describe('pptx: layouts, themes, text styles, shapes and notes', () => {
  let ids = 0;
  const newId = () => `id-${++ids}`;

  function deck(): Uint8Array {
    const doc = new Y.Doc();
    doc.transact(() => {
      const title = newLayoutSlide('title-slide', 'title', 'ocean', newId);
      const plain = newSlide('plain-slide');
      // the same placeholders as the title slide's, elsewhere: one layout for both, each box at its own place
      const section = newLayoutSlide('section-slide', 'section', 'plain', newId);
      slidesOf(doc).push([title, plain, section]);
      (((section.get('boxes') as Y.Array<Y.Map<unknown>>).get(0)).get('content') as Y.XmlFragment).insert(0, toYNodes([{ type: 'paragraph', content: [{ type: 'text', text: 'Part two' }] }]));
      const titleBox = (title.get('boxes') as Y.Array<Y.Map<unknown>>).get(0);
      (titleBox.get('content') as Y.XmlFragment).insert(0, toYNodes([{ type: 'paragraph', content: [{ type: 'text', text: 'Quarterly review' }] }]));
      setTextStyle(titleBox, 'fontFamily', 'Georgia');
      setTextStyle(titleBox, 'color', '#c92a2a');
      setTextStyle(titleBox, 'align', 'center');
      notesOf(title)!.insert(0, 'Greet the room first.');
      plain.set('transition', 'push');
      const boxes = plain.get('boxes') as Y.Array<Y.Map<unknown>>;
      boxes.push(placeholderBoxes('titleContent', newId));
      boxes.push([
        newShapeBox({ x: 100, y: 300, width: 200, height: 100 }, { kind: 'ellipse', fill: '#f59f00', outline: '#1f2937', outlineWidth: 2 }, newId()),
        newShapeBox({ x: 400, y: 300, width: 200, height: 80 }, { kind: 'arrow', outline: '#087e8b', outlineWidth: 3 }, newId()),
        newShapeBox({ x: 700, y: 300, width: 100, height: 100 }, { kind: 'rectangle', fill: '#ffffff', outline: '#000000', outlineWidth: 1 }, newId()),
      ]);
    });
    return Y.encodeStateAsUpdate(doc);
  }

  it('writes them to the pptx and reads them back', async () => {
    const source = sourceFromState(deck(), 'presentation', 'Review');
    const bytes = await toPptx(source as Extract<typeof source, { kind: 'slides' }>, { step: () => undefined });

    const zip = await JSZip.loadAsync(bytes);
    const first = await zip.file('ppt/slides/slide1.xml')!.async('string');
    expect(first).toContain('name="Title 1"');
    expect(first).toContain('typeface="Georgia"');
    expect(first).toContain('<a:srgbClr val="C92A2A"');
    expect(first).toContain('algn="ctr"');
    expect(first).toContain('<a:srgbClr val="EAF4FB"');
    const second = await zip.file('ppt/slides/slide2.xml')!.async('string');
    expect(second).toContain('prst="ellipse"');
    // after the colour map, where the schema has it (the XSD check of every export validates the order)
    expect(second).toMatch(/<\/p:clrMapOvr><p:transition spd="med"><p:push\/><\/p:transition>/);
    expect(first).not.toContain('<p:transition');
    expect(second).toContain('<a:tailEnd type="triangle"');
    const notes = Object.keys(zip.files).filter((name) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(name));
    expect(await Promise.all(notes.map((name) => zip.file(name)!.async('string')))).toEqual(expect.arrayContaining([expect.stringContaining('Greet the room first.')]));

    // placeholders are PowerPoint's own (p:ph), of a layout that has them: one layout per sequence of placeholders
    const placeholderTypes = (xml: string) => [...xml.matchAll(/<p:ph\b[^>]*?\btype="(\w+)"/g)].map((match) => match[1]);
    expect(placeholderTypes(first)).toEqual(['title', 'body']);
    expect(placeholderTypes(second)).toEqual(['title', 'body']);
    const layoutOf = async (slide: number) => {
      const rels = await zip.file(`ppt/slides/_rels/slide${slide}.xml.rels`)!.async('string');
      const target = /Target="\.\.\/slideLayouts\/(slideLayout\d+\.xml)"/.exec(rels)![1]!;
      return zip.file(`ppt/slideLayouts/${target}`)!.async('string');
    };
    const titleLayout = await layoutOf(1);
    expect(titleLayout).toContain('<p:cSld name="Title, Subtitle">');
    expect(placeholderTypes(titleLayout)).toEqual(['title', 'body']);
    expect(await layoutOf(3)).toBe(titleLayout);
    expect(await layoutOf(2)).toContain('<p:cSld name="Title, Body">');

    const read = await pptx.read(Buffer.from(bytes), () => undefined);
    if (read.shape !== 'slides') throw new Error('not slides');
    const [titleSlide, plainSlide, sectionSlide] = read.slides;
    const frameOf = (box: { x: number; y: number; width: number; height: number }) => [box.x, box.y, box.width, box.height].map(Math.round);
    expect(sectionSlide!.boxes.map(frameOf)).toEqual([
      [60, 200, 840, 100],
      [60, 310, 840, 60],
    ]);
    expect(titleSlide!.boxes.map(frameOf)[0]).toEqual([60, 150, 840, 120]);
    expect(titleSlide!.theme).toBe('ocean');
    expect(titleSlide!.notes).toBe('Greet the room first.');
    expect(titleSlide!.boxes.map((box) => (box.type === 'text' ? box.placeholder : box.type))).toEqual(['title', 'subtitle']);
    expect(plainSlide!.theme).toBeUndefined();
    expect(titleSlide!.transition).toBeUndefined();
    expect(plainSlide!.transition).toBe('push');
    expect(plainSlide!.boxes.map((box) => (box.type === 'text' ? box.placeholder : box.type))).toEqual(['title', 'body', 'shape', 'shape', 'shape']);
    const shapes = plainSlide!.boxes.flatMap((box) => (box.type === 'shape' ? [box.look] : []));
    expect(shapes).toEqual([
      { kind: 'ellipse', fill: '#f59f00', outline: '#1f2937', outlineWidth: 2 },
      { kind: 'arrow', outline: '#087e8b', outlineWidth: 3 },
      { kind: 'rectangle', fill: '#ffffff', outline: '#000000', outlineWidth: 1 },
    ]);
    const ellipse = plainSlide!.boxes[2]!;
    expect([ellipse.x, ellipse.y, ellipse.width, ellipse.height]).toEqual([100, 300, 200, 100]);
  });
});
