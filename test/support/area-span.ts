/**
 * A reference model of how one axis of a sheet area (a chart's range, a lock's area, a merge) moves with row or
 * column edits, as src/model/sheets/cell-area.ts moves it: an insertion at the area's first row or before moves it,
 * one inside it grows it (the new rows belong to the area, empty); a deletion removes the rows it covers. `slots`
 * says what each row of the area held before the edits (its original index, null for an inserted one), so a
 * property test can tell which cells the area should cover after any sequence of edits.
 */
export class AreaSpan {
  constructor(
    public start: number,
    public slots: Array<number | null>,
  ) {}

  static covering(start: number, end: number): AreaSpan {
    return new AreaSpan(start, Array.from({ length: end - start + 1 }, (_, k) => start + k));
  }

  get end(): number {
    return this.start + this.slots.length - 1;
  }

  apply(edit: { kind: 'insert' | 'delete'; index: number; count: number }): void {
    if (edit.kind === 'insert') {
      if (edit.index <= this.start) this.start += edit.count;
      else if (edit.index <= this.end) this.slots.splice(edit.index - this.start, 0, ...Array<null>(edit.count).fill(null));
      return;
    }
    const deletedEnd = edit.index + edit.count - 1;
    const removedBefore = Math.max(0, Math.min(this.start, deletedEnd + 1) - edit.index);
    this.slots = this.slots.filter((_, k) => this.start + k < edit.index || this.start + k > deletedEnd);
    this.start -= removedBefore;
  }
}
