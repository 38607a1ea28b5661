import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterEach, beforeEach, expect } from 'vitest';
import type { TestDatabase } from '../../support/databases.js';
import { startService, type TestService } from '../../support/service.js';
import { createBase, createTable, insertRows, type ColumnSpec, type CreatedTable } from '../../tables/helpers.js';
import { openInHost, startHostPage, type HostPage } from './host-page.js';

/** The cell of the grid in row `row` (1-based, as the row header shows it) under the column named `column`. */
export async function gridCell(frame: FrameLocator, row: number, column: string) {
  const headers = await frame.locator('[role=columnheader]').allTextContents();
  const columnIndex = headers.indexOf(column);
  expect(columnIndex, `column ${column} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return frame.locator(`[role=row][aria-rowindex="${row + 1}"] [role=gridcell][aria-colindex="${columnIndex + 2}"]`);
}

export interface TableEditorFixture {
  svc: TestService;
  host: HostPage;
  table: CreatedTable;
  signature: string;
}

/**
 * For each test of the enclosing describe: a service with the reference integrator, the SDK host page, base
 * `base-1` holding one table of `columns` with `rows`. Answers a getter of the current test's fixture.
 */
export function useTableEditor(db: TestDatabase, columns: ColumnSpec[], rows: Record<string, unknown>[]): () => TableEditorFixture {
  let fixture: TableEditorFixture | undefined;
  beforeEach(async () => {
    const svc = await startService(db, { integrator: true });
    const host = await startHostPage(svc.url);
    const base = await createBase(svc, 'base-1');
    const table = await createTable(svc, base, columns);
    await insertRows(svc, table.guid, rows);
    fixture = { svc, host, table, signature: await svc.sign() };
  });
  afterEach(async () => {
    await fixture?.host.close();
    await fixture?.svc.close();
    fixture = undefined;
  });
  return () => {
    if (!fixture) throw new Error('the table editor fixture exists during a test');
    return fixture;
  };
}

/** Opens the fixture's base in the host page in a new page of `context`, once its grid is there. */
export async function openTableEditor(
  context: BrowserContext,
  fixture: TableEditorFixture,
  options: { token?: string; lang?: 'en' | 'zh-CN' } = {},
): Promise<{ page: Page; frame: FrameLocator }> {
  const page = await context.newPage();
  const opened = await openInHost(page, fixture.host.url, { fileId: 'base-1', token: options.token ?? 'user-token', signature: fixture.signature, lang: options.lang ?? 'en' });
  expect(opened).toMatchObject({ ok: true, fileType: 'table' });
  const frame = page.frameLocator('iframe');
  await frame.locator('[role=grid]').waitFor();
  return { page, frame };
}
