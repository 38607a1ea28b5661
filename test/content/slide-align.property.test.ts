import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame } from '../../src/model/content.js';
import { alignedFrames, BOX_ALIGNMENTS } from '../../web/presentation/deck.js';

/** Align and Distribute of the presentation editor (web/presentation/deck.ts alignedFrames), over random boxes. */
describe('Align and Distribute move boxes as PowerPoint does', () => {
  const frame = fc.record({
    x: fc.integer({ min: 0, max: SLIDE_WIDTH - 20 }),
    y: fc.integer({ min: 0, max: SLIDE_HEIGHT - 20 }),
    width: fc.integer({ min: 20, max: 300 }),
    height: fc.integer({ min: 20, max: 200 }),
  });
  const right = (box: BoxFrame) => box.x + box.width;
  const bottom = (box: BoxFrame) => box.y + box.height;

  it('keeps every size, and the area the boxes cover together holds them all after aligning', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 2, maxLength: 6 }), fc.constantFrom(...BOX_ALIGNMENTS.filter((how) => !how.startsWith('distribute'))), (frames, how) => {
        const placed = alignedFrames(frames, how);
        expect(placed.map(({ width, height }) => [width, height])).toEqual(frames.map(({ width, height }) => [width, height]));
        const [left, top] = [Math.min(...frames.map((box) => box.x)), Math.min(...frames.map((box) => box.y))];
        for (const box of placed) {
          expect(box.x).toBeGreaterThanOrEqual(left);
          expect(box.y).toBeGreaterThanOrEqual(top);
          expect(right(box)).toBeLessThanOrEqual(Math.max(...frames.map(right)));
          expect(bottom(box)).toBeLessThanOrEqual(Math.max(...frames.map(bottom)));
        }
      }),
    );
  });

  it('lines the boxes up on the edge or centre chosen', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 2, maxLength: 6 }), (frames) => {
        expect(new Set(alignedFrames(frames, 'left').map((box) => box.x)).size).toBe(1);
        expect(new Set(alignedFrames(frames, 'right').map(right)).size).toBe(1);
        expect(new Set(alignedFrames(frames, 'bottom').map(bottom)).size).toBe(1);
        const centres = alignedFrames(frames, 'center').map((box) => box.x + box.width / 2);
        expect(Math.max(...centres) - Math.min(...centres)).toBeLessThanOrEqual(1);
        // only the axis aligned moves
        expect(alignedFrames(frames, 'top').map((box) => box.x)).toEqual(frames.map((box) => box.x));
      }),
    );
  });

  it('distributes three or more with the first one in place, keeping their order, with equal gaps (or centre spacing) between neighbours', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 3, maxLength: 6 }), (frames) => {
        const placed = alignedFrames(frames, 'distributeHorizontally');
        // the order of the boxes from left to right before (ties by their place in the list) is kept
        const order = frames.map((box, index) => ({ box, index })).sort((a, b) => a.box.x - b.box.x || a.index - b.index).map(({ index }) => index);
        const after = order.map((index) => placed[index]!);
        const first = frames[order[0]!]!;
        const last = frames[order[order.length - 1]!]!;
        const room = right(last) - first.x >= frames.reduce((sum, box) => sum + box.width, 0);
        if (room) {
          expect(after[0]!.x).toBe(first.x);
          const gaps = after.slice(1).map((box, at) => box.x - right(after[at]!));
          expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
        } else {
          const steps = after.slice(1).map((box, at) => box.x + box.width / 2 - (after[at]!.x + after[at]!.width / 2));
          // positions are whole points: each centre is within one point of where it would be
          expect(Math.max(...steps) - Math.min(...steps)).toBeLessThanOrEqual(2);
        }
        expect(placed.map((box) => box.y)).toEqual(frames.map((box) => box.y));
      }),
    );
  });

  it('aligns one box on the slide, and leaves two alone when asked to distribute', () => {
    expect(alignedFrames([{ x: 10, y: 10, width: 100, height: 40 }], 'center')).toEqual([{ x: (SLIDE_WIDTH - 100) / 2, y: 10, width: 100, height: 40 }]);
    expect(alignedFrames([{ x: 10, y: 10, width: 100, height: 40 }], 'bottom')).toEqual([{ x: 10, y: SLIDE_HEIGHT - 40, width: 100, height: 40 }]);
    const two = [{ x: 0, y: 0, width: 50, height: 50 }, { x: 300, y: 100, width: 50, height: 50 }];
    expect(alignedFrames(two, 'distributeVertically')).toEqual(two);
  });
});
