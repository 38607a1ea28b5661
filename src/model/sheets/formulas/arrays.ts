import { arrayArg, isRange, optionalInteger, scalar, type Arg, type FormulaFunction } from './args.js';
import { MAX_ARRAY_CELLS } from './lifting.js';
import { Err, FormulaError, compareValues, toBoolean, toNumber, toText, type CellValue } from './values.js';

/**
 * Excel's dynamic-array functions: they answer arrays, which a formula spills into the cells below and to the
 * right (workbook.ts) or another function reads as a range. Written here rather than taken from
 * @formulajs/formulajs: the library lacks SEQUENCE, SORTBY, FILTER, TOCOL and TEXTSPLIT, and its SORT and UNIQUE
 * compare as JavaScript does, not in Excel's order (numbers, text ignoring case, booleans; errors last).
 */

type Grid = CellValue[][];

/** An argument as rows of values: a range or an array as it is, a single value as a 1×1 array. */
function gridOf(arg: Arg): Grid {
  if (!isRange(arg)) return [[arg]];
  const rows: Grid = [];
  for (let row = 0; row < arg.rows; row++) {
    const line: CellValue[] = [];
    for (let column = 0; column < arg.columns; column++) line.push(arg.get(row, column));
    rows.push(line);
  }
  return rows;
}

/** An array result: no rows or columns is #CALC! (Excel's empty array). */
function arrayOf(rows: Grid): Arg {
  return rows.length === 0 || rows[0]!.length === 0 ? Err.calc : arrayArg(rows);
}

function transposed(rows: Grid): Grid {
  return (rows[0] ?? []).map((_, column) => rows.map((line) => line[column] ?? null));
}

/** A whole-number argument, or its default when left out; `check` refuses values out of range with #VALUE!. */
function integer(arg: Arg | undefined, fallback: number, check: (value: number) => boolean = () => true): number | FormulaError {
  const value = optionalInteger(arg, fallback);
  if (value instanceof FormulaError) return value;
  return check(value) ? value : Err.value;
}

function flag(arg: Arg | undefined): boolean | FormulaError {
  return arg === undefined || arg === null ? false : toBoolean(scalar(arg));
}

/** Excel's sort order: numbers, then text (ignoring case), then booleans, then errors; empty values last of all. */
function sortOrder(a: CellValue, b: CellValue): number {
  const rank = (value: CellValue) => (value === null ? 4 : value instanceof FormulaError ? 3 : 0);
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb || ra !== 0) return ra - rb;
  return compareValues(a as Exclude<CellValue, FormulaError>, b as Exclude<CellValue, FormulaError>);
}

/** Orders lines (rows, or columns when `byColumn`) by keys; a stable sort, as Excel's. */
function sortLines(rows: Grid, keys: Array<{ values: CellValue[]; descending: boolean }>, byColumn: boolean): Grid {
  const lines = byColumn ? transposed(rows) : rows;
  const order = lines.map((_, index) => index);
  order.sort((i, j) => {
    for (const key of keys) {
      const comparison = sortOrder(key.values[i] ?? null, key.values[j] ?? null);
      if (comparison !== 0) return key.descending ? -comparison : comparison;
    }
    return i - j;
  });
  const sorted = order.map((index) => lines[index]!);
  return byColumn ? transposed(sorted) : sorted;
}

/** SORT(array, [sort_index], [sort_order], [by_col]) */
const sort: FormulaFunction = {
  minArgs: 1,
  maxArgs: 4,
  call([array = null, index, order, byCol]) {
    if (array instanceof FormulaError) return array;
    const rows = gridOf(array);
    const byColumn = flag(byCol);
    if (byColumn instanceof FormulaError) return byColumn;
    const width = byColumn ? rows.length : rows[0]!.length;
    const at = integer(index, 1, (value) => value >= 1 && value <= width);
    if (at instanceof FormulaError) return at;
    const direction = integer(order, 1, (value) => value === 1 || value === -1);
    if (direction instanceof FormulaError) return direction;
    const values = byColumn ? rows[at - 1]! : rows.map((line) => line[at - 1]!);
    return arrayOf(sortLines(rows, [{ values, descending: direction === -1 }], byColumn));
  },
};

/** SORTBY(array, by_array1, [sort_order1], …): each by-array one row or column as long as the array. */
const sortBy: FormulaFunction = {
  minArgs: 2,
  maxArgs: 253,
  call([array = null, ...pairs]) {
    if (array instanceof FormulaError) return array;
    const rows = gridOf(array);
    const keys: Array<{ values: CellValue[]; descending: boolean }> = [];
    let byColumn: boolean | undefined;
    for (let i = 0; i < pairs.length; i += 2) {
      const by = pairs[i] ?? null;
      if (by instanceof FormulaError) return by;
      const grid = gridOf(by);
      const vertical = grid[0]!.length === 1 && grid.length === rows.length;
      const horizontal = grid.length === 1 && grid[0]!.length === rows[0]!.length;
      // one column sorts rows, one row sorts columns; all by-arrays the same way
      const column = vertical ? false : horizontal ? true : undefined;
      if (column === undefined || (byColumn !== undefined && byColumn !== column)) return Err.value;
      byColumn = column;
      const direction = integer(pairs[i + 1], 1, (value) => value === 1 || value === -1);
      if (direction instanceof FormulaError) return direction;
      keys.push({ values: column ? grid[0]! : grid.map((line) => line[0]!), descending: direction === -1 });
    }
    return arrayOf(sortLines(rows, keys, byColumn ?? false));
  },
};

/** FILTER(array, include, [if_empty]): the rows (or columns) whose `include` value is true or a non-zero number. */
const filter: FormulaFunction = {
  minArgs: 2,
  maxArgs: 3,
  call([array = null, include = null, ifEmpty]) {
    if (array instanceof FormulaError) return array;
    if (include instanceof FormulaError) return include;
    const rows = gridOf(array);
    const test = gridOf(include);
    const byRow = test[0]!.length === 1 && test.length === rows.length;
    const byColumn = test.length === 1 && test[0]!.length === rows[0]!.length;
    if (!byRow && !byColumn) return Err.value;
    const flags = byRow ? test.map((line) => line[0]!) : test[0]!;
    const keep: boolean[] = [];
    for (const value of flags) {
      const kept = toBoolean(value);
      if (kept instanceof FormulaError) return kept;
      keep.push(kept);
    }
    const kept = byRow ? rows.filter((_, index) => keep[index]) : rows.map((line) => line.filter((_, index) => keep[index]));
    if (kept.length === 0 || kept[0]!.length === 0) return ifEmpty === undefined ? Err.calc : ifEmpty;
    return arrayArg(kept);
  },
};

/** UNIQUE(array, [by_col], [exactly_once]): lines compared by value, text ignoring case, in their first order. */
const unique: FormulaFunction = {
  minArgs: 1,
  maxArgs: 3,
  call([array = null, byCol, once]) {
    if (array instanceof FormulaError) return array;
    const byColumn = flag(byCol);
    if (byColumn instanceof FormulaError) return byColumn;
    const exactlyOnce = flag(once);
    if (exactlyOnce instanceof FormulaError) return exactlyOnce;
    const lines = byColumn ? transposed(gridOf(array)) : gridOf(array);
    const keyOf = (line: CellValue[]) => JSON.stringify(line.map((value) => (value instanceof FormulaError ? `!${value.code}` : typeof value === 'string' ? `s${value.toLowerCase()}` : value)));
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(keyOf(line), (counts.get(keyOf(line)) ?? 0) + 1);
    const seen = new Set<string>();
    const kept = lines.filter((line) => {
      const key = keyOf(line);
      if (seen.has(key) || (exactlyOnce && counts.get(key)! > 1)) return false;
      seen.add(key);
      return true;
    });
    return arrayOf(byColumn ? transposed(kept) : kept);
  },
};


function size(rowsArg: Arg | undefined, columnsArg: Arg | undefined): { rows: number; columns: number } | FormulaError {
  const rows = integer(rowsArg, 1);
  if (rows instanceof FormulaError) return rows;
  const columns = integer(columnsArg, 1);
  if (columns instanceof FormulaError) return columns;
  if (rows < 0 || columns < 0) return Err.value;
  if (rows === 0 || columns === 0) return Err.calc;
  if (rows * columns > MAX_ARRAY_CELLS) return Err.num;
  return { rows, columns };
}

function number(arg: Arg | undefined, fallback: number): number | FormulaError {
  return arg === undefined || arg === null ? fallback : toNumber(scalar(arg));
}

/** SEQUENCE(rows, [columns], [start], [step]): numbers along each row, then down. */
const sequence: FormulaFunction = {
  minArgs: 1,
  maxArgs: 4,
  call([rowsArg, columnsArg, startArg, stepArg]) {
    const shape = size(rowsArg, columnsArg);
    if (shape instanceof FormulaError) return shape;
    const start = number(startArg, 1);
    if (start instanceof FormulaError) return start;
    const step = number(stepArg, 1);
    if (step instanceof FormulaError) return step;
    return arrayArg(Array.from({ length: shape.rows }, (_, row) => Array.from({ length: shape.columns }, (_, column) => start + step * (row * shape.columns + column))));
  },
};

/** RANDARRAY([rows], [columns], [min], [max], [integer]): recomputed after every change, as RAND. */
const randArray: FormulaFunction = {
  minArgs: 0,
  maxArgs: 5,
  volatile: 'always',
  call([rowsArg, columnsArg, minArg, maxArg, wholeArg]) {
    const shape = size(rowsArg, columnsArg);
    if (shape instanceof FormulaError) return shape;
    const min = number(minArg, 0);
    if (min instanceof FormulaError) return min;
    const max = number(maxArg, 1);
    if (max instanceof FormulaError) return max;
    const whole = flag(wholeArg);
    if (whole instanceof FormulaError) return whole;
    if (max < min || (whole && (!Number.isInteger(min) || !Number.isInteger(max)))) return Err.value;
    const draw = () => (whole ? min + Math.floor(Math.random() * (max - min + 1)) : min + Math.random() * (max - min));
    return arrayArg(Array.from({ length: shape.rows }, () => Array.from({ length: shape.columns }, draw)));
  },
};

const transpose: FormulaFunction = {
  minArgs: 1,
  maxArgs: 1,
  call([array = null]) {
    return array instanceof FormulaError ? array : arrayOf(transposed(gridOf(array)));
  },
};

/** TOCOL / TOROW(array, [ignore: 0 none, 1 blanks, 2 errors, 3 both], [scan_by_column]) */
function flatten(into: 'column' | 'row'): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 3,
    call([array = null, ignoreArg, scanArg]) {
      if (array instanceof FormulaError) return array;
      const ignore = integer(ignoreArg, 0, (value) => value >= 0 && value <= 3);
      if (ignore instanceof FormulaError) return ignore;
      const byColumn = flag(scanArg);
      if (byColumn instanceof FormulaError) return byColumn;
      const values = (byColumn ? transposed(gridOf(array)) : gridOf(array)).flat().filter((value) => !((ignore & 1 && value === null) || (ignore & 2 && value instanceof FormulaError)));
      return arrayOf(into === 'column' ? values.map((value) => [value]) : [values]);
    },
  };
}

/** CHOOSEROWS / CHOOSECOLS(array, n1, …): negative numbers count from the end. */
function choose(axis: 'rows' | 'columns'): FormulaFunction {
  return {
    minArgs: 2,
    maxArgs: 254,
    call([array = null, ...picks]) {
      if (array instanceof FormulaError) return array;
      const lines = axis === 'rows' ? gridOf(array) : transposed(gridOf(array));
      const chosen: Grid = [];
      for (const pick of picks) {
        for (const value of gridOf(pick ?? null).flat()) {
          const index = toNumber(value);
          if (index instanceof FormulaError) return index;
          const at = Math.trunc(index);
          const line = at > 0 ? lines[at - 1] : at < 0 ? lines[lines.length + at] : undefined;
          if (!line) return Err.value;
          chosen.push(line);
        }
      }
      return arrayOf(axis === 'rows' ? chosen : transposed(chosen));
    },
  };
}

/** TAKE / DROP(array, rows, [columns]): from the start, or the end when negative. */
function slice(keep: boolean): FormulaFunction {
  return {
    minArgs: 2,
    maxArgs: 3,
    call([array = null, rowsArg, columnsArg]) {
      if (array instanceof FormulaError) return array;
      const rows = gridOf(array);
      const cut = <T>(items: T[], countArg: Arg | undefined): T[] | FormulaError => {
        if (countArg === undefined || countArg === null) return items;
        const count = integer(countArg, 0);
        if (count instanceof FormulaError) return count;
        if (keep) return count >= 0 ? items.slice(0, count) : items.slice(Math.max(0, items.length + count));
        return count >= 0 ? items.slice(count) : items.slice(0, Math.max(0, items.length + count));
      };
      const kept = cut(rows, rowsArg);
      if (kept instanceof FormulaError) return kept;
      const result: Grid = [];
      for (const line of kept) {
        const part = cut(line, columnsArg);
        if (part instanceof FormulaError) return part;
        result.push(part);
      }
      return arrayOf(result);
    },
  };
}

/** HSTACK / VSTACK(array1, …): side by side or one under another; shorter arrays padded with #N/A, as Excel. */
function stack(direction: 'horizontal' | 'vertical'): FormulaFunction {
  return {
    minArgs: 1,
    maxArgs: 254,
    call(arrays) {
      const grids = arrays.map((array) => (direction === 'vertical' ? gridOf(array) : transposed(gridOf(array))));
      const width = Math.max(...grids.map((grid) => grid[0]!.length));
      const stacked = grids.flatMap((grid) => grid.map((line) => [...line, ...Array<CellValue>(width - line.length).fill(Err.na)]));
      return arrayOf(direction === 'vertical' ? stacked : transposed(stacked));
    },
  };
}

/** TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty], [match_mode], [pad_with]) */
const textSplit: FormulaFunction = {
  minArgs: 2,
  maxArgs: 6,
  call([textArg = null, columnArg = null, rowArg, ignoreArg, modeArg, padArg]) {
    const text = scalar(textArg);
    if (text instanceof FormulaError) return text;
    const delimiters = (arg: Arg | undefined): string[] | FormulaError => {
      if (arg === undefined || arg === null) return [];
      const found: string[] = [];
      for (const value of gridOf(arg).flat()) {
        if (value instanceof FormulaError) return value;
        if (value !== null && toText(value) !== '') found.push(toText(value));
      }
      return found;
    };
    const columnDelimiters = delimiters(columnArg);
    if (columnDelimiters instanceof FormulaError) return columnDelimiters;
    const rowDelimiters = delimiters(rowArg);
    if (rowDelimiters instanceof FormulaError) return rowDelimiters;
    if (columnDelimiters.length === 0 && rowDelimiters.length === 0) return Err.value;
    const ignoreEmpty = flag(ignoreArg);
    if (ignoreEmpty instanceof FormulaError) return ignoreEmpty;
    const ignoreCase = integer(modeArg, 0, (value) => value === 0 || value === 1);
    if (ignoreCase instanceof FormulaError) return ignoreCase;
    const pad = padArg === undefined ? Err.na : scalar(padArg);
    const split = (value: string, by: string[]): string[] => {
      if (by.length === 0) return [value];
      const pattern = new RegExp(by.map((delimiter) => delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), ignoreCase ? 'gi' : 'g');
      const parts = value.split(pattern);
      return ignoreEmpty ? parts.filter((part) => part !== '') : parts;
    };
    const lines = split(toText(text), rowDelimiters).map((line) => split(line, columnDelimiters));
    const width = Math.max(...lines.map((line) => line.length));
    return arrayOf(lines.filter((line) => line.length > 0).map((line): CellValue[] => [...line, ...Array<CellValue>(width - line.length).fill(pad)]));
  },
};

/** WRAPROWS / WRAPCOLS(vector, wrap_count, [pad_with]): a row or column cut into rows (columns) of that many values, the last padded (#N/A). */
function wrap(into: 'rows' | 'columns'): FormulaFunction {
  return {
    minArgs: 2,
    maxArgs: 3,
    call([vector = null, countArg, padArg]) {
      if (vector instanceof FormulaError) return vector;
      const rows = gridOf(vector);
      if (rows.length > 1 && rows[0]!.length > 1) return Err.value;
      const count = integer(countArg, 0);
      if (count instanceof FormulaError) return count;
      if (count < 1) return Err.num;
      const pad = padArg === undefined ? Err.na : scalar(padArg);
      const values = rows.flat();
      const lines: Grid = [];
      for (let start = 0; start < values.length; start += count) {
        const line = values.slice(start, start + count);
        lines.push([...line, ...Array<CellValue>(count - line.length).fill(pad)]);
      }
      return arrayOf(into === 'rows' ? lines : transposed(lines));
    },
  };
}

/** EXPAND(array, rows, [columns], [pad_with]): the array grown to that size, the new cells padded (#N/A); smaller is #VALUE!. */
const expand: FormulaFunction = {
  minArgs: 2,
  maxArgs: 4,
  call([array = null, rowsArg, columnsArg, padArg]) {
    if (array instanceof FormulaError) return array;
    const rows = gridOf(array);
    const height = integer(rowsArg ?? null, rows.length);
    if (height instanceof FormulaError) return height;
    const width = integer(columnsArg ?? null, rows[0]!.length);
    if (width instanceof FormulaError) return width;
    if (height < rows.length || width < rows[0]!.length) return Err.value;
    if (height * width > MAX_ARRAY_CELLS) return Err.num;
    const pad = padArg === undefined ? Err.na : scalar(padArg);
    return arrayOf(Array.from({ length: height }, (_, row) => Array.from({ length: width }, (_, column) => (row < rows.length && column < rows[0]!.length ? rows[row]![column]! : pad))));
  },
};

/**
 * TEXTBEFORE / TEXTAFTER(text, delimiter, [instance_num], [match_mode], [match_end], [if_not_found]): the text
 * before (after) the nth delimiter (one of several when an array), counted from the end when negative; match_mode 1
 * ignores case; match_end counts the end (the start, counting back) of the text as a delimiter. Not found is
 * if_not_found, else #N/A; instance 0 or longer than the text is #VALUE!. An empty delimiter matches at once (the
 * start; the end counting back).
 */
function textAround(side: 'before' | 'after'): FormulaFunction {
  return {
    minArgs: 2,
    maxArgs: 6,
    call([textArg = null, delimiterArg = null, instanceArg, modeArg, endArg, notFoundArg]) {
      const value = scalar(textArg);
      if (value instanceof FormulaError) return value;
      const text = toText(value);
      const delimiters: string[] = [];
      for (const delimiter of gridOf(delimiterArg).flat()) {
        if (delimiter instanceof FormulaError) return delimiter;
        delimiters.push(toText(delimiter));
      }
      const instance = integer(instanceArg ?? null, 1);
      if (instance instanceof FormulaError) return instance;
      if (instance === 0 || Math.abs(instance) > Math.max(1, text.length)) return Err.value;
      const ignoreCase = integer(modeArg ?? null, 0, (mode) => mode === 0 || mode === 1);
      if (ignoreCase instanceof FormulaError) return ignoreCase;
      const matchEnd = flag(endArg);
      if (matchEnd instanceof FormulaError) return matchEnd;
      const matches: Array<{ start: number; end: number }> = [];
      if (delimiters.some((delimiter) => delimiter === '')) matches.push(instance > 0 ? { start: 0, end: 0 } : { start: text.length, end: text.length });
      else {
        const pattern = new RegExp(delimiters.map((delimiter) => delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), ignoreCase ? 'gi' : 'g');
        for (const match of text.matchAll(pattern)) matches.push({ start: match.index, end: match.index + match[0].length });
        if (matchEnd) {
          if (instance > 0) matches.push({ start: text.length, end: text.length });
          else matches.unshift({ start: 0, end: 0 });
        }
      }
      const found = instance > 0 ? matches[instance - 1] : matches[matches.length + instance];
      if (!found) return notFoundArg === undefined ? Err.na : scalar(notFoundArg);
      return side === 'before' ? text.slice(0, found.start) : text.slice(found.end);
    },
  };
}

export const ARRAY_FUNCTIONS: ReadonlyArray<[string, FormulaFunction]> = [
  ['SEQUENCE', sequence],
  ['SORT', sort],
  ['SORTBY', sortBy],
  ['FILTER', filter],
  ['UNIQUE', unique],
  ['RANDARRAY', randArray],
  ['TRANSPOSE', transpose],
  ['TOCOL', flatten('column')],
  ['TOROW', flatten('row')],
  ['CHOOSEROWS', choose('rows')],
  ['CHOOSECOLS', choose('columns')],
  ['TAKE', slice(true)],
  ['DROP', slice(false)],
  ['HSTACK', stack('horizontal')],
  ['VSTACK', stack('vertical')],
  ['TEXTSPLIT', textSplit],
  ['WRAPROWS', wrap('rows')],
  ['WRAPCOLS', wrap('columns')],
  ['EXPAND', expand],
  ['TEXTBEFORE', textAround('before')],
  ['TEXTAFTER', textAround('after')],
];
