import { MAX_COLUMNS, MAX_ROWS, columnIndex, columnLetters, formatSheetName } from '../a1.js';
import { ERROR_CODES, numberToText, type ErrorCode } from './values.js';

/**
 * Formula text to a syntax tree and back. `parseFormula` never throws: any text gives a tree or a
 * failure with a reason (the editor and the values API refuse such a formula; a stored one shows the value kept
 * with it, else `#ERROR!`). Operator precedence follows spreadsheet
 * applications, highest first: reference `:`, negation, `%`, `^` (left to right: 2^3^2 = 64), `* /`,
 * `+ -`, `&`, comparisons. A reference off the grid (row past 1,048,576, column past XFD) reads as `#REF!`.
 */

/** `' '` is Excel's intersection operator (`B1:C5 C2:D3` is C2:C3). */
export type BinaryOperator = '+' | '-' | '*' | '/' | '^' | '&' | '=' | '<>' | '<' | '>' | '<=' | '>=' | ' ';

export interface CellReference {
  kind: 'cell';
  /** null: the formula's own sheet */
  sheet: string | null;
  row: number;
  column: number;
  rowAbsolute: boolean;
  columnAbsolute: boolean;
}

/**
 * A rectangle, corners ordered (start ≤ end). `columns` shape (`A:C`) spans every row, `rows` (`2:5`)
 * every column; their other axis's numbers are the grid's edges and their anchors false.
 */
export interface RangeReference {
  kind: 'range';
  sheet: string | null;
  shape: 'cells' | 'columns' | 'rows';
  startRow: number;
  startColumn: number;
  endRow: number;
  endColumn: number;
  startRowAbsolute: boolean;
  startColumnAbsolute: boolean;
  endRowAbsolute: boolean;
  endColumnAbsolute: boolean;
}

export type Ast =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'error'; code: ErrorCode }
  | CellReference
  | RangeReference
  /** an argument left empty (`ROUND(x,)`, `IF(a,b,)`): an empty value, as Excel reads it */
  | { kind: 'missing' }
  /** a name that is neither a function call nor a reference: `#NAME?` (there are no named ranges); `Sheet1!Name` for a sheet's own */
  | { kind: 'name'; name: string }
  /** a 3-D reference: the same cell or range on every sheet from `first` to `last` in the workbook's order (`Sheet1:Sheet3!A1`) */
  | { kind: 'cube'; first: string; last: string; reference: CellReference | RangeReference }
  /** Excel's union operator, a comma inside parentheses: `(A1:A3,C1)` is both areas as one reference */
  | { kind: 'union'; areas: Ast[] }
  /** an array constant `{1,2;3,4}`: rows of equal length (`;` ends a row), each element a number, text, boolean or error */
  | { kind: 'array'; rows: ArrayElement[][] }
  | { kind: 'unary'; operator: '-' | '+'; operand: Ast }
  | { kind: 'percent'; operand: Ast }
  | { kind: 'binary'; operator: BinaryOperator; left: Ast; right: Ast }
  /** `name` in upper case; `CALLED_IN_PLACE` calls the LAMBDA its first argument is with the others */
  | { kind: 'call'; name: string; args: Ast[] };

/**
 * The name of a call whose callee is not a function name but a LAMBDA: written in place (`LAMBDA(x, x+1)(2)`) or a
 * defined name standing for one (`Double(3)` when the Name Manager defines Double as `LAMBDA(x, x*2)`). Its first
 * argument is the LAMBDA, the others are the values passed. No function can be named so.
 */
export const CALLED_IN_PLACE = '()';

/** An element of an array constant: constants only, as in Excel (`{1,-2,"a",TRUE,#N/A}`). */
export type ArrayElement = { kind: 'number'; value: number } | { kind: 'string'; value: string } | { kind: 'boolean'; value: boolean } | { kind: 'error'; code: ErrorCode };

export type ParseResult = { ok: true; ast: Ast } | { ok: false; reason: string };

/** A table of an imported workbook (Excel's "Format as Table"): where it is and its columns' names. */
export interface TableDefinition {
  sheet: string;
  /** the whole table, header and totals rows included (zero-based, inclusive) */
  startRow: number;
  endRow: number;
  startColumn: number;
  headerRows: number;
  totalsRows: number;
  /** column names, left to right */
  columns: readonly string[];
}

/**
 * What a workbook defines that formulas may name: defined names (upper case → what they stand for, a syntax tree)
 * and tables (upper case → definition), and the formula's own row for `[#This Row]`. The importer resolves them
 * into references (docs/FORMULAS.md "Names and tables").
 */
export interface ParseDefinitions {
  names?: ReadonlyMap<string, Ast>;
  tables?: ReadonlyMap<string, TableDefinition>;
  row?: number;
}

/** Longest formula text (with its "="), as in the common desktop format. */
export const MAX_FORMULA_LENGTH = 8_192;
/** Deepest syntax tree: evaluation recurses along it, and must not exhaust the stack of a browser tab. */
export const MAX_FORMULA_DEPTH = 1_000;
/** Most parentheses, function calls and signs nested in one another (the common desktop format allows 64 calls). */
export const MAX_FORMULA_NESTING = 100;

class ParseFailure extends Error {}

type Token =
  | { type: 'number'; value: number }
  | { type: 'string'; value: string }
  | { type: 'error'; code: ErrorCode }
  | { type: 'reference'; ast: Ast }
  /** `sheet`: the name was written after `Sheet!` (a defined name local to that sheet) */
  | { type: 'identifier'; name: string; sheet?: string }
  /** `Table1[Col]`, `Table1[[#This Row],[Col]]`: the table's name and the text inside the outer brackets */
  | { type: 'structured'; table: string; specifier: string }
  | { type: 'function'; name: string }
  | { type: 'operator'; value: string }
  | { type: 'end' };

const BOUNDARY = '(?![A-Za-z0-9_.(!\\[\\\\])';
const CELL_RANGE = new RegExp(`(\\$?)([A-Za-z]+)(\\$?)([0-9]+):(\\$?)([A-Za-z]+)(\\$?)([0-9]+)${BOUNDARY}`, 'y');
const COLUMN_RANGE = new RegExp(`(\\$?)([A-Za-z]{1,3}):(\\$?)([A-Za-z]{1,3})${BOUNDARY}`, 'y');
const ROW_RANGE = new RegExp(`(\\$?)([0-9]+):(\\$?)([0-9]+)${BOUNDARY}`, 'y');
const CELL = new RegExp(`(\\$?)([A-Za-z]+)(\\$?)([0-9]+)${BOUNDARY}`, 'y');
const NUMBER = /(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const IDENTIFIER = /[A-Za-z_\\][A-Za-z0-9_.\\]*/y;
const OPERATORS = ['<>', '<=', '>=', '+', '-', '*', '/', '^', '&', '=', '<', '>', '%', '(', ')', ',', '{', '}', ';', '@'];
const REF_ERROR: Ast = { kind: 'error', code: '#REF!' };

/** A row coordinate's digits as a zero-based row, undefined off the grid. */
export function rowNumber(digits: string): number | undefined {
  const row = Number(digits);
  return row >= 1 && row <= MAX_ROWS ? row - 1 : undefined;
}

function columnNumber(letters: string): number | undefined {
  return letters.length <= 3 ? columnIndex(letters) : undefined;
}

/** One axis of a range: its two ends in order, each with its `$` anchor; undefined when an end is off the grid. */
interface Span {
  start: number;
  end: number;
  startAbsolute: boolean;
  endAbsolute: boolean;
}

function span(first: number | undefined, firstAnchor: string, second: number | undefined, secondAnchor: string): Span | undefined {
  if (first === undefined || second === undefined) return undefined;
  return first <= second
    ? { start: first, end: second, startAbsolute: firstAnchor === '$', endAbsolute: secondAnchor === '$' }
    : { start: second, end: first, startAbsolute: secondAnchor === '$', endAbsolute: firstAnchor === '$' };
}

/** A whole axis, for the other axis of `A:C` (every row) and `2:5` (every column). */
function whole(size: number): Span {
  return { start: 0, end: size - 1, startAbsolute: false, endAbsolute: false };
}

function rangeAst(sheet: string | null, shape: RangeReference['shape'], rows: Span | undefined, columns: Span | undefined): Ast {
  if (!rows || !columns) return REF_ERROR;
  return {
    kind: 'range', sheet, shape,
    startRow: rows.start, endRow: rows.end, startColumn: columns.start, endColumn: columns.end,
    startRowAbsolute: rows.startAbsolute, endRowAbsolute: rows.endAbsolute, startColumnAbsolute: columns.startAbsolute, endColumnAbsolute: columns.endAbsolute,
  };
}

/**
 * One coordinate of a reference as the formula's text spells it (`$B` or `7` of `$B7`): where its letters or digits
 * start, their text, whether a `$` anchors it, and its zero-based index (undefined off the grid).
 */
export interface WrittenCoordinate {
  axis: 'row' | 'column';
  start: number;
  text: string;
  absolute: boolean;
  index: number | undefined;
}

/** A reference token of a formula's text: what it reads as (before a spill `#` wraps it) and its coordinates in text order. */
export interface WrittenReference {
  ast: Ast;
  coordinates: WrittenCoordinate[];
}

type ReadReference = { ast: Ast; end: number; coordinates: WrittenCoordinate[] };

/** The coordinates of a reference match: anchor and letters or digits in turn, one `:` between the two corners. */
function coordinatesOf(position: number, groups: readonly string[], axes: ReadonlyArray<WrittenCoordinate['axis']>, secondCorner?: number): WrittenCoordinate[] {
  const coordinates: WrittenCoordinate[] = [];
  let at = position;
  axes.forEach((axis, index) => {
    const anchor = groups[2 * index] ?? '';
    const text = groups[2 * index + 1] ?? '';
    // the second corner of a range follows its ":"
    if (index === secondCorner) at += 1;
    at += anchor.length;
    coordinates.push({ axis, start: at, text, absolute: anchor === '$', index: axis === 'row' ? rowNumber(text) : columnNumber(text) });
    at += text.length;
  });
  return coordinates;
}

/** The reference at `position` (after any sheet prefix), or undefined when none starts there. */
function readReference(text: string, position: number, sheet: string | null): ReadReference | undefined {
  const at = (pattern: RegExp): RegExpExecArray | null => {
    pattern.lastIndex = position;
    return pattern.exec(text);
  };
  let match = at(CELL_RANGE);
  if (match) {
    const [, ca1 = '', c1 = '', ra1 = '', r1 = '', ca2 = '', c2 = '', ra2 = '', r2 = ''] = match;
    const rows = span(rowNumber(r1), ra1, rowNumber(r2), ra2);
    const columns = span(columnNumber(c1), ca1, columnNumber(c2), ca2);
    const coordinates = coordinatesOf(position, match.slice(1), ['column', 'row', 'column', 'row'], 2);
    return { ast: rangeAst(sheet, 'cells', rows, columns), end: position + match[0].length, coordinates };
  }
  match = at(COLUMN_RANGE);
  if (match) {
    const [, a1 = '', c1 = '', a2 = '', c2 = ''] = match;
    const coordinates = coordinatesOf(position, match.slice(1), ['column', 'column'], 1);
    return { ast: rangeAst(sheet, 'columns', whole(MAX_ROWS), span(columnNumber(c1), a1, columnNumber(c2), a2)), end: position + match[0].length, coordinates };
  }
  match = at(ROW_RANGE);
  if (match) {
    const [, a1 = '', r1 = '', a2 = '', r2 = ''] = match;
    const coordinates = coordinatesOf(position, match.slice(1), ['row', 'row'], 1);
    return { ast: rangeAst(sheet, 'rows', span(rowNumber(r1), a1, rowNumber(r2), a2), whole(MAX_COLUMNS)), end: position + match[0].length, coordinates };
  }
  match = at(CELL);
  if (match) {
    const [, columnAnchor = '', letters = '', rowAnchor = '', digits = ''] = match;
    const end = position + match[0].length;
    const [column, row] = [columnNumber(letters), rowNumber(digits)];
    // more than three letters is no column: `Vlook1` is a name, as in Excel
    if (letters.length > 3 && sheet === null) return undefined;
    const coordinates = coordinatesOf(position, match.slice(1), ['column', 'row']);
    if (column === undefined || row === undefined) return { ast: REF_ERROR, end, coordinates };
    return { ast: { kind: 'cell', sheet, row, column, rowAbsolute: rowAnchor === '$', columnAbsolute: columnAnchor === '$' }, end, coordinates };
  }
  return undefined;
}

/**
 * A cell reference followed by `#` (and no error value: `A1#REF!` is no spill) is the array spilling from that cell,
 * `A1#`: Excel's ANCHORARRAY(A1), the name workbook files store it under.
 */
function withSpill(text: string, read: { ast: Ast; end: number }): { ast: Ast; end: number } {
  if (read.ast.kind !== 'cell' || text[read.end] !== '#') return read;
  if (ERROR_CODES.some((code) => text.slice(read.end, read.end + code.length).toUpperCase() === code)) return read;
  return { ast: { kind: 'call', name: 'ANCHORARRAY', args: [read.ast] }, end: read.end + 1 };
}

/**
 * What follows `Sheet!` (or `First:Last!`, `last` then set) at `position`: a reference (3-D with two sheets),
 * `#REF!` (a reference Excel found deleted: `'1'!#REF!`), or a defined name local to that sheet.
 */
function readQualified(text: string, position: number, first: string, last: string | null, written?: WrittenReference[]): { token: Token; end: number } {
  const found = readReference(text, position, first);
  const reference = found && last === null ? withSpill(text, found) : found;
  if (found && reference) {
    const ast = reference.ast;
    const read: Ast = last === null || (ast.kind !== 'cell' && ast.kind !== 'range') ? ast : { kind: 'cube', first, last, reference: { ...ast, sheet: null } };
    written?.push({ ast: last === null ? found.ast : read, coordinates: found.coordinates });
    return { token: { type: 'reference', ast: read }, end: reference.end };
  }
  if (text.slice(position, position + 5).toUpperCase() === '#REF!') return { token: { type: 'reference', ast: REF_ERROR }, end: position + 5 };
  IDENTIFIER.lastIndex = position;
  const name = last === null ? IDENTIFIER.exec(text) : null;
  if (name) return { token: { type: 'identifier', name: name[0], sheet: first }, end: position + name[0].length };
  throw new ParseFailure(`expected a reference after ${formatSheetName(last === null ? first : `${first}:${last}`)}!`);
}

/** The bracket closing the one at `position`; `'` escapes the next character inside (a column named `a'[b`). */
function closingBracket(text: string, position: number): number {
  let depth = 0;
  for (let i = position; i < text.length; i++) {
    const char = text[i];
    if (char === "'") i++;
    else if (char === '[') depth++;
    else if (char === ']' && --depth === 0) return i;
  }
  throw new ParseFailure('a table reference\'s brackets are not closed');
}

/** `'It''s'` at `position` (the opening quote): the name and where it ends. */
function readQuoted(text: string, position: number, quote: string): { value: string; end: number } {
  let value = '';
  for (let i = position + 1; i < text.length; i++) {
    const char = text[i];
    if (char !== quote) {
      value += char;
      continue;
    }
    if (text[i + 1] === quote) {
      value += quote;
      i++;
      continue;
    }
    return { value, end: i + 1 };
  }
  throw new ParseFailure(quote === '"' ? 'a text in quotes is not closed' : 'a quoted sheet name is not closed');
}

/** The text's tokens; each reference token is also added to `written` when given. */
function tokenize(text: string, start: number, written?: WrittenReference[]): Token[] {
  const tokens: Token[] = [];
  let position = start;
  while (position < text.length) {
    const char = text[position] ?? '';
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      while (/[ \t\n\r]/.test(text[position] ?? '')) position++;
      // a space between two references is Excel's intersection operator (`B1:C5 C2:D3`)
      const previous = tokens.at(-1);
      const endsReference = previous !== undefined && (previous.type === 'reference' || previous.type === 'structured' || (previous.type === 'identifier' && !/^(TRUE|FALSE)$/i.test(previous.name)) || (previous.type === 'operator' && previous.value === ')'));
      if (endsReference && /[$A-Za-z0-9_'(]/.test(text[position] ?? '')) tokens.push({ type: 'operator', value: ' ' });
      continue;
    }
    if (char === '"') {
      const quoted = readQuoted(text, position, '"');
      tokens.push({ type: 'string', value: quoted.value });
      position = quoted.end;
      continue;
    }
    if (char === "'") {
      const quoted = readQuoted(text, position, "'");
      if (text[quoted.end] !== '!') throw new ParseFailure(`expected "!" after the sheet name '${quoted.value}'`);
      // sheet names cannot hold ":": a quoted `'Jan 1:Mar 1'` is the sheets from one to the other
      const colon = quoted.value.indexOf(':');
      const qualified = colon < 0 ? readQualified(text, quoted.end + 1, quoted.value, null, written) : readQualified(text, quoted.end + 1, quoted.value.slice(0, colon), quoted.value.slice(colon + 1), written);
      tokens.push(qualified.token);
      position = qualified.end;
      continue;
    }
    if (char === '#') {
      const code = ERROR_CODES.find((candidate) => text.slice(position, position + candidate.length).toUpperCase() === candidate);
      if (!code) throw new ParseFailure(`unknown error value at ${text.slice(position, position + 8)}`);
      tokens.push({ type: 'error', code });
      position += code.length;
      continue;
    }
    const found = /[$A-Za-z0-9]/.test(char) ? readReference(text, position, null) : undefined;
    const reference = found && withSpill(text, found);
    if (found && reference) {
      written?.push({ ast: found.ast, coordinates: found.coordinates });
      tokens.push({ type: 'reference', ast: reference.ast });
      position = reference.end;
      continue;
    }
    NUMBER.lastIndex = position;
    const number = NUMBER.exec(text);
    if (number) {
      tokens.push({ type: 'number', value: Number(number[0]) });
      position += number[0].length;
      // `0K1` is no formula in Excel; read as a number and a reference, moving the reference could make one number (`0E5`)
      if (/[$A-Za-z_\\]/.test(text[position] ?? '')) throw new ParseFailure(`a number is followed by "${text[position]}"`);
      continue;
    }
    IDENTIFIER.lastIndex = position;
    const identifier = IDENTIFIER.exec(text);
    if (identifier) {
      const name = identifier[0];
      const next = position + name.length;
      if (text[next] === '[') {
        const end = closingBracket(text, next);
        tokens.push({ type: 'structured', table: name, specifier: text.slice(next + 1, end) });
        position = end + 1;
        continue;
      }
      if (text[next] === '!') {
        const qualified = readQualified(text, next + 1, name, null, written);
        tokens.push(qualified.token);
        position = qualified.end;
        continue;
      }
      if (text[next] === ':') {
        IDENTIFIER.lastIndex = next + 1;
        const last = IDENTIFIER.exec(text);
        if (last && text[next + 1 + last[0].length] === '!') {
          const qualified = readQualified(text, next + 2 + last[0].length, name, last[0], written);
          tokens.push(qualified.token);
          position = qualified.end;
          continue;
        }
      }
      let after = next;
      while (text[after] === ' ') after++;
      // Excel stores functions newer than 2007 with a prefix (_xlfn.CONCAT, _xlfn._xlws.SORT): read without it
      tokens.push(text[after] === '(' ? { type: 'function', name: name.toUpperCase().replace(/^(?:_XLFN\.|_XLWS\.)+/, '') } : { type: 'identifier', name });
      position = next;
      continue;
    }
    const operator = OPERATORS.find((candidate) => text.startsWith(candidate, position));
    if (!operator) throw new ParseFailure(`unexpected character "${char}"`);
    tokens.push({ type: 'operator', value: operator });
    position += operator.length;
  }
  tokens.push({ type: 'end' });
  return tokens;
}

const COMPARISONS = new Set(['=', '<>', '<', '>', '<=', '>=']);

class Parser {
  private index = 0;
  private depth = 0;
  /** whether a defined name or a table reference was met */
  resolved = false;

  constructor(
    private readonly tokens: Token[],
    private readonly definitions: ParseDefinitions,
  ) {}

  parse(): Ast {
    const ast = this.comparison();
    const rest = this.peek();
    if (rest.type !== 'end') throw new ParseFailure(`unexpected ${describe(rest)}`);
    return ast;
  }

  private peek(): Token {
    return this.tokens[this.index] ?? { type: 'end' };
  }

  private isOperator(...values: string[]): string | undefined {
    const token = this.peek();
    return token.type === 'operator' && values.includes(token.value) ? token.value : undefined;
  }

  private expect(value: string): void {
    if (!this.isOperator(value)) throw new ParseFailure(`expected "${value}" but found ${describe(this.peek())}`);
    this.index++;
  }

  /** Parentheses, calls and signs recurse through the whole grammar: their nesting is bounded. */
  private nested<T>(build: () => T): T {
    if (++this.depth > MAX_FORMULA_NESTING) throw new ParseFailure(`the formula nests parentheses, functions or signs deeper than ${MAX_FORMULA_NESTING} levels`);
    try {
      return build();
    } finally {
      this.depth--;
    }
  }

  private binaryLevel(operators: readonly string[], next: () => Ast): Ast {
    let left = next();
    for (let operator = this.isOperator(...operators); operator; operator = this.isOperator(...operators)) {
      this.index++;
      left = { kind: 'binary', operator: operator as BinaryOperator, left, right: next() };
    }
    return left;
  }

  private comparison(): Ast {
    return this.nested(() => this.binaryLevel([...COMPARISONS], () => this.concatenation()));
  }

  private concatenation(): Ast {
    return this.binaryLevel(['&'], () => this.additive());
  }

  private additive(): Ast {
    return this.binaryLevel(['+', '-'], () => this.multiplicative());
  }

  private multiplicative(): Ast {
    return this.binaryLevel(['*', '/'], () => this.power());
  }

  private power(): Ast {
    return this.binaryLevel(['^'], () => this.percent());
  }

  private percent(): Ast {
    let operand = this.unary();
    while (this.isOperator('%')) {
      this.index++;
      operand = { kind: 'percent', operand };
    }
    return operand;
  }

  private unary(): Ast {
    const operator = this.isOperator('-', '+', '@');
    if (!operator) return this.intersection();
    this.index++;
    // `@A1:A9`: Excel's implicit intersection operator, stored in files as SINGLE(A1:A9)
    if (operator === '@') return this.nested(() => ({ kind: 'call', name: 'SINGLE', args: [this.intersection()] }));
    return this.nested(() => ({ kind: 'unary', operator: operator as '-' | '+', operand: this.unary() }));
  }

  private intersection(): Ast {
    return this.binaryLevel([' '], () => this.primary());
  }

  private primary(): Ast {
    const token = this.peek();
    this.index++;
    switch (token.type) {
      case 'number':
        return Number.isFinite(token.value) ? { kind: 'number', value: token.value } : { kind: 'error', code: '#NUM!' };
      case 'string':
        return { kind: 'string', value: token.value };
      case 'error':
        return { kind: 'error', code: token.code };
      case 'reference':
        return token.ast;
      case 'identifier': {
        const upper = token.name.toUpperCase();
        if (token.sheet === undefined && (upper === 'TRUE' || upper === 'FALSE')) return { kind: 'boolean', value: upper === 'TRUE' };
        const defined = this.definitions.names?.get(token.sheet === undefined ? upper : `${token.sheet.toUpperCase()}!${upper}`);
        if (defined) this.resolved = true;
        return defined ?? { kind: 'name', name: token.sheet === undefined ? token.name : `${formatSheetName(token.sheet)}!${token.name}` };
      }
      case 'structured': {
        const table = this.definitions.tables?.get(token.table.toUpperCase());
        this.resolved = true;
        return table ? structuredReference(table, token.specifier, this.definitions.row) : { kind: 'error', code: '#REF!' };
      }
      case 'function': {
        // a defined name that stands for a LAMBDA is called like a function
        const defined = this.definitions.names?.get(token.name.toUpperCase());
        if (defined && isLambda(defined)) {
          this.resolved = true;
          return this.nested(() => this.callInPlace(defined));
        }
        const called = this.nested(() => this.call(token.name));
        return isLambda(called) && this.isOperator('(') ? this.nested(() => this.callInPlace(called)) : called;
      }
      case 'operator':
        if (token.value === '{') return this.arrayConstant();
        if (token.value === '(') {
          const inner = this.nested(() => this.comparison());
          if (!this.isOperator(',')) {
            this.expect(')');
            return inner;
          }
          // a comma inside parentheses (not a function's) is the union operator: `(A1:A3,C1)`
          const areas = [inner];
          while (this.isOperator(',')) {
            this.index++;
            areas.push(this.nested(() => this.comparison()));
          }
          this.expect(')');
          return { kind: 'union', areas };
        }
        throw new ParseFailure(`unexpected "${token.value}"`);
      case 'end':
        throw new ParseFailure('the formula ends too early');
    }
  }

  /** `{1,2;3,4}` after its `{`: rows split by `;`, elements by `,`, every row as long as the first. */
  private arrayConstant(): Ast {
    const rows: ArrayElement[][] = [[]];
    for (;;) {
      rows.at(-1)!.push(this.arrayElement());
      if (this.isOperator(',')) this.index++;
      else if (this.isOperator(';')) {
        this.index++;
        rows.push([]);
      } else break;
    }
    this.expect('}');
    if (rows.some((row) => row.length !== rows[0]!.length)) throw new ParseFailure('the rows of an array constant must have the same number of values');
    return { kind: 'array', rows };
  }

  private arrayElement(): ArrayElement {
    const sign = this.isOperator('-', '+');
    if (sign) this.index++;
    const token = this.peek();
    this.index++;
    if (token.type === 'number') return { kind: 'number', value: sign === '-' ? -token.value : token.value };
    if (sign) throw new ParseFailure('an array constant holds numbers, text, TRUE, FALSE or error values only');
    if (token.type === 'string') return { kind: 'string', value: token.value };
    if (token.type === 'error') return { kind: 'error', code: token.code };
    if (token.type === 'identifier' && token.sheet === undefined && /^(TRUE|FALSE)$/i.test(token.name)) return { kind: 'boolean', value: token.name.toUpperCase() === 'TRUE' };
    throw new ParseFailure('an array constant holds numbers, text, TRUE, FALSE or error values only');
  }

  /** The values a LAMBDA is called with, `(2)` after `LAMBDA(x, x+1)`. */
  private callInPlace(lambda: Ast): Ast {
    const values = this.call(CALLED_IN_PLACE);
    return { kind: 'call', name: CALLED_IN_PLACE, args: [lambda, ...(values.kind === 'call' ? values.args : [])] };
  }

  private call(name: string): Ast {
    this.expect('(');
    const args: Ast[] = [];
    if (this.isOperator(')')) {
      this.index++;
      return { kind: 'call', name, args };
    }
    for (;;) {
      args.push(this.isOperator(',', ')') ? { kind: 'missing' } : this.comparison());
      if (this.isOperator(',')) {
        this.index++;
        continue;
      }
      this.expect(')');
      return { kind: 'call', name, args };
    }
  }
}

function isLambda(ast: Ast): boolean {
  return ast.kind === 'call' && ast.name === 'LAMBDA';
}

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end of the formula';
    case 'operator':
      return `"${token.value}"`;
    case 'identifier':
    case 'function':
      return `"${token.name}"`;
    case 'structured':
      return `"${token.table}[${token.specifier}]"`;
    default:
      return `a ${token.type}`;
  }
}

const SPECIAL_ITEMS = ['#ALL', '#DATA', '#HEADERS', '#TOTALS', '#THIS ROW'] as const;
type SpecialItem = (typeof SPECIAL_ITEMS)[number];

/** The items of a specifier: `[#Headers],[Col]`, `[Col1]:[Col2]`, `Col`, `@Col`, `@[Col]`, `` (the data). */
function specifierItems(specifier: string): { specials: SpecialItem[]; columns: string[] } {
  const specials: SpecialItem[] = [];
  const columns: string[] = [];
  const unescape = (name: string) => name.replace(/'(.)/g, '$1');
  const add = (item: string) => {
    const special = SPECIAL_ITEMS.find((candidate) => candidate === item.trim().toUpperCase());
    if (special) specials.push(special);
    else if (item.trim() !== '') columns.push(unescape(item));
  };
  let body = specifier.trim();
  if (body.startsWith('@')) {
    specials.push('#THIS ROW');
    body = body.slice(1).trim();
  }
  if (!body.startsWith('[')) {
    add(body);
    return { specials, columns };
  }
  for (let i = 0; i < body.length; ) {
    if (body[i] !== '[') {
      i++;
      continue;
    }
    const end = closingBracket(body, i);
    add(body.slice(i + 1, end));
    i = end + 1;
  }
  return { specials, columns };
}

/** A structured reference to a table as the cell or range it stands for (anchored, on the table's sheet). */
function structuredReference(table: TableDefinition, specifier: string, row: number | undefined): Ast {
  const { specials, columns } = specifierItems(specifier);
  const firstData = table.startRow + table.headerRows;
  const lastData = table.endRow - table.totalsRows;
  const spans: Array<[number, number]> = (specials.length === 0 ? (['#DATA'] as SpecialItem[]) : specials).map((special) => {
    switch (special) {
      case '#ALL':
        return [table.startRow, table.endRow];
      case '#DATA':
        return [firstData, lastData];
      case '#HEADERS':
        return [table.startRow, firstData - 1];
      case '#TOTALS':
        return [lastData + 1, table.endRow];
      case '#THIS ROW':
        return row !== undefined && row >= firstData && row <= lastData ? [row, row] : [-1, -1];
    }
  });
  const startRow = Math.min(...spans.map(([start]) => start));
  const endRow = Math.max(...spans.map(([, end]) => end));
  const indexes = columns.map((name) => table.columns.findIndex((column) => column.toUpperCase() === name.toUpperCase()));
  if (startRow < 0 || endRow < startRow || indexes.some((index) => index < 0)) return { kind: 'error', code: '#REF!' };
  const startColumn = table.startColumn + (indexes.length === 0 ? 0 : Math.min(...indexes));
  const endColumn = table.startColumn + (indexes.length === 0 ? table.columns.length - 1 : Math.max(...indexes));
  if (startRow === endRow && startColumn === endColumn) return { kind: 'cell', sheet: table.sheet, row: startRow, column: startColumn, rowAbsolute: true, columnAbsolute: true };
  return {
    kind: 'range', sheet: table.sheet, shape: 'cells', startRow, endRow, startColumn, endColumn,
    startRowAbsolute: true, endRowAbsolute: true, startColumnAbsolute: true, endColumnAbsolute: true,
  };
}

/** The operands or arguments of a node. */
export function childrenOf(ast: Ast): Ast[] {
  switch (ast.kind) {
    case 'unary':
    case 'percent':
      return [ast.operand];
    case 'binary':
      return [ast.left, ast.right];
    case 'call':
      return ast.args;
    case 'union':
      return ast.areas;
    default:
      return [];
  }
}

/** The tree's height, without recursion. */
function heightOf(root: Ast): number {
  let height = 0;
  const pending: Array<[Ast, number]> = [[root, 1]];
  while (pending.length > 0) {
    const [node, level] = pending.pop()!;
    if (level > height) height = level;
    for (const child of childrenOf(node)) pending.push([child, level + 1]);
  }
  return height;
}

/** Parses formula text, with or without its leading "=". Never throws. */
export function parseFormula(text: string, definitions: ParseDefinitions = {}): ParseResult {
  if (text.length > MAX_FORMULA_LENGTH) return { ok: false, reason: `formulas are at most ${MAX_FORMULA_LENGTH} characters` };
  try {
    const tokens = tokenize(text, text.startsWith('=') ? 1 : 0);
    const ast = new Parser(tokens, definitions).parse();
    // operator chains (A1+A2+…) are built in loops, not recursion: their height is checked afterwards
    if (heightOf(ast) > MAX_FORMULA_DEPTH) return { ok: false, reason: `the formula nests deeper than ${MAX_FORMULA_DEPTH} levels` };
    return { ok: true, ast };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, reason: error.message };
    if (error instanceof RangeError) return { ok: false, reason: 'the formula is too complex' };
    throw error;
  }
}

/**
 * The reference tokens of formula text (with or without its "="), in text order, as the parser reads them; undefined
 * when the text does not split into tokens (a quote not closed, an unknown character). The text around them is not
 * checked further: formulas/relative.ts rewrites their coordinates in place.
 */
export function writtenReferences(text: string): WrittenReference[] | undefined {
  const written: WrittenReference[] = [];
  try {
    tokenize(text, text.startsWith('=') ? 1 : 0, written);
    return written;
  } catch (error) {
    if (error instanceof ParseFailure) return undefined;
    throw error;
  }
}

/**
 * The formula with the workbook's defined names and table references written as the references they stand for
 * (`=SUM(Sales[Amount])` → `=SUM(Data!$C$2:$C$40)`), or the text unchanged when it names none (or does not parse).
 */
export function inlineDefinitions(text: string, definitions: ParseDefinitions): string {
  if (text.length > MAX_FORMULA_LENGTH) return text;
  try {
    const parser = new Parser(tokenize(text, text.startsWith('=') ? 1 : 0), definitions);
    const ast = parser.parse();
    return parser.resolved ? formatFormula(ast) : text;
  } catch (error) {
    if (error instanceof ParseFailure || error instanceof RangeError) return text;
    throw error;
  }
}

/** Binding strength of a node as an operand: higher binds tighter. */
function strength(ast: Ast): number {
  switch (ast.kind) {
    case 'binary':
      if (ast.operator === ' ') return 8;
      if (COMPARISONS.has(ast.operator)) return 1;
      if (ast.operator === '&') return 2;
      if (ast.operator === '+' || ast.operator === '-') return 3;
      if (ast.operator === '*' || ast.operator === '/') return 4;
      return 5;
    case 'percent':
      return 6;
    case 'unary':
      return 7;
    default:
      return 9;
  }
}

function sheetPrefix(sheet: string | null): string {
  return sheet === null ? '' : `${formatSheetName(sheet)}!`;
}

function formatNumber(value: number): string {
  const text = numberToText(value);
  // the shortest text may lose digits: keep the exact value when it does
  return Number(text) === value ? text : String(value);
}

function formatAst(ast: Ast): string {
  switch (ast.kind) {
    case 'number':
      return formatNumber(ast.value);
    case 'string':
      return `"${ast.value.replace(/"/g, '""')}"`;
    case 'boolean':
      return ast.value ? 'TRUE' : 'FALSE';
    case 'error':
      return ast.code;
    case 'name':
      return ast.name;
    case 'missing':
      return '';
    case 'cell':
      return `${sheetPrefix(ast.sheet)}${ast.columnAbsolute ? '$' : ''}${columnLetters(ast.column)}${ast.rowAbsolute ? '$' : ''}${ast.row + 1}`;
    case 'range': {
      const column = (index: number, absolute: boolean) => `${absolute ? '$' : ''}${columnLetters(index)}`;
      const row = (index: number, absolute: boolean) => `${absolute ? '$' : ''}${index + 1}`;
      const reference =
        ast.shape === 'columns'
          ? `${column(ast.startColumn, ast.startColumnAbsolute)}:${column(ast.endColumn, ast.endColumnAbsolute)}`
          : ast.shape === 'rows'
            ? `${row(ast.startRow, ast.startRowAbsolute)}:${row(ast.endRow, ast.endRowAbsolute)}`
            : `${column(ast.startColumn, ast.startColumnAbsolute)}${row(ast.startRow, ast.startRowAbsolute)}:${column(ast.endColumn, ast.endColumnAbsolute)}${row(ast.endRow, ast.endRowAbsolute)}`;
      return `${sheetPrefix(ast.sheet)}${reference}`;
    }
    case 'unary': {
      const operand = formatAst(ast.operand);
      // "--1" would still parse, but "- -1" keeps a second minus readable
      return `${ast.operator}${strength(ast.operand) < 7 || ast.operand.kind === 'unary' ? `(${operand})` : operand}`;
    }
    case 'percent':
      return `${strength(ast.operand) < 6 ? `(${formatAst(ast.operand)})` : formatAst(ast.operand)}%`;
    case 'binary': {
      const own = strength(ast);
      // operators group left to right: a right operand of the same strength needs parentheses
      const left = strength(ast.left) < own ? `(${formatAst(ast.left)})` : formatAst(ast.left);
      const right = strength(ast.right) <= own ? `(${formatAst(ast.right)})` : formatAst(ast.right);
      return `${left}${ast.operator}${right}`;
    }
    case 'union':
      return `(${ast.areas.map(formatAst).join(',')})`;
    case 'cube': {
      const plain = formatSheetName(ast.first) === ast.first && formatSheetName(ast.last) === ast.last;
      const sheets = plain ? `${ast.first}:${ast.last}` : `'${`${ast.first}:${ast.last}`.replace(/'/g, "''")}'`;
      return `${sheets}!${formatAst(ast.reference)}`;
    }
    case 'call':
      if (ast.name === 'ANCHORARRAY' && ast.args.length === 1 && ast.args[0]!.kind === 'cell') return `${formatAst(ast.args[0]!)}#`;
      if (ast.name === CALLED_IN_PLACE && ast.args.length > 0) return `${formatAst(ast.args[0]!)}(${ast.args.slice(1).map(formatAst).join(',')})`;
      if (ast.name === 'SINGLE' && ast.args.length === 1) return `@${strength(ast.args[0]!) < 8 ? `(${formatAst(ast.args[0]!)})` : formatAst(ast.args[0]!)}`;
      return `${ast.name}(${ast.args.map(formatAst).join(',')})`;
    case 'array':
      return `{${ast.rows.map((row) => row.map(formatAst).join(',')).join(';')}}`;
  }
}

/** Formula text for a tree, with its "=": `parseFormula(formatFormula(ast))` gives `ast` back. */
export function formatFormula(ast: Ast): string {
  return `=${formatAst(ast)}`;
}

/**
 * Formula text (without its "=") as a workbook file stores it: functions newer than Excel 2007 with their `_xlfn.`
 * prefix (`rename` gives each call's stored name), and the names a LET or LAMBDA defines with Excel's `_xlpm.` prefix. Text
 * that does not parse, or has no such call, is kept as it is.
 */
export function storedFormula(text: string, rename: (name: string) => string): string {
  const parsed = parseFormula(text);
  if (!parsed.ok) return text;
  let renamed = false;
  const parameters = new Set<string>();
  const visit = (node: Ast): Ast => {
    if (node.kind === 'name' && parameters.has(node.name.toUpperCase())) return { ...node, name: `_xlpm.${node.name}` };
    if (node.kind === 'call') {
      const name = rename(node.name);
      if (name !== node.name) renamed = true;
      // the names LET defines (every other argument before the last) and a LAMBDA's parameters (all but the last)
      const defines = node.name === 'LET' ? (index: number) => index % 2 === 0 : node.name === 'LAMBDA' ? () => true : undefined;
      if (defines) node.args.forEach((arg, index) => defines(index) && index < node.args.length - 1 && arg.kind === 'name' && parameters.add(arg.name.toUpperCase()));
      return { ...node, name, args: node.args.map(visit) };
    }
    switch (node.kind) {
      case 'unary':
      case 'percent':
        return { ...node, operand: visit(node.operand) };
      case 'binary':
        return { ...node, left: visit(node.left), right: visit(node.right) };
      case 'union':
        return { ...node, areas: node.areas.map(visit) };
      default:
        return node;
    }
  };
  const stored = visit(parsed.ast);
  return renamed ? formatAst(stored) : text;
}
