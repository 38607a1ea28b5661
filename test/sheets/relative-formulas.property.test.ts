import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_COLUMNS, MAX_ROWS, columnLetters } from '../../src/model/sheets/a1.js';
import { formulaInA1, formulaRelative, storedAfterEdit } from '../../src/model/sheets/formulas/relative.js';
import { formatFormula, parseFormula } from '../../src/model/sheets/formulas/parser.js';
import { shiftFormula, type StructureEdit } from '../../src/model/sheets/formulas/shift.js';

/**
 * Formulas stored relative to their cell (grid model 3): the stored form gives the A1 text back at the cell, and a
 * structure edit leaves a formula reading exactly what shiftFormula makes of its A1 text, whether storedAfterEdit
 * keeps the stored text (no parse) or works it out.
 */

// coordinates near the grid's edges too, where the stored form wraps around
const row = fc.oneof(fc.nat(12), fc.integer({ min: MAX_ROWS - 4, max: MAX_ROWS - 1 }));
const column = fc.oneof(fc.nat(8), fc.integer({ min: MAX_COLUMNS - 3, max: MAX_COLUMNS - 1 }));
const anchor = fc.constantFrom('', '$');
const sheet = fc.constantFrom('', 'Data!', "'Other sheet'!", 'data!');
const cell = fc.tuple(sheet, anchor, column, anchor, row).map(([prefix, a, c, b, r]) => `${prefix}${a}${columnLetters(c)}${b}${r + 1}`);
// corners in order: shiftFormula spells a moved range with its corners ordered, the stored form keeps them as typed
const range = fc.tuple(sheet, anchor, column, anchor, row, anchor, column, anchor, row).map(
  ([prefix, a, c1, b, r1, d, c2, e, r2]) => `${prefix}${a}${columnLetters(Math.min(c1, c2))}${b}${Math.min(r1, r2) + 1}:${d}${columnLetters(Math.max(c1, c2))}${e}${Math.max(r1, r2) + 1}`,
);
const wholeColumns = fc.tuple(anchor, column, anchor, column).map(([a, c1, b, c2]) => `${a}${columnLetters(Math.min(c1, c2))}:${b}${columnLetters(Math.max(c1, c2))}`);
const wholeRows = fc.tuple(anchor, row, anchor, row).map(([a, r1, b, r2]) => `${a}${Math.min(r1, r2) + 1}:${b}${Math.max(r1, r2) + 1}`);
const operand = fc.oneof(cell, cell, range, wholeColumns, wholeRows, fc.constantFrom('"B7"', '2', 'TRUE', 'Sheet3:Sheet4!A1', 'XFE1', 'A0'));
const formula = fc.array(operand, { minLength: 1, maxLength: 4 }).chain((parts) =>
  fc.constantFrom('SUM', 'COUNT').map((name) => `=${name}(${parts.join(', ')})*2`),
);
const edit: fc.Arbitrary<StructureEdit> = fc.record({
  kind: fc.constantFrom('insert' as const, 'delete' as const),
  axis: fc.constantFrom('rows' as const, 'columns' as const),
  sheet: fc.constantFrom('Data', 'Other sheet'),
  index: fc.nat(14),
  count: fc.integer({ min: 1, max: 3 }),
});

function spelling(text: string): string {
  const parsed = parseFormula(text);
  return parsed.ok ? formatFormula(parsed.ast) : text;
}

describe('formulas stored relative to their cell', () => {
  it('read back as written, character for character, at their cell', () => {
    fc.assert(
      fc.property(formula, row, column, (text, r, c) => {
        expect(formulaInA1(formulaRelative(text, r, c), r, c)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('copies of a filled formula are one stored text', () => {
    expect(formulaRelative('=B7*2+$C$1', 6, 3)).toBe(formulaRelative('=B8*2+$C$1', 7, 3));
    expect(formulaRelative('=B7*2', 6, 2)).toBe('=XFD1*2');
    expect(formulaRelative('=C6', 6, 2)).toBe('=A1048576');
    expect(formulaRelative('=SUM("B7", b7)', 6, 1)).toBe('=SUM("B7", a1)');
  });

  it('after a structure edit, read as shiftFormula moves their A1 text', () => {
    fc.assert(
      fc.property(formula, fc.nat(12), fc.nat(8), fc.constantFrom('Data', 'Other sheet'), edit, (text, r, c, ownSheet, one) => {
        const stored = formulaRelative(text, r, c);
        const after = storedAfterEdit(stored, ownSheet, r, c, one);
        const onSheet = ownSheet === one.sheet;
        const at = one.axis === 'rows' ? r : c;
        const deleted = onSheet && one.kind === 'delete' && at >= one.index && at < one.index + one.count;
        if (deleted) {
          expect(after).toBeUndefined();
          return;
        }
        const moved = !onSheet || at < one.index ? at : one.kind === 'insert' ? at + one.count : at - one.count;
        const [newRow, newColumn] = one.axis === 'rows' ? [moved, c] : [r, moved];
        // the same formula; shiftFormula respells one whose references moved, the stored form keeps the spelling when they moved with the cell
        expect(spelling(formulaInA1(after!, newRow, newColumn))).toBe(spelling(shiftFormula(text, ownSheet, one)));
      }),
      { numRuns: 3000 },
    );
  });
});
