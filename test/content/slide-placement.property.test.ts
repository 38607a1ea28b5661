import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame } from '../../src/model/content.js';
import { freeFrame } from '../../web/presentation/deck.js';

/** Where the presentation editor puts a new box (web/presentation/deck.ts freeFrame), over random slides. */
describe('a new box never lands on top of another when the slide has room', () => {
  const frame = fc.record({
    x: fc.integer({ min: 0, max: SLIDE_WIDTH - 20 }),
    y: fc.integer({ min: 0, max: SLIDE_HEIGHT - 20 }),
    width: fc.integer({ min: 20, max: 400 }),
    height: fc.integer({ min: 20, max: 200 }),
  });
  const overlaps = (a: BoxFrame, b: BoxFrame) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const preferred: BoxFrame = { x: 180, y: 200, width: 600, height: 120 };

  it('stays on the slide, keeps its size, and covers nothing when a free place exists on the 20-point grid', () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 6 }), (taken) => {
        const placed = freeFrame(preferred, taken);
        expect([placed.width, placed.height]).toEqual([preferred.width, preferred.height]);
        expect(placed.x).toBeGreaterThanOrEqual(0);
        expect(placed.y).toBeGreaterThanOrEqual(0);
        expect(placed.x + placed.width).toBeLessThanOrEqual(SLIDE_WIDTH);
        expect(placed.y + placed.height).toBeLessThanOrEqual(SLIDE_HEIGHT);
        const candidates: BoxFrame[] = [preferred];
        for (let y = 20; y + preferred.height <= SLIDE_HEIGHT - 20; y += 20) for (let x = 20; x + preferred.width <= SLIDE_WIDTH - 20; x += 20) candidates.push({ ...preferred, x, y });
        const room = candidates.some((candidate) => taken.every((other) => !overlaps(candidate, other)));
        if (room) expect(taken.filter((other) => overlaps(placed, other))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('takes the preferred place when it is free', () => {
    expect(freeFrame(preferred, [{ x: 0, y: 0, width: 100, height: 100 }])).toEqual(preferred);
  });
});
