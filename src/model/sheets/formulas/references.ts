import { MAX_COLUMNS, MAX_ROWS, columnLetters, formatSheetName } from '../a1.js';
import { isRange, optionalInteger, scalar, type FormulaFunction } from './args.js';
import { parseFormula, type RangeReference } from './parser.js';
import { Err, FormulaError, toBoolean, toText } from './values.js';

/**
 * Functions that compute a reference or read one as a place rather than as values: INDIRECT and OFFSET (a range
 * found at evaluation time, so they are volatile: recomputed after every change, as in Excel), ADDRESS, AREAS and
 * ISREF. A reference they answer reads its cells when a caller reads it, so `SUM(OFFSET(A1,1,0,3))` sums A2:A4.
 */

const indirect: FormulaFunction = {
  minArgs: 1,
  maxArgs: 2,
  volatile: 'always',
  call([text = null, style], context) {
    const wanted = scalar(text);
    if (wanted instanceof FormulaError) return wanted;
    const a1 = style === undefined || style === null ? true : toBoolean(scalar(style));
    if (a1 instanceof FormulaError) return a1;
    // R1C1 style is not read (docs/FORMULAS.md): such a text is no reference
    if (!a1) return Err.ref;
    const parsed = parseFormula(toText(wanted).trim());
    if (!parsed.ok || (parsed.ast.kind !== 'cell' && parsed.ast.kind !== 'range')) return Err.ref;
    return context.range(parsed.ast);
  },
};

const offset: FormulaFunction = {
  minArgs: 3,
  maxArgs: 5,
  volatile: 'always',
  call([base = null, rows, columns, height, width], context) {
    if (base instanceof FormulaError) return base;
    if (!isRange(base) || !base.origin) return Err.value;
    const down = optionalInteger(rows, 0);
    if (down instanceof FormulaError) return down;
    const across = optionalInteger(columns, 0);
    if (across instanceof FormulaError) return across;
    const tall = optionalInteger(height, base.rows);
    if (tall instanceof FormulaError) return tall;
    const wide = optionalInteger(width, base.columns);
    if (wide instanceof FormulaError) return wide;
    if (tall === 0 || wide === 0) return Err.ref;
    // a negative height or width reaches up or left from the moved corner, as in Excel
    const top = base.origin.row + down + Math.min(0, tall + 1);
    const left = base.origin.column + across + Math.min(0, wide + 1);
    const bottom = top + Math.abs(tall) - 1;
    const right = left + Math.abs(wide) - 1;
    if (top < 0 || left < 0 || bottom >= MAX_ROWS || right >= MAX_COLUMNS) return Err.ref;
    const reference: RangeReference = {
      kind: 'range', sheet: base.origin.sheet, shape: 'cells', startRow: top, endRow: bottom, startColumn: left, endColumn: right,
      startRowAbsolute: false, endRowAbsolute: false, startColumnAbsolute: false, endColumnAbsolute: false,
    };
    return context.range(reference);
  },
};

/** ADDRESS(row, column, [abs 1-4], [a1], [sheet]): a reference's text. */
const address: FormulaFunction = {
  minArgs: 2,
  maxArgs: 5,
  call([row = null, column = null, kind, style, sheet]) {
    const r = optionalInteger(row, 0);
    if (r instanceof FormulaError) return r;
    const c = optionalInteger(column, 0);
    if (c instanceof FormulaError) return c;
    const anchors = optionalInteger(kind, 1);
    if (anchors instanceof FormulaError) return anchors;
    const a1 = style === undefined || style === null ? true : toBoolean(scalar(style));
    if (a1 instanceof FormulaError) return a1;
    if (r < 1 || r > MAX_ROWS || c < 1 || c > MAX_COLUMNS || anchors < 1 || anchors > 4) return Err.value;
    const rowAbsolute = anchors === 1 || anchors === 2;
    const columnAbsolute = anchors === 1 || anchors === 3;
    const place = a1
      ? `${columnAbsolute ? '$' : ''}${columnLetters(c - 1)}${rowAbsolute ? '$' : ''}${r}`
      : `R${rowAbsolute ? r : `[${r}]`}C${columnAbsolute ? c : `[${c}]`}`;
    if (sheet === undefined || sheet === null) return place;
    const name = scalar(sheet);
    if (name instanceof FormulaError) return name;
    return `${formatSheetName(toText(name))}!${place}`;
  },
};

const isReference: FormulaFunction = {
  minArgs: 1,
  maxArgs: 1,
  call: ([arg = null]) => isRange(arg) && arg.origin !== undefined,
};

export const REFERENCE_FUNCTIONS: ReadonlyArray<[string, FormulaFunction]> = [
  ['INDIRECT', indirect],
  ['OFFSET', offset],
  ['ADDRESS', address],
  ['ISREF', isReference],
];
