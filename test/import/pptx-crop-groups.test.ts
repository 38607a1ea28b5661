import fc from 'fast-check';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { toPptx } from '../../src/domain/export/converters/pptx.js';
import { sourceFromState, type SlidesSource } from '../../src/domain/export/source.js';
import { pptx } from '../../src/domain/import/formats/pptx.js';
import type { ReadBox } from '../../src/domain/import/conversion.js';
import { newImageBox, newSlide, slidesOf, type BoxFrame } from '../../src/model/content.js';
import { newShapeBox, setCrop } from '../../src/model/slides.js';
import { png } from '../attachments/images.js';
import { ooxmlProblems } from '../support/ooxml.js';

/**
 * Image crops and groups (issue 26) through the pptx exporter and back through the pptx reader, in process: a crop
 * is `a:srcRect` in thousandths of a percent, boxes sharing a group id are one `p:grpSp`, and a group read from a
 * file places its members by the group's chOff/chExt transform.
 */
const SRC = '/sdk/v2/attachments/00000000-0000-4000-8000-000000000001';
const picture = png(40, 20);

async function exported(fill: (boxes: Y.Array<Y.Map<unknown>>) => void): Promise<Uint8Array> {
  const doc = new Y.Doc();
  doc.transact(() => {
    const slide = newSlide('s1');
    slidesOf(doc).push([slide]);
    fill(slide.get('boxes') as Y.Array<Y.Map<unknown>>);
  });
  const source = sourceFromState(Y.encodeStateAsUpdate(doc), 'presentation', 'Crops') as SlidesSource;
  source.images = { [SRC]: { data: picture, mimeType: 'image/png' } };
  return toPptx(source, { step: () => undefined });
}

async function readBoxes(bytes: Uint8Array): Promise<ReadBox[]> {
  const read = await pptx.read(Buffer.from(bytes), () => undefined);
  if (read.shape !== 'slides') throw new Error('not slides');
  return read.slides[0]!.boxes;
}

const shape = (frame: BoxFrame) => newShapeBox(frame, { kind: 'rectangle', fill: '#f59f00', outline: '#1f2937', outlineWidth: 1 });
const near = (frame: BoxFrame, expected: BoxFrame) => (['x', 'y', 'width', 'height'] as const).every((key) => Math.abs(frame[key] - expected[key]) <= 1);

describe('pptx: image crops and groups', () => {
  it('writes a crop as a:srcRect and a group as p:grpSp, and reads both back', async () => {
    const bytes = await exported((boxes) => {
      const image = newImageBox({ x: 100, y: 80, width: 300, height: 200 }, { src: SRC, alt: 'chart' });
      const first = shape({ x: 500, y: 100, width: 100, height: 60 });
      const alone = shape({ x: 50, y: 400, width: 80, height: 80 });
      const second = shape({ x: 650, y: 250, width: 120, height: 90 });
      boxes.push([image, first, alone, second]);
      setCrop(image, { left: 0.125, top: 0.25, right: 0, bottom: 0.1 });
      first.set('group', 'g');
      second.set('group', 'g');
    });
    // valid against the transitional schemas, as every export is
    expect(await ooxmlProblems(bytes)).toEqual([]);
    const slideXml = await (await JSZip.loadAsync(bytes)).file('ppt/slides/slide1.xml')!.async('string');
    expect(slideXml).toContain('<a:srcRect l="12500" t="25000" r="0" b="10000"/>');
    const groups = [...slideXml.matchAll(/<p:grpSp>([\s\S]*?)<\/p:grpSp>/g)];
    expect(groups).toHaveLength(1);
    expect(groups[0]![1]!.match(/<p:sp>/g)).toHaveLength(2);
    // the group's transform is the identity over its members' bounds, (500,100)-(770,340) points (12700 EMU each;
    // pptxgenjs rounds positions to thousandths of an inch)
    const [, x, y, cx, cy, chX, chY, chCx, chCy] = /<a:xfrm><a:off x="(\d+)" y="(\d+)"\/><a:ext cx="(\d+)" cy="(\d+)"\/><a:chOff x="(\d+)" y="(\d+)"\/><a:chExt cx="(\d+)" cy="(\d+)"\/><\/a:xfrm>/.exec(groups[0]![1]!)!.map(Number);
    expect([chX, chY, chCx, chCy]).toEqual([x, y, cx, cy]);
    [500, 100, 270, 240].forEach((points, index) => expect(Math.abs([x!, y!, cx!, cy!][index]! / 12700 - points)).toBeLessThan(0.1));

    const read = await readBoxes(bytes);
    const image = read.find((box) => box.type === 'image');
    expect(image?.type === 'image' && image.crop).toEqual({ left: 0.125, top: 0.25, right: 0, bottom: 0.1 });
    expect(near(image!, { x: 100, y: 80, width: 300, height: 200 })).toBe(true);
    const shapes = read.filter((box) => box.type === 'shape');
    const grouped = shapes.filter((box) => box.group !== undefined);
    expect(grouped.map((box) => [box.x, box.y])).toEqual([
      [500, 100],
      [650, 250],
    ]);
    expect(grouped[0]!.group).toBe(grouped[1]!.group);
    expect(shapes.find((box) => box.x === 50)?.group).toBeUndefined();
  });

  it('keeps any grouped frames where they were through export and import', async () => {
    const frame = fc.record({ x: fc.integer({ min: 0, max: 860 }), y: fc.integer({ min: 0, max: 440 }), width: fc.integer({ min: 20, max: 100 }), height: fc.integer({ min: 20, max: 100 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 2, maxLength: 4 }), fc.array(frame, { minLength: 0, maxLength: 2 }), async (members, others) => {
        const bytes = await exported((boxes) => {
          const grouped = members.map(shape);
          grouped.forEach((box) => box.set('group', 'g'));
          boxes.push([...grouped, ...others.map(shape)]);
        });
        const read = await readBoxes(bytes);
        const groupIds = new Set(read.slice(0, members.length).map((box) => box.group));
        expect(groupIds.size).toBe(1);
        expect([...groupIds][0]).toEqual(expect.any(String));
        read.slice(0, members.length).forEach((box, index) => expect(near(box, members[index]!)).toBe(true));
        read.slice(members.length).forEach((box, index) => {
          expect(box.group).toBeUndefined();
          expect(near(box, others[index]!)).toBe(true);
        });
      }),
      { numRuns: 12 },
    );
  });

  it("places a file's group members by the group's chOff/chExt transform (moved and scaled)", async () => {
    const bytes = await exported((boxes) => {
      const members = [shape({ x: 100, y: 100, width: 100, height: 50 }), shape({ x: 300, y: 200, width: 50, height: 50 })];
      members.forEach((box) => box.set('group', 'g'));
      boxes.push(members);
    });
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file('ppt/slides/slide1.xml')!.async('string');
    // the group is drawn at (50, 40) points and twice the size of its children's space, (100,100)-(350,250)
    const emu = (points: number) => points * 12700;
    const moved = xml.replace(
      /(<p:grpSp>[\s\S]*?<a:xfrm>)<a:off x="\d+" y="\d+"\/><a:ext cx="\d+" cy="\d+"\/><a:chOff x="\d+" y="\d+"\/><a:chExt cx="\d+" cy="\d+"\/>/,
      `$1<a:off x="${emu(50)}" y="${emu(40)}"/><a:ext cx="${emu(500)}" cy="${emu(300)}"/><a:chOff x="${emu(100)}" y="${emu(100)}"/><a:chExt cx="${emu(250)}" cy="${emu(150)}"/>`,
    );
    expect(moved).not.toBe(xml);
    zip.file('ppt/slides/slide1.xml', moved);
    const read = await readBoxes(await zip.generateAsync({ type: 'uint8array' }));
    expect(read.map(({ x, y, width, height }) => ({ x, y, width, height }))).toEqual([
      { x: 50, y: 40, width: 200, height: 100 },
      { x: 450, y: 240, width: 100, height: 100 },
    ]);
    expect(read[0]!.group).toBe(read[1]!.group);
  });

  it('reads a crop cutting nothing, or a negative srcRect (a picture shrunk in its frame), as no crop', async () => {
    const bytes = await exported((boxes) => {
      const image = newImageBox({ x: 100, y: 80, width: 300, height: 200 }, { src: SRC, alt: 'chart' });
      boxes.push([image]);
      setCrop(image, { left: 0.1, top: 0, right: 0, bottom: 0 });
    });
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file('ppt/slides/slide1.xml')!.async('string');
    zip.file('ppt/slides/slide1.xml', xml.replace(/<a:srcRect[^>]*\/>/, '<a:srcRect l="-10000" t="0" r="0" b="0"/>'));
    const read = await readBoxes(await zip.generateAsync({ type: 'uint8array' }));
    expect(read[0]?.type === 'image' && read[0].crop).toBeUndefined();
  });
});
