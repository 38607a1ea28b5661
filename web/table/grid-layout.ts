import type { Column } from './model.js';

export const DEFAULT_COLUMN_WIDTH = 160;
export const MIN_COLUMN_WIDTH = 60;
export const MAX_COLUMN_WIDTH = 800;

/** How one user lays out one table's grid: column order, widths and hidden columns, by column guid. */
interface StoredLayout {
  order: string[];
  widths: Record<string, number>;
  hidden: string[];
}

function clampWidth(width: number): number {
  return Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));
}

/**
 * The grid's columns as this user arranged them (docs/BROWSER.md "Table"): kept in the browser's storage per
 * base and table, so that arranging a grid changes nothing for anyone else and writes nothing to the base.
 * The primary column stays first and visible; columns the layout does not know yet (new ones) come last.
 */
export class GridLayout {
  private layout: StoredLayout;

  constructor(private readonly storageKey: string) {
    this.layout = GridLayout.read(storageKey);
  }

  private static read(key: string): StoredLayout {
    try {
      const parsed = JSON.parse(localStorage.getItem(key) ?? '{}') as Partial<StoredLayout>;
      return {
        order: Array.isArray(parsed.order) ? parsed.order.filter((guid) => typeof guid === 'string') : [],
        widths: typeof parsed.widths === 'object' && parsed.widths !== null ? parsed.widths : {},
        hidden: Array.isArray(parsed.hidden) ? parsed.hidden.filter((guid) => typeof guid === 'string') : [],
      };
    } catch {
      // unreadable or blocked storage: the default layout
      return { order: [], widths: {}, hidden: [] };
    }
  }

  private save(): void {
    try {
      localStorage.setItem(this.storageKey, JSON.stringify(this.layout));
    } catch {
      // storage full or blocked: the layout lasts as long as the page
    }
  }

  /** Every column in this user's order (primary first), hidden ones included. */
  ordered(columns: readonly Column[]): Column[] {
    const rank = new Map(this.layout.order.map((guid, index) => [guid, index]));
    const [primary, ...rest] = columns;
    const sorted = rest
      .map((column, index) => ({ column, key: rank.get(column.guid) ?? this.layout.order.length + index }))
      .sort((a, b) => a.key - b.key)
      .map((entry) => entry.column);
    return primary ? [primary, ...sorted] : sorted;
  }

  /** The columns the grid shows, in order. */
  visible(columns: readonly Column[]): Column[] {
    return this.ordered(columns).filter((column) => column.isPrimary || !this.layout.hidden.includes(column.guid));
  }

  isHidden(column: Column): boolean {
    return !column.isPrimary && this.layout.hidden.includes(column.guid);
  }

  setHidden(column: Column, hidden: boolean): void {
    if (column.isPrimary) return;
    this.layout.hidden = this.layout.hidden.filter((guid) => guid !== column.guid);
    if (hidden) this.layout.hidden.push(column.guid);
    this.save();
  }

  width(column: Column): number {
    const width = this.layout.widths[column.guid];
    return typeof width === 'number' && Number.isFinite(width) ? clampWidth(width) : DEFAULT_COLUMN_WIDTH;
  }

  setWidth(column: Column, width: number): void {
    this.layout.widths[column.guid] = clampWidth(width);
    this.save();
  }

  /** Moves `column` to `index` among the non-primary columns of `columns` (0 = right after the primary column). */
  move(columns: readonly Column[], column: Column, index: number): void {
    if (column.isPrimary) return;
    const rest = this.ordered(columns).slice(1).filter((candidate) => candidate.guid !== column.guid);
    rest.splice(Math.max(0, Math.min(rest.length, index)), 0, column);
    this.layout.order = rest.map((candidate) => candidate.guid);
    this.save();
  }
}
