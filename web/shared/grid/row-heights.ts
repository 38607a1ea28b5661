/**
 * Where each row of a virtual grid lies when rows differ in height: most rows have the default height, a few have
 * their own (set by a person, grown by wrapped text, or 0 when hidden). Only those few are stored, in row order
 * with the running sum of how much they differ from the default, so the top of any row and the row under any y are
 * a binary search over them: a sheet of 1,048,576 rows with a few hundred heights costs a few hundred entries, not
 * an array of a million.
 */
export class RowHeightIndex {
  /** rows whose height differs from the default, ascending */
  private readonly rows: number[];
  private readonly heights: number[];
  /** sum of (height − default) over the rows before each entry */
  private readonly before: number[];

  /** `heights`: the rows whose height is not `defaultHeight` (0: not drawn); rows outside 0 … rowCount − 1 are ignored. */
  constructor(
    private readonly defaultHeight: number,
    private readonly rowCount: number,
    heights: ReadonlyMap<number, number>,
  ) {
    const entries = [...heights].filter(([row, height]) => row >= 0 && row < rowCount && height !== defaultHeight && height >= 0).sort((a, b) => a[0] - b[0]);
    this.rows = entries.map(([row]) => row);
    this.heights = entries.map(([, height]) => height);
    this.before = new Array<number>(entries.length);
    let sum = 0;
    entries.forEach(([, height], index) => {
      this.before[index] = sum;
      sum += height - defaultHeight;
    });
  }

  /** How many entries lie before `row` (binary search). */
  private entriesBefore(row: number): number {
    let low = 0;
    let high = this.rows.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.rows[middle]! < row) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  heightOf(row: number): number {
    const index = this.entriesBefore(row);
    return this.rows[index] === row ? this.heights[index]! : this.defaultHeight;
  }

  /** Distance from the first row's top to `row`'s top (`rowCount`: the total height). */
  top(row: number): number {
    const index = this.entriesBefore(row);
    if (index === 0) return row * this.defaultHeight;
    return row * this.defaultHeight + this.before[index - 1]! + this.heights[index - 1]! - this.defaultHeight;
  }

  get total(): number {
    return this.top(this.rowCount);
  }

  /**
   * The drawn row whose band holds `y` (clamped to the grid): the last entry ending at or above `y` is found by
   * binary search (their bottoms never decrease), and past it rows are default until the next entry.
   */
  rowAt(y: number): number {
    const last = Math.max(0, this.rowCount - 1);
    if (y <= 0) return this.firstDrawnFrom(0);
    let low = 0;
    let high = this.rows.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.top(this.rows[middle]!) + this.heights[middle]! <= y) low = middle + 1;
      else high = middle;
    }
    // entries 0 … low − 1 end at or above y; the rows after entry low − 1 start at its bottom
    const afterRow = low === 0 ? 0 : this.rows[low - 1]! + 1;
    const afterTop = this.top(afterRow);
    const row = afterRow + Math.floor((y - afterTop) / this.defaultHeight);
    const next = this.rows[low];
    return Math.min(last, next !== undefined && row >= next ? next : row);
  }

  /** `row`, or the first row after it taking room. */
  private firstDrawnFrom(row: number): number {
    let at = row;
    let index = this.entriesBefore(at);
    while (this.rows[index] === at && this.heights[index] === 0 && at < this.rowCount - 1) {
      at++;
      index++;
    }
    return at;
  }
}
