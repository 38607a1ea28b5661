import { expect } from 'vitest';
import type { CallResult, TestService } from '../support/service.js';

export const API = '/sdk/v2/api/table-api/openapi/v1';

export interface ColumnSpec {
  name: string;
  type: string;
  props?: Record<string, unknown>;
}

/** A base (a collaborative file of type table) registered with the service and known to the integrator. */
export async function createBase(svc: TestService, fileId = 'base-1'): Promise<string> {
  svc.integrator.addFile({ id: fileId, type: 'table', grants: {} });
  const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'table', fileId } });
  expect(created.status, created.text).toBe(200);
  return fileId;
}

export interface CreatedTable {
  guid: string;
  defaultViewGuid: string;
  columns: { guid: string; name: string; type: string; props: Record<string, unknown>; isPrimary: boolean }[];
  views: { viewGuid: string; name: string; isDefault: boolean }[];
}

export async function createTable(
  svc: TestService,
  baseGuid: string,
  cols: ColumnSpec[],
  options: { name?: string; withoutInitRows?: boolean } = {},
): Promise<CreatedTable> {
  const response = await svc.call('POST', `${API}/tables`, {
    body: { baseGuid, name: options.name ?? 'Tasks', withoutInitRows: options.withoutInitRows ?? true, cols },
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body.code).toBe(0);
  return response.body.data as CreatedTable;
}

export async function insertRows(svc: TestService, tableGuid: string, rows: Record<string, unknown>[]): Promise<{ guid: string; valueMap: Record<string, unknown> }[]> {
  const response = await svc.call('POST', `${API}/tables/${tableGuid}/rows`, { body: { rows } });
  expect(response.status, response.text).toBe(200);
  return response.body.data.rows;
}

/** Every row of a table, following `offset` page by page. */
export async function allRows(svc: TestService, tableGuid: string, pageSize = 100): Promise<{ guid: string; valueMap: Record<string, unknown> }[]> {
  const rows: { guid: string; valueMap: Record<string, unknown> }[] = [];
  let offset: string | null = '';
  while (offset !== null) {
    const query: Record<string, string | number> = { pageSize };
    if (offset) query.offset = offset;
    const page: CallResult = await svc.call('GET', `${API}/tables/${tableGuid}/rows`, { query });
    expect(page.status, page.text).toBe(200);
    rows.push(...page.body.data.rows);
    offset = page.body.data.offset;
  }
  return rows;
}

/** Asserts a table API failure: HTTP status and `{code, message}` (message matching `message` when given). */
export function expectTableError(response: CallResult, http: number, code: number, message?: RegExp): void {
  expect(response.status, response.text).toBe(http);
  expect(response.body.code, response.text).toBe(code);
  expect(typeof response.body.message).toBe('string');
  if (message) expect(response.body.message).toMatch(message);
}
