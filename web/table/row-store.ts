import type { Row, ViewQuery } from './model.js';
import type { TableClient } from './table-client.js';

/** Rows fetched per request: a few screenfuls, one round trip. */
export const BLOCK_ROWS = 100;
/** Blocks kept; the ones used longest ago are dropped first (a long scroll does not keep 100,000 rows). */
const KEPT_BLOCKS = 30;

interface Block {
  rows: Row[];
  /** a refetch is under way (the old rows stay shown until it answers) */
  loading: boolean;
}

/**
 * The rows of one table as the grid needs them: by position in the view's order, fetched a block at a
 * time when the grid first draws a row of that block (GET row-window), so that opening a table of 100,000
 * rows fetches one block. `changed(totalChanged)` asks the grid to draw again.
 */
export class RowStore {
  private blocks = new Map<number, Block>();
  private totalRows = 0;
  private generation = 0;
  private refreshQueued: number | undefined;

  constructor(
    private readonly client: TableClient,
    readonly tableGuid: string,
    private view: ViewQuery,
    /** the saved view shown: its sort applies when `view` sorts nothing */
    private readonly viewGuid: string | undefined,
    private readonly changed: (totalChanged: boolean) => void,
    private readonly failed: (error: unknown) => void,
  ) {}

  get total(): number {
    return this.totalRows;
  }

  get query(): ViewQuery {
    return this.view;
  }

  /** Loads the first block; resolves when the grid can paint. */
  async open(): Promise<void> {
    await this.load(0);
  }

  /** The row at `index`, or undefined while its block loads (the load is started). */
  row(index: number): Row | undefined {
    const blockIndex = Math.floor(index / BLOCK_ROWS);
    const block = this.blocks.get(blockIndex);
    if (!block) {
      void this.load(blockIndex).catch(this.failed);
      return undefined;
    }
    // recently used blocks move to the end of the map's order, so eviction drops the oldest
    this.blocks.delete(blockIndex);
    this.blocks.set(blockIndex, block);
    return block.rows[index - blockIndex * BLOCK_ROWS];
  }

  /** Index of a loaded row by guid, or -1. */
  indexOf(rowGuid: string): number {
    for (const [blockIndex, block] of this.blocks) {
      const at = block.rows.findIndex((row) => row.guid === rowGuid);
      if (at >= 0) return blockIndex * BLOCK_ROWS + at;
    }
    return -1;
  }

  /** Replaces a loaded row with what the service answered (after this page's own write). */
  replace(row: Row): void {
    for (const block of this.blocks.values()) {
      const at = block.rows.findIndex((candidate) => candidate.guid === row.guid);
      if (at >= 0) block.rows[at] = row;
    }
    this.changed(false);
  }

  /** New order or filter: everything fetched so far is dropped. */
  setView(view: ViewQuery): Promise<void> {
    this.view = view;
    this.generation++;
    this.blocks.clear();
    return this.load(0);
  }

  /**
   * Rows changed elsewhere (a notice of the service, or this page's insert or delete): fetches every block
   * kept again, the rows on screen first. Notices arriving together are served by one refresh.
   */
  refresh(): void {
    if (this.refreshQueued !== undefined) return;
    this.refreshQueued = window.setTimeout(() => {
      this.refreshQueued = undefined;
      const kept = [...this.blocks.keys()].reverse();
      if (kept.length === 0) kept.push(0);
      for (const blockIndex of kept) void this.load(blockIndex).catch(this.failed);
    }, 30);
  }

  private async load(blockIndex: number): Promise<void> {
    const existing = this.blocks.get(blockIndex);
    if (existing?.loading) return;
    if (existing) existing.loading = true;
    else this.blocks.set(blockIndex, { rows: [], loading: true });
    const generation = this.generation;
    try {
      const window = await this.client.rowWindow(this.tableGuid, blockIndex * BLOCK_ROWS, BLOCK_ROWS, this.view, this.viewGuid);
      if (generation !== this.generation) return;
      this.blocks.set(blockIndex, { rows: window.rows, loading: false });
      while (this.blocks.size > KEPT_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
      const totalChanged = window.total !== this.totalRows;
      this.totalRows = window.total;
      this.changed(totalChanged);
    } catch (error) {
      if (generation === this.generation) this.blocks.delete(blockIndex);
      throw error;
    }
  }
}
