import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TableOk, tableOk } from '../../http/envelopes/table.js';
import { callerOf } from '../../http/request-context.js';
import { Column, ColumnName, ColumnParams, ColumnType, Props, PropsInput, TableParams } from './schemas.js';

/** Columns of a table (spec 4.4 rules 2-4). */
export const columnRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/tables/:guid/columns',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'List the columns of a table',
        description: 'In table order; the first is the primary column.',
        params: TableParams,
        response: { 200: TableOk(Type.Array(Column)) },
      },
    },
    async (request) => tableOk(await app.services.tables.listColumns(callerOf(request), request.params.guid)),
  );

  app.post(
    '/tables/:guid/columns',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Create a column',
        description:
          'Placed after the column `targetGuid`; `targetGuid: ""` makes it the first and primary column (SingleLineText, LongText, ' +
          'SingleChoice, Number, Percent or Date); absent: last. `viewGuid` must be a view of the table (70003). Existing rows keep an empty cell.',
        params: TableParams,
        body: Type.Object({
          name: ColumnName,
          type: ColumnType,
          viewGuid: Type.String(),
          props: PropsInput,
          targetGuid: Type.Optional(Type.String()),
        }),
        response: { 200: TableOk(Column) },
      },
    },
    async (request) => {
      const { name, type, viewGuid, props, targetGuid } = request.body;
      const column = await app.services.tables.createColumn(callerOf(request), request.params.guid, {
        name,
        type,
        viewGuid,
        targetGuid,
        props: props ?? undefined,
      });
      return tableOk(column);
    },
  );

  app.put(
    '/tables/:guid/columns/:colGuid',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Update a column',
        description:
          'Any of name, type, props. Stored values are never converted (spec 4.5: PATCH the rows yourself). A new type without ' +
          'props re-reads the old props under the new type. The primary column may only take SingleLineText, LongText, ' +
          'SingleChoice, Number, Percent or Date.',
        params: ColumnParams,
        body: Type.Object({ name: Type.Optional(ColumnName), type: Type.Optional(ColumnType), props: Type.Optional(Props) }),
        response: { 200: TableOk(Column) },
      },
    },
    async (request) => {
      const { name, type, props } = request.body;
      const column = await app.services.tables.updateColumn(callerOf(request), request.params.guid, request.params.colGuid, { name, type, props });
      return tableOk(column);
    },
  );

  app.delete(
    '/tables/:guid/columns/:colGuid',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Delete a column',
        description: 'Rows are not rewritten (spec 4.5 rule 3). The primary column cannot be deleted (70000); a missing column is 70004.',
        params: ColumnParams,
        response: { 200: TableOk(Type.Null()) },
      },
    },
    async (request) => {
      await app.services.tables.deleteColumn(callerOf(request), request.params.guid, request.params.colGuid);
      return tableOk(null);
    },
  );
};

