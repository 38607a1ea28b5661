import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

/** `POST /sdk/v2/api/files/{fileId}/sheets/sort` (docs/SHEETS.md "Sort and filter"): sorts the rows of a range. */
export const sheetSortRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/files/:fileId/sheets/sort',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidSortParams },
      schema: {
        tags: ['sheets'],
        summary: 'Sort the rows of a range',
        description:
          'Needs `editable` on a spreadsheet (72010 for other kinds). Sorts the rows of `range` (A1; a sheet name alone or whole ' +
          'columns are cut to the sheet\'s data) by `keys` in order, as the editor\'s Sort does: numbers, then text (ignoring case), ' +
          'then booleans, then errors, blank cells last in both directions; ties keep their order. Formulas are compared by their ' +
          'computed values and move with their row, their relative references following. With `header` the first row stays on top. ' +
          'A key column outside the range, a malformed body: 128200; merged cells in the range: 409 / 128201; more than ' +
          '1,000,000 cells: 128202; a value moved into a cell whose `stop` data validation rule refuses it: 128400 (`data` ' +
          'names the cell); a malformed range 72001, an unknown sheet 72002. Nothing is written on a refusal.',
        params: FileIdParams,
        body: Type.Object({
          range: Type.String({ minLength: 1, maxLength: 500, description: 'the range to sort, e.g. `Sheet1!A1:D20`' }),
          keys: Type.Array(
            Type.Object({
              column: Type.String({ minLength: 1, maxLength: 3, pattern: '^[A-Za-z]{1,3}$', description: 'a column of the range by its letters' }),
              descending: Type.Optional(Type.Boolean({ description: 'Z to A, largest first' })),
            }),
            { minItems: 1, maxItems: 64 },
          ),
          header: Type.Optional(Type.Boolean({ description: 'the first row is a header and stays on top (default false)' })),
        }),
        response: {
          200: BackendOk(
            Type.Object({
              sortedRange: Type.String({ description: 'the area sorted, in A1 with the sheet name' }),
              movedRows: Type.Integer({ description: 'rows written at a new place (0: it was sorted already)' }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { range, keys, header } = request.body;
      return ok(await app.services.sheets.sortRange(callerOf(request), request.params.fileId, range, keys, header ?? false));
    },
  );
};
