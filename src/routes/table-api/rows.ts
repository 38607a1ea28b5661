import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/tables/row-window.js';
import { ApiError, Errors } from '../../errors.js';
import { sendRowPage, sendTableData, TableOk, tableOk } from '../../http/envelopes/table.js';
import { callerOf } from '../../http/request-context.js';
import { CreateRowsBody, firstOf, Row, RowPage, RowParams, RowsQuery, RowWindow, RowWindowQuery, TableParams, ValueMap } from './schemas.js';

/**
 * `pageSize` as sent in a query string: absent or empty is the default; a decimal integer from 1 to 100 is
 * itself; anything else (`-5`, `abc`, `1e9`, `101`) is refused (400 / 70000), never silently replaced by
 * another size the caller did not ask for (issue 27).
 */
export function pageSizeOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  const value = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= MAX_PAGE_SIZE)) {
    throw new ApiError(Errors.invalidRequest, `querystring.pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return value;
}

/** Rows of a table (spec 4.4, 4.5). */
export const rowRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/tables/:guid/rows',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'List rows, one page at a time',
        description:
          'Rows in creation order. Pass the answer\'s `offset` to get the next page; it is null after the last page. Paging while ' +
          'rows are inserted or deleted never repeats or skips a row that existed throughout; an offset naming a row deleted since ' +
          'resumes where it was.',
        params: TableParams,
        querystring: RowsQuery,
        response: { 200: TableOk(RowPage) },
      },
    },
    async (request, reply) => {
      const { pageSize, offset, viewGuid } = request.query;
      const page = await app.services.tables.listRows(callerOf(request), request.params.guid, {
        pageSize: pageSizeOf(firstOf(pageSize)),
        offset: firstOf(offset) || undefined,
        viewGuid: firstOf(viewGuid) || undefined,
      });
      return sendRowPage(reply, page);
    },
  );

  app.get(
    '/tables/:guid/row-window',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Rows by position in a filtered, sorted view (for grids)',
        description:
          'Rows `start`… of the view, at most `count`, filtered on one column and sorted by one column (both optional), and ' +
          '`total`, the number of rows that pass the filter. An unknown sort or filter column is 70000; a filter without a column ' +
          'is ignored. Positions shift when rows are inserted or deleted: use `GET rows` to page through all rows exactly once.',
        params: TableParams,
        querystring: RowWindowQuery,
        response: { 200: TableOk(RowWindow) },
      },
    },
    async (request, reply) => {
      const { start, count, viewGuid, sortColumn, sortOrder, filterColumn, filterOperator, filterValue } = request.query;
      const window = await app.services.tables.rowWindow(callerOf(request), request.params.guid, {
        start,
        count,
        viewGuid: viewGuid || undefined,
        sort: sortColumn ? { columnGuid: sortColumn, descending: sortOrder === 'desc' } : undefined,
        filter: filterColumn ? { columnGuid: filterColumn, operator: filterOperator ?? 'contains', value: filterValue ?? '' } : undefined,
      });
      return sendRowPage(reply, window);
    },
  );

  app.get(
    '/tables/:guid/rows/:rowGuid',
    {
      config: { auth: 'user' },
      schema: { tags: ['table api'], summary: 'Get one row', params: RowParams, response: { 200: TableOk(Row) } },
    },
    async (request, reply) => sendTableData(reply, await app.services.tables.getRow(callerOf(request), request.params.guid, request.params.rowGuid)),
  );

  app.post(
    '/tables/:guid/rows',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Create rows',
        description:
          'All rows are created or none: one bad value (wrong shape, unknown option or column, read-only column) is a 70000 ' +
          'naming the row index and the column, and nothing is written. The answer lists the new rows in order.',
        params: TableParams,
        body: CreateRowsBody,
        response: { 200: TableOk(RowPage) },
      },
    },
    async (request, reply) => sendTableData(reply, await app.services.tables.createRows(callerOf(request), request.params.guid, request.body.rows)),
  );

  app.patch(
    '/tables/:guid/rows/:rowGuid',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Update cells of a row',
        description: 'Only the named columns change; `null` clears a cell. Answers the whole row.',
        params: RowParams,
        body: Type.Object({ valueMap: ValueMap }),
        response: { 200: TableOk(Row) },
      },
    },
    async (request, reply) =>
      sendTableData(reply, await app.services.tables.updateRow(callerOf(request), request.params.guid, request.params.rowGuid, request.body.valueMap)),
  );

  app.delete(
    '/tables/:guid/rows/:rowGuid',
    {
      config: { auth: 'user' },
      schema: { tags: ['table api'], summary: 'Delete a row', description: 'A missing row is 70005.', params: RowParams, response: { 200: TableOk(Type.Null()) } },
    },
    async (request) => {
      await app.services.tables.deleteRow(callerOf(request), request.params.guid, request.params.rowGuid);
      return tableOk(null);
    },
  );
};
