import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, Errors } from '../../errors.js';
import { TableOk, tableOk } from '../../http/envelopes/table.js';
import { callerOf } from '../../http/request-context.js';
import { INITIAL_ROWS } from '../../domain/tables/table-service.js';
import { ColumnName, ColumnType, DataTable, PropsInput } from './schemas.js';

/** Tables of a base (spec 4.4: GET and POST /tables). */
export const tableRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/tables',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'List the tables of a base',
        description: 'Needs `readable` on the base. `baseGuid` (or `base_guid`) is the fileId of a collaborative file of type table.',
        querystring: Type.Object({ baseGuid: Type.Optional(Type.String()), base_guid: Type.Optional(Type.String()) }),
        response: { 200: TableOk(Type.Array(DataTable)) },
      },
    },
    async (request) => {
      const baseGuid = request.query.baseGuid || request.query.base_guid;
      if (!baseGuid) throw new ApiError(Errors.invalidRequest, 'baseGuid (or base_guid) is required');
      return tableOk(await app.services.tables.listTables(callerOf(request), baseGuid));
    },
  );

  app.post(
    '/tables',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Create a table',
        description:
          'Needs `editable` on the base. The first column is the primary column (SingleLineText, LongText, SingleChoice, Number, ' +
          `Percent, AutoNumber or Date). The table gets a default view and, unless withoutInitRows, ${INITIAL_ROWS} empty rows. ` +
          'Table names are 1-31 characters and unique in the base.',
        body: Type.Object({
          baseGuid: Type.String({ minLength: 1 }),
          name: Type.String({ minLength: 1, maxLength: 31 }),
          withoutInitRows: Type.Optional(Type.Boolean({ default: false })),
          cols: Type.Array(Type.Object({ name: ColumnName, type: ColumnType, props: PropsInput }), { minItems: 1 }),
        }),
        response: { 200: TableOk(DataTable) },
      },
    },
    async (request) => {
      const { baseGuid, name, withoutInitRows, cols } = request.body;
      const table = await app.services.tables.createTable(callerOf(request), {
        baseGuid,
        name,
        withoutInitRows: withoutInitRows === true,
        cols: cols.map((col) => ({ name: col.name, type: col.type, props: col.props ?? undefined })),
      });
      return tableOk(table);
    },
  );
};
