/**
 * The watermark (docs/SDK.md "Watermark"): lines of text the integrator's `GET /users/{userId}/watermark` gives
 * for a user, drawn tiled, rotated and faint over everything that user sees of a file (every editor kind, the
 * preview viewer) and printed into their pdf and jpg exports. This module is the one definition of what the
 * lines may be and where the copies go; the editor (web/shared/watermark.ts) and the export's HTML
 * (domain/export/converters/html.ts) only draw what it says. Browser-safe: no runtime imports.
 */

/** At most this many lines are drawn (more would make each copy a paragraph nobody reads). */
export const MAX_WATERMARK_LINES = 4;
/** Longer lines are cut here, with an ellipsis. */
export const MAX_WATERMARK_LINE_LENGTH = 80;

/** How every copy looks: CSS pixels, degrees (negative: rising to the right), a grey that reads on white and on dark. */
export const WATERMARK_STYLE = {
  /** width and height of the cell each copy is centred in; odd rows shift half a cell, so copies do not line up in columns */
  cellWidth: 320,
  cellHeight: 200,
  angle: -24,
  fontSize: 16,
  lineHeight: 22,
  color: '#646a73',
  opacity: 0.16,
} as const;

/**
 * The lines to draw from an integrator's answer: control characters out, whitespace trimmed, empty lines
 * dropped, each cut to MAX_WATERMARK_LINE_LENGTH and at most MAX_WATERMARK_LINES. An empty result means no watermark.
 */
export function watermarkLines(answer: readonly string[]): string[] {
  return answer
    .map((line) => line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .slice(0, MAX_WATERMARK_LINES)
    .map((line) => {
      const chars = [...line];
      return chars.length > MAX_WATERMARK_LINE_LENGTH ? `${chars.slice(0, MAX_WATERMARK_LINE_LENGTH - 1).join('')}…` : line;
    });
}

/** The centre of one copy of the text, in CSS pixels from the top left of the area drawn over. */
export interface WatermarkCopy {
  x: number;
  y: number;
}

/**
 * Where the copies go over an area of `width` × `height`: one per cell, odd rows shifted by half a cell, with a
 * column beyond each side and a row below so that a rotated copy cut by the edge still shows its visible part.
 */
export function watermarkCopies(width: number, height: number): WatermarkCopy[] {
  const { cellWidth, cellHeight } = WATERMARK_STYLE;
  const copies: WatermarkCopy[] = [];
  const rows = Math.ceil(Math.max(0, height) / cellHeight) + 1;
  const columns = Math.ceil(Math.max(0, width) / cellWidth) + 1;
  for (let row = 0; row <= rows; row++) {
    const shift = row % 2 === 1 ? cellWidth / 2 : 0;
    for (let column = -1; column <= columns; column++) {
      copies.push({ x: Math.round(column * cellWidth + cellWidth / 2 + shift), y: Math.round(row * cellHeight + cellHeight / 2) });
    }
  }
  return copies;
}

/** Vertical offset of each line from the copy's centre, so that the block of lines is centred on it. */
export function watermarkLineOffsets(lineCount: number): number[] {
  const { lineHeight } = WATERMARK_STYLE;
  return Array.from({ length: lineCount }, (_, index) => Math.round((index - (lineCount - 1) / 2) * lineHeight));
}
