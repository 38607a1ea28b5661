/** An inclusive rectangle of cells (apart from grid.ts, which needs the DOM, so that models of the editors can name it in Node too). */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}
