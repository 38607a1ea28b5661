import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { newImageBox } from '../../src/model/content.js';
import { boundsOf, cropOf, cropPlacement, croppedTo, cropProblem, MIN_CROP_REMAINDER, setCrop, uncroppedFrame, type ImageCrop } from '../../src/model/slides.js';

/** A valid crop: each side in 0..<1, at least MIN_CROP_REMAINDER of each dimension left. */
const side = fc.double({ min: 0, max: 0.98, noNaN: true });
const validCrop = fc.tuple(side, side, side, side).map(([left, top, right, bottom]): ImageCrop => {
  const fit = (a: number, b: number) => (a + b <= 1 - MIN_CROP_REMAINDER ? [a, b] : [a / 2, b / 2]);
  const [l, r] = fit(left, right);
  const [t, b] = fit(top, bottom);
  return { left: l!, top: t!, right: r!, bottom: b! };
});
const frame = fc.record({ x: fc.double({ min: -500, max: 900, noNaN: true }), y: fc.double({ min: -500, max: 500, noNaN: true }), width: fc.double({ min: 1, max: 2000, noNaN: true }), height: fc.double({ min: 1, max: 2000, noNaN: true }) });
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

describe('image crop in the slide model', () => {
  it('accepts every crop that leaves some of the picture, and stores and reads it back as it was', () => {
    fc.assert(
      fc.property(validCrop, (crop) => {
        expect(cropProblem(crop)).toBeUndefined();
        const doc = new Y.Doc();
        const box = newImageBox({ x: 0, y: 0, width: 100, height: 100 }, { src: '/sdk/v2/attachments/x', alt: 'x' });
        doc.getArray('boxes').push([box]);
        setCrop(box, crop);
        const uncut = crop.left === 0 && crop.top === 0 && crop.right === 0 && crop.bottom === 0;
        expect(cropOf(box)).toEqual(uncut ? undefined : crop);
      }),
    );
  });

  it('refuses a side out of 0..<1, not a number, or sides leaving nothing, and a reader shows such a stored crop as none', () => {
    const bad = fc.oneof(
      fc.constantFrom<unknown>(null, 'half', { left: 0.1 }, [0.1, 0.1, 0.1, 0.1]),
      fc.tuple(fc.constantFrom('left', 'top', 'right', 'bottom'), fc.oneof(fc.double({ min: 1, max: 1e6, noNaN: true }), fc.double({ max: -1e-9, min: -1e6, noNaN: true }), fc.constantFrom(Number.NaN, Infinity, '0.2'))).map(([name, value]) => ({ left: 0.1, top: 0.1, right: 0.1, bottom: 0.1, [name]: value })),
      fc.double({ min: 1 - MIN_CROP_REMAINDER + 1e-9, max: 1.9, noNaN: true }).map((sum) => ({ left: sum / 2, top: 0, right: sum / 2, bottom: 0 })),
    );
    fc.assert(
      fc.property(bad, (crop) => {
        expect(cropProblem(crop)).toEqual(expect.any(String));
        const doc = new Y.Doc();
        const box = newImageBox({ x: 0, y: 0, width: 100, height: 100 }, { src: '/sdk/v2/attachments/x', alt: 'x' });
        doc.getArray('boxes').push([box]);
        box.set('crop', crop);
        expect(cropOf(box)).toBeUndefined();
        expect(() => setCrop(box, crop as ImageCrop)).toThrow(RangeError);
      }),
    );
  });

  it('places the whole picture so that the box shows exactly the crop, and the crop mode gives back the frame and crop it started from', () => {
    fc.assert(
      fc.property(validCrop, frame, (crop, shown) => {
        const placement = cropPlacement(crop);
        // the picture's left edge, in box widths, is -left of the picture's width; the box's right edge is where the right crop starts
        expect(close((placement.left / 100) + (placement.width / 100) * crop.left, 0)).toBe(true);
        expect(close((placement.left / 100) + (placement.width / 100) * (1 - crop.right), 1)).toBe(true);
        expect(close((placement.top / 100) + (placement.height / 100) * (1 - crop.bottom), 1)).toBe(true);
        const picture = uncroppedFrame(shown, crop);
        const back = croppedTo(picture, shown);
        expect(back.frame).toEqual(shown);
        for (const name of ['left', 'top', 'right', 'bottom'] as const) expect(Math.abs(back.crop[name] - crop[name])).toBeLessThan(1e-9);
      }),
    );
  });

  it('bounds a group of frames by the smallest frame holding each', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), (frames) => {
        const bounds = boundsOf(frames);
        for (const each of frames) {
          expect(each.x).toBeGreaterThanOrEqual(bounds.x);
          expect(each.y).toBeGreaterThanOrEqual(bounds.y);
          expect(each.x + each.width).toBeLessThanOrEqual(bounds.x + bounds.width + 1e-9);
          expect(each.y + each.height).toBeLessThanOrEqual(bounds.y + bounds.height + 1e-9);
        }
        expect(frames.some((each) => each.x === bounds.x)).toBe(true);
        expect(frames.some((each) => close(each.x + each.width, bounds.x + bounds.width))).toBe(true);
      }),
    );
  });
});
