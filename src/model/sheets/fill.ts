import type { Cell } from '../content.js';
import { isEmptyCell } from './cells.js';
import { copyFormula } from './formula-copy.js';

/**
 * Filling cells from a source line, as the fill handle, Ctrl+D and Ctrl+R do in spreadsheets (docs/SHEETS.md
 * "Copying and filling formulas"): the source repeats along the fill, formulas copied with their relative references
 * moved by the distance they travel, numbers of a source of two or more numbers continued as a series (1, 2 → 3, 4, …;
 * 10, 8 → 6, 4, …), each cell taking the number format and style of the source cell it comes from.
 */

/** Which way a fill goes from its source: down or right (1), up or left (-1). */
export type FillDirection = 1 | -1;

/** The step of a linear series when every source cell is a typed number (at least two of them), else undefined. */
function seriesStep(source: readonly (Cell | undefined)[]): number | undefined {
  if (source.length < 2) return undefined;
  const numbers: number[] = [];
  for (const cell of source) {
    if (cell === undefined || typeof cell.f === 'string' || typeof cell.v !== 'number') return undefined;
    numbers.push(cell.v);
  }
  // the least-squares slope over the positions, which is the common step when the numbers are evenly spaced
  const n = numbers.length;
  const meanX = (n - 1) / 2;
  const meanY = numbers.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  numbers.forEach((value, index) => {
    covariance += (index - meanX) * (value - meanY);
    variance += (index - meanX) ** 2;
  });
  return covariance / variance;
}

/** The number `step` away from the trend's value at position `at`, rounded where floating point adds noise (0.1 + 0.2). */
function seriesValue(source: readonly (Cell | undefined)[], step: number, at: number): number {
  const n = source.length;
  const mean = source.reduce((sum, cell) => sum + (cell!.v as number), 0) / n;
  const value = mean + step * (at - (n - 1) / 2);
  return Number(value.toPrecision(15));
}

/**
 * What the `count` cells next to a source line hold after a fill: index 0 is the cell next to the source, 1 the one
 * after it, and so on, in the fill's direction. `along` says whether the line runs down a column (rows) or along a row
 * (columns), which is the axis formulas move on. null: the cell is cleared (an empty source cell).
 */
export function fillLine(source: readonly (Cell | undefined)[], count: number, direction: FillDirection, along: 'rows' | 'columns'): Array<Cell | null> {
  const n = source.length;
  const step = seriesStep(source);
  const filled: Array<Cell | null> = [];
  for (let k = 0; k < count; k++) {
    // the position of the target on the line, the source being 0 … n-1
    const at = direction === 1 ? n + k : -1 - k;
    const from = direction === 1 ? k % n : n - 1 - (k % n);
    const origin = source[from];
    if (origin === undefined) {
      filled.push(null);
      continue;
    }
    const cell: Cell = { ...origin };
    delete cell.img;
    if (step !== undefined) cell.v = seriesValue(source, step, at);
    else if (typeof origin.f === 'string') {
      const distance = at - from;
      cell.f = along === 'rows' ? copyFormula(origin.f, distance, 0) : copyFormula(origin.f, 0, distance);
    }
    filled.push(isEmptyCell(cell) && cell.z === undefined && cell.s === undefined ? null : cell);
  }
  return filled;
}
