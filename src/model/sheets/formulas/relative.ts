import { MAX_COLUMNS, MAX_ROWS, columnLetters } from '../a1.js';
import { parseFormula, rowNumber, writtenReferences, type WrittenCoordinate, type WrittenReference } from './parser.js';
import { shiftFormula, type StructureEdit } from './shift.js';

/**
 * Formulas as grid model 3 stores them: relative to their own cell (docs/CONTENT-MODEL.md "Grid model versions").
 * Every coordinate without a `$` is written as its distance from the formula's cell, wrapped around the grid's edge
 * so that it stays a valid A1 coordinate: `=B7*2` in C7 is stored as `=XFD1*2` (same row, one column left), and
 * `=C6` there as `=A1048576` (one row up, same column). Anchored coordinates (`$B$1`) are kept as written. The stored text therefore does not
 * change when rows or columns are inserted or deleted around a formula and the cells it reads together, which makes
 * such an edit a few bytes whatever the number of formulas; only formulas whose references cross the edit (or name
 * another sheet while their own cell moves, or are anchored after the edit) are rewritten, as Excel rewrites them.
 * The text between references is kept character for character; a coordinate moved is spelled anew (upper-case
 * letters unless all were lower case, no leading zeros).
 */

interface Template {
  text: string;
  /** the text between the coordinates: one more than `coordinates` */
  between: string[];
  /** the coordinates on the grid, in text order (those off it stay in `between`) */
  coordinates: WrittenCoordinate[];
  references: WrittenReference[];
  /** whether the whole text parses (only then can a structure edit skip the parser, see storedAfterEdit); found when first asked */
  parses?: boolean;
}

/** Templates by text: a filled column of formulas stores one text many times (copies of one formula are equal relative to their cells). */
const templates = new Map<string, Template>();
const TEMPLATES_KEPT = 4096;

/** The text's template; `keep` caches it (stored texts repeat; A1 texts written by position mostly do not). */
function templateOf(text: string, keep = true): Template | undefined {
  const known = templates.get(text);
  if (known) return known;
  const references = writtenReferences(text);
  if (!references) return undefined;
  const coordinates = references.filter(onGrid).flatMap((reference) => reference.coordinates);
  const between: string[] = [];
  let at = 0;
  for (const coordinate of coordinates) {
    between.push(text.slice(at, coordinate.start));
    at = coordinate.start + coordinate.text.length;
  }
  between.push(text.slice(at));
  const template: Template = { text, between, coordinates, references };
  if (!keep) return template;
  // a bounded cache: a workbook of many distinct formulas starts it again rather than growing it
  if (templates.size >= TEMPLATES_KEPT) templates.clear();
  templates.set(text, template);
  return template;
}

/**
 * Whether every coordinate of a reference is on the grid. One that is not (`f0`, `XFE1`, `A1048577`) reads as a name
 * or an error, not a reference, and stays exactly as written: moving its other coordinate could make it another
 * token (`0f0` moved a column left is the number `0e0`).
 */
function onGrid(reference: WrittenReference): boolean {
  return reference.coordinates.every((coordinate) => coordinate.index !== undefined);
}

function wrapped(index: number, size: number): number {
  return ((index % size) + size) % size;
}

/** A coordinate moved to `index`, spelled as `written` was (`b` stays lower case). */
function spelled(axis: WrittenCoordinate['axis'], written: string, index: number): string {
  if (axis === 'row') return String(index + 1);
  const letters = columnLetters(index);
  return written === written.toLowerCase() ? letters.toLowerCase() : letters;
}

/**
 * The formula with every coordinate that has no `$` moved by `rows` rows and `columns` columns, wrapping around the
 * grid's edges, as the tokenizer finds the coordinates (a template per text). Text that does not split into tokens
 * is kept as it is. The answer translatedByShape must give for every text.
 */
export function translatedByTokens(text: string, rows: number, columns: number, keep: boolean): string {
  if (rows === 0 && columns === 0) return text;
  const template = templateOf(text, keep);
  if (!template || template.coordinates.length === 0) return text;
  let result = template.between[0]!;
  template.coordinates.forEach((coordinate, index) => {
    const by = coordinate.axis === 'row' ? rows : columns;
    result += coordinate.absolute || by === 0 ? coordinate.text : spelled(coordinate.axis, coordinate.text, wrapped(coordinate.index! + by, coordinate.axis === 'row' ? MAX_ROWS : MAX_COLUMNS));
    result += template.between[index + 1]!;
  });
  return result;
}

/**
 * A coordinate of a formula's shape, found at `at` in the shape's key: a row is one run of digits, read anew in each
 * text of the shape; a column is letters, the same in every text of the shape (a reference with a column off the
 * grid is left out: it stays as written).
 */
type ShapeCoordinate =
  | { axis: 'row'; at: number; absolute: boolean }
  | { axis: 'column'; at: number; text: string; index: number; absolute: boolean };

/**
 * Shapes by key, the text with each run of digits written `0` (`=B7*2` and `=B8*2` are `=B0*0`); no coordinates
 * where texts of that shape do not split into tokens (they are kept as they are). Formulas of one shape differ
 * only in their digits, and without a `#` the digits never decide how the tokenizer splits a text (its patterns
 * take a run of digits whole, whatever its digits: parser.ts tokenize), only which rows are off the grid, which is
 * read from each text. So the tokenizer runs once per shape, where a filled column of a million rows repeats one
 * shape; an import stores every formula so (test/sheets/formula-shapes.property.test.ts checks the shape path
 * against the tokenizer's).
 */
const shapes = new Map<string, ShapeCoordinate[]>();
/** Shapes by text, for texts that repeat (stored ones, read many times): no key to build. */
const shapesByText = new Map<string, ShapeCoordinate[]>();
const SHAPES_KEPT = 4096;
const DIGIT_RUNS = /[0-9]+/g;

function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}

/** Where the run of digits starting at `at` ends. */
function runEnd(text: string, at: number): number {
  let end = at;
  while (isDigit(text, end)) end++;
  return end;
}

/** The shape of `text` from the tokenizer's reading of it. */
function shapeOf(text: string): ShapeCoordinate[] {
  const references = writtenReferences(text);
  if (!references) return [];
  const coordinates: ShapeCoordinate[] = [];
  // coordinates come in text order: their places in the key are found walking forward, a run of digits one place
  let textAt = 0;
  let keyAt = 0;
  // a column off the grid is one in every text of the shape: its reference stays as written (onGrid); a row off the
  // grid differs from text to text and sends that text to the tokenizer (translatedByShape)
  const columnsOnGrid = (reference: WrittenReference) => reference.coordinates.every((coordinate) => coordinate.axis === 'row' || coordinate.index !== undefined);
  for (const coordinate of references.filter(columnsOnGrid).flatMap((reference) => reference.coordinates)) {
    for (; textAt < coordinate.start; keyAt++) textAt = isDigit(text, textAt) ? runEnd(text, textAt) : textAt + 1;
    if (coordinate.axis === 'row') coordinates.push({ axis: 'row', at: keyAt, absolute: coordinate.absolute });
    else coordinates.push({ axis: 'column', at: keyAt, text: coordinate.text, index: coordinate.index!, absolute: coordinate.absolute });
  }
  return coordinates;
}

/** A map kept under SHAPES_KEPT entries: a workbook of many distinct formulas starts it again rather than growing it. */
function remember(map: Map<string, ShapeCoordinate[]>, key: string, coordinates: ShapeCoordinate[]): void {
  if (map.size >= SHAPES_KEPT) map.clear();
  map.set(key, coordinates);
}

/** The coordinates of the text's shape; `keep` remembers them by text too (see templateOf). */
function coordinatesOf(text: string, keep: boolean): ShapeCoordinate[] {
  const known = shapesByText.get(text);
  if (known) return known;
  const key = text.replace(DIGIT_RUNS, '0');
  let coordinates = shapes.get(key);
  if (!coordinates) remember(shapes, key, (coordinates = shapeOf(text)));
  if (keep) remember(shapesByText, text, coordinates);
  return coordinates;
}

/** translatedByTokens for text without `#`, tokenising once per shape. */
function translatedByShape(text: string, rows: number, columns: number, keep: boolean): string {
  const coordinates = coordinatesOf(text, keep);
  if (coordinates.length === 0) return text;
  let result = '';
  // text before `copied` is in the result; `textAt` in the text is `keyAt` in the key
  let copied = 0;
  let textAt = 0;
  let keyAt = 0;
  for (const coordinate of coordinates) {
    for (; keyAt < coordinate.at; keyAt++) textAt = isDigit(text, textAt) ? runEnd(text, textAt) : textAt + 1;
    result += text.slice(copied, textAt);
    if (coordinate.axis === 'row') {
      const end = runEnd(text, textAt);
      const written = text.slice(textAt, end);
      const index = rowNumber(written);
      // a row off the grid (`f0`) makes its reference no reference: the tokenizer decides what moves
      if (index === undefined) return translatedByTokens(text, rows, columns, keep);
      result += coordinate.absolute || rows === 0 ? written : spelled('row', written, wrapped(index + rows, MAX_ROWS));
      textAt = end;
      keyAt++;
    } else {
      result += coordinate.absolute || columns === 0 ? coordinate.text : spelled('column', coordinate.text, wrapped(coordinate.index + columns, MAX_COLUMNS));
      textAt += coordinate.text.length;
      keyAt += coordinate.text.length;
    }
    copied = textAt;
  }
  return result + text.slice(copied);
}

/**
 * translatedByTokens, through the formula's shape where its digits cannot change how it splits into tokens: the
 * `#` of error values (`#DIV/0!` holds a digit) and of spills (`B7#`, no spill when B7 is off the grid) leaves the
 * text to the tokenizer.
 */
function translateReferences(text: string, rows: number, columns: number, keep: boolean): string {
  if (rows === 0 && columns === 0) return text;
  return text.includes('#') ? translatedByTokens(text, rows, columns, keep) : translatedByShape(text, rows, columns, keep);
}

/** The stored form of formula text (A1) written in the cell at (row, column). */
export function formulaRelative(a1: string, row: number, column: number): string {
  return translateReferences(a1, -row, -column, false);
}

/** A stored formula of the cell at (row, column) in A1 form: formulaRelative undone. */
export function formulaInA1(stored: string, row: number, column: number): string {
  return translateReferences(stored, row, column, true);
}

/** Where position `at` of the edit's axis goes (on the edited sheet), or undefined when it is deleted or pushed off the grid. */
function movedPosition(at: number, edit: StructureEdit): number | undefined {
  if (at < edit.index) return at;
  if (edit.kind === 'insert') return at + edit.count < (edit.axis === 'rows' ? MAX_ROWS : MAX_COLUMNS) ? at + edit.count : undefined;
  return at < edit.index + edit.count ? undefined : at - edit.count;
}

/**
 * Whether a stored formula reads the same after the edit without being rewritten: every coordinate on the edit's
 * axis moves exactly when it must for its distance to the cell to stay the same (a relative one with its cell, an
 * anchored one not at all), and none is deleted or pushed off the grid. False means only "work it out".
 */
function keepsStoredForm(template: Template, ownSheet: string, position: number, cellMoves: boolean, edit: StructureEdit): boolean {
  template.parses ??= parseFormula(template.text).ok;
  if (!template.parses) return false;
  const axis = edit.axis === 'rows' ? 'row' : 'column';
  const size = edit.axis === 'rows' ? MAX_ROWS : MAX_COLUMNS;
  const editedSheet = edit.sheet.toLowerCase();
  for (const reference of template.references) {
    const ast = reference.ast;
    // 3-D references and references off the grid: left to the parser
    if (ast.kind !== 'cell' && ast.kind !== 'range') return false;
    const sameSheet = (ast.sheet ?? ownSheet).toLowerCase() === editedSheet;
    for (const coordinate of reference.coordinates) {
      if (coordinate.axis !== axis) continue;
      const target = coordinate.absolute ? coordinate.index! : wrapped(coordinate.index! + position, size);
      const moves = sameSheet && target >= edit.index;
      if (moves && (edit.kind === 'delete' ? target < edit.index + edit.count : target + edit.count >= size)) return false;
      if (moves !== (coordinate.absolute ? false : cellMoves)) return false;
    }
  }
  return true;
}

/**
 * A stored formula (relative to its cell at `row`, `column` of the sheet named `ownSheet`) after rows or columns are
 * inserted or deleted, relative to where its cell then stands: the references follow the cells they read as
 * `shiftFormula` moves them. Undefined when the edit deletes the formula's own cell. Most formulas keep their text
 * and are answered without parsing (see keepsStoredForm); the others go through their A1 form.
 */
export function storedAfterEdit(stored: string, ownSheet: string, row: number, column: number, edit: StructureEdit): string | undefined {
  const onEditedSheet = ownSheet.toLowerCase() === edit.sheet.toLowerCase();
  const position = edit.axis === 'rows' ? row : column;
  const after = onEditedSheet ? movedPosition(position, edit) : position;
  if (after === undefined) return undefined;
  const template = templateOf(stored);
  if (!template) return stored;
  if (keepsStoredForm(template, ownSheet, position, after !== position, edit)) return stored;
  const [newRow, newColumn] = edit.axis === 'rows' ? [after, column] : [row, after];
  return formulaRelative(shiftFormula(formulaInA1(stored, row, column), ownSheet, edit), newRow, newColumn);
}
