/** Resize and crop handles by the edges they move: n(orth), e(ast), s(outh), w(est). */
export const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const;
export type Handle = (typeof HANDLES)[number];

/**
 * Follows a drag that a press on `target` started: the pointer captured, `move` at each move, `end` once when it
 * is released or cancelled (the listeners then go).
 */
export function followDrag(target: HTMLElement, pointerId: number, move: (moved: PointerEvent) => void, end: () => void): void {
  target.setPointerCapture(pointerId);
  const stop = () => {
    target.removeEventListener('pointermove', move);
    target.removeEventListener('pointerup', stop);
    target.removeEventListener('pointercancel', stop);
    end();
  };
  target.addEventListener('pointermove', move);
  target.addEventListener('pointerup', stop);
  target.addEventListener('pointercancel', stop);
}
