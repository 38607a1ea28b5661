import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slideTableHtml, type SlideTableCell } from '../../src/domain/import/formats/pptx.js';
import { htmlToBlocks } from '../../src/domain/import/formats/rich-text-html.js';
import { nodeText } from '../../src/model/rich-text/schema.js';

/** A cell that starts a span: its place, spans and text. */
interface Anchor {
  row: number;
  column: number;
  rowspan: number;
  colspan: number;
  text: string;
}

/**
 * A slide table as pptxtojson reads PowerPoint's `a:tbl`: every grid place has a cell, a place covered by another
 * cell's span carries hMerge / vMerge. Spans are drawn at random over a rows × columns grid, each place covered once.
 */
const slideTables = fc
  .record({ rows: fc.integer({ min: 1, max: 5 }), columns: fc.integer({ min: 1, max: 5 }), spans: fc.array(fc.tuple(fc.nat(4), fc.nat(4)), { minLength: 25, maxLength: 25 }), texts: fc.array(fc.stringMatching(/^[a-z0-9 ]{1,12}$/), { minLength: 25, maxLength: 25 }) })
  .map(({ rows, columns, spans, texts }) => {
    const covered = Array.from({ length: rows }, () => Array<boolean>(columns).fill(false));
    const data: SlideTableCell[][] = Array.from({ length: rows }, () => []);
    const anchors: Anchor[] = [];
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        if (covered[row]![column]) {
          data[row]![column] = { text: '<p>&nbsp;</p>', hMerge: 1 };
          continue;
        }
        const index = row * columns + column;
        const [down, across] = spans[index % spans.length]!;
        let rowspan = Math.min(1 + down, rows - row);
        let colspan = 1;
        // as wide as the wish allows while every place of the span is free
        while (colspan < 1 + across && column + colspan < columns && !covered[row]![column + colspan]) colspan++;
        while (rowspan > 1 && covered.slice(row, row + rowspan).some((line) => line.slice(column, column + colspan).some(Boolean))) rowspan--;
        for (let r = row; r < row + rowspan; r++) for (let c = column; c < column + colspan; c++) covered[r]![c] = true;
        // runs of spaces collapse to one, as in every pptx text box (pptxtojson writes each space as &nbsp;, read as a plain space so text wraps)
        const text = texts[index % texts.length]!.replace(/ +/g, ' ').trim() || 'x';
        anchors.push({ row, column, rowspan, colspan, text });
        data[row]![column] = { text: `<p style="text-align: left;"><span style="font-size: 18pt;">${text.replace(/ /g, '&nbsp;')}</span></p>`, ...(rowspan > 1 ? { rowSpan: rowspan } : {}), ...(colspan > 1 ? { colSpan: colspan } : {}) };
      }
    }
    return { rows, data, anchors };
  });

describe('pptx slide tables → the content model', () => {
  it('keeps every cell that is not covered, in order, with its spans and text; covered places add nothing', () => {
    fc.assert(
      fc.property(slideTables, ({ rows, data, anchors }) => {
        const [table, ...rest] = htmlToBlocks(slideTableHtml(data));
        expect(rest).toEqual([]);
        expect(table!.type).toBe('table');
        const modelRows = table!.content ?? [];
        expect(modelRows).toHaveLength(rows);
        const cells = modelRows.flatMap((row, index) => (row.content ?? []).map((cell) => ({ row: index, rowspan: cell.attrs?.rowspan, colspan: cell.attrs?.colspan, text: nodeText(cell) })));
        expect(cells).toEqual(anchors.map(({ row, rowspan, colspan, text }) => ({ row, rowspan, colspan, text })));
      }),
      { numRuns: 200 },
    );
  });
});
