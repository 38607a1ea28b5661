import { ApiError, Errors } from '../../errors.js';
import { A1SyntaxError, MAX_COLUMNS, MAX_ROWS, parseA1 } from '../../model/sheets/a1.js';

/** Most cells one `cells-image` call may ask about. */
export const MAX_CELL_POSITIONS = 1000;

/** A cell by its zero-based position. */
export interface CellPosition {
  row: number;
  column: number;
}

function invalid(message: string): ApiError {
  return new ApiError(Errors.invalidCellImageParams, message);
}

/** One cell in A1 without a sheet name (`B2`, `$B$2`); undefined for anything else (a range, a sheet, bad text). */
export function parseCellA1(text: string): CellPosition | undefined {
  try {
    const range = parseA1(text);
    if (range.sheetName !== null || range.startRow !== range.endRow || range.startColumn !== range.endColumn) return undefined;
    return { row: range.startRow, column: range.startColumn };
  } catch (error) {
    if (error instanceof A1SyntaxError) return undefined;
    throw error;
  }
}

function isIndex(value: unknown, limit: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < limit;
}

/**
 * The `cellsPosition` of `cells-image` (client-kits.md leaves the item shape open; docs/SHEETS.md "Images in
 * cells"): a JSON array of 1-1000 cells, each `{row, col}` zero-based or an A1 string such as `"B2"`, in the
 * order the answer keeps. Anything else is 400 / 126200 naming the first bad item.
 */
export function parseCellPositions(text: string): CellPosition[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('cellsPosition is not JSON: send a JSON array such as [{"row":0,"col":1},"C3"]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_CELL_POSITIONS) {
    throw invalid(`cellsPosition must be a JSON array of 1 to ${MAX_CELL_POSITIONS} cells`);
  }
  return parsed.map((item: unknown, index) => {
    if (typeof item === 'string') {
      const cell = parseCellA1(item);
      if (!cell) throw invalid(`cellsPosition[${index}]: ${JSON.stringify(item.slice(0, 40))} is not one cell in A1 (e.g. "B2")`);
      return cell;
    }
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const { row, col } = item as { row?: unknown; col?: unknown };
      if (isIndex(row, MAX_ROWS) && isIndex(col, MAX_COLUMNS)) return { row, column: col };
    }
    throw invalid(`cellsPosition[${index}]: expected {row, col} (zero-based integers, row < ${MAX_ROWS}, col < ${MAX_COLUMNS}) or an A1 cell such as "B2"`);
  });
}
