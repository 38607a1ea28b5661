import * as Y from 'yjs';

/**
 * A sheet's row (or column) order as a Yjs sequence whose elements' Yjs ids ARE the rows' stable ids
 * (docs/CONTENT-MODEL.md "spreadsheet"): the sheet's `rows` Y.Text holds one character per row, and a row's id is
 * the (client, clock) of its character. A million rows inserted at once are one Yjs item (one byte per row
 * stored); inserting or deleting rows is one small item whatever the sheet's size, and Yjs' own sequence
 * algorithm makes concurrent insertions and deletions converge. The characters themselves mean nothing.
 *
 * Position ↔ id is derived here by walking the sequence's items, which are few (one per run of rows inserted
 * together), and kept until the sequence changes.
 */

/** The character each row or column is stored as. */
export const AXIS_CHARACTER = '.';

/** A row's or column's stable id, written as a short text key (base 36 client "." base 36 clock). */
export type AxisKey = string;

export function axisKey(client: number, clock: number): AxisKey {
  return `${client.toString(36)}.${clock.toString(36)}`;
}

/** A key back to its (client, clock); undefined for text that is not one. */
export function parseAxisKey(key: string): { client: number; clock: number } | undefined {
  const dot = key.indexOf('.');
  if (dot <= 0 || dot === key.length - 1) return undefined;
  const client = parseInt(key.slice(0, dot), 36);
  const clock = parseInt(key.slice(dot + 1), 36);
  return Number.isSafeInteger(client) && Number.isSafeInteger(clock) && client >= 0 && clock >= 0 ? { client, clock } : undefined;
}

/**
 * The entry of `sorted` (ordered by `startOf`, not overlapping) whose span [startOf, startOf + lengthOf) holds
 * `at`; undefined where none does. Binary search.
 */
export function spanHolding<T>(sorted: readonly T[], at: number, startOf: (entry: T) => number, lengthOf: (entry: T) => number): T | undefined {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const entry = sorted[middle]!;
    if (at < startOf(entry)) high = middle - 1;
    else if (at >= startOf(entry) + lengthOf(entry)) low = middle + 1;
    else return entry;
  }
  return undefined;
}

/** A run of consecutive ids of one client standing at consecutive positions. */
interface Run {
  client: number;
  clock: number;
  length: number;
  /** position of the run's first element */
  start: number;
}

/** The visible runs of a sequence, in order; runs are merged where Yjs split an item and nothing came between. */
function runsOf(sequence: Y.Text): Run[] {
  const runs: Run[] = [];
  let position = 0;
  for (let item = sequence._start; item !== null; item = item.right) {
    if (item.deleted || !item.countable) continue;
    const last = runs[runs.length - 1];
    if (last && last.client === item.id.client && last.clock + last.length === item.id.clock) last.length += item.length;
    else runs.push({ client: item.id.client, clock: item.id.clock, length: item.length, start: position });
    position += item.length;
  }
  return runs;
}

/** Position ↔ id of one sequence; rebuilt after it changes (its observer, and `changed()` by writers in a transaction). */
export class AxisIndex {
  private runs: Run[] | undefined;
  /** per client, its runs by clock */
  private byClient: Map<number, Run[]> | undefined;

  constructor(readonly sequence: Y.Text) {
    sequence.observe(() => this.changed());
  }

  /** Forgets what was derived: the sequence changed. */
  changed(): void {
    this.runs = undefined;
    this.byClient = undefined;
  }

  get length(): number {
    return this.sequence.length;
  }

  private ordered(): Run[] {
    return (this.runs ??= runsOf(this.sequence));
  }

  /** The id at `position`, undefined outside the sequence. */
  idAt(position: number): { client: number; clock: number } | undefined {
    const run = spanHolding(this.ordered(), position, (each) => each.start, (each) => each.length);
    return run && { client: run.client, clock: run.clock + position - run.start };
  }

  keyAt(position: number): AxisKey | undefined {
    const id = this.idAt(position);
    return id && axisKey(id.client, id.clock);
  }

  /** The position of an id; undefined for an id deleted or never in the sequence. */
  positionOf(client: number, clock: number): number | undefined {
    if (!this.byClient) {
      this.byClient = new Map();
      for (const run of this.ordered()) {
        let runs = this.byClient.get(run.client);
        if (!runs) this.byClient.set(run.client, (runs = []));
        runs.push(run);
      }
      for (const runs of this.byClient.values()) runs.sort((a, b) => a.clock - b.clock);
    }
    const run = spanHolding(this.byClient.get(client) ?? [], clock, (each) => each.clock, (each) => each.length);
    return run && run.start + clock - run.clock;
  }

  /**
   * Visits the positions of the ids (client, clock … clock + length − 1) still in the sequence, in clock order,
   * with each one's offset from `clock`: one search per run they lie in rather than one per id. Only positions
   * from `first` to `last` (inclusive) when given.
   */
  forEachPosition(client: number, clock: number, length: number, visit: (offset: number, position: number) => void, first = 0, last = Number.MAX_SAFE_INTEGER): void {
    this.positionOf(client, clock);
    const runs = this.byClient?.get(client);
    if (!runs) return;
    // the first run ending after `clock`
    let low = 0;
    let high = runs.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (runs[middle]!.clock + runs[middle]!.length <= clock) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < runs.length; index++) {
      const run = runs[index]!;
      if (run.clock >= clock + length) break;
      const from = Math.max(clock, run.clock, run.clock + first - run.start);
      const to = Math.min(clock + length, run.clock + run.length, run.clock + last - run.start + 1);
      for (let id = from; id < to; id++) visit(id - clock, run.start + id - run.clock);
    }
  }

  positionOfKey(key: string): number | undefined {
    const id = parseAxisKey(key);
    return id && this.positionOf(id.client, id.clock);
  }

  insert(position: number, count: number): void {
    this.sequence.insert(position, AXIS_CHARACTER.repeat(count));
    this.changed();
  }

  delete(position: number, count: number): void {
    this.sequence.delete(position, count);
    this.changed();
  }
}
