import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_COLUMNS, MAX_ROWS } from '../../model/sheets/a1.js';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

/**
 * `POST /sdk/v2/api/files/{fileId}/sheets/merge-cells` (client-kits.md "Newer kit calls"; docs/SHEETS.md "Merged
 * cells"). The body's `rowspan` / `colSpan` spelling is the kit's.
 */
export const sheetMergeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/files/:fileId/sheets/merge-cells',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidMergeParams },
      schema: {
        tags: ['sheets'],
        summary: 'Merge cells',
        description:
          'Needs `editable` on a spreadsheet (72010 for other kinds). Merges `rowspan` × `colSpan` cells from `cell` (one A1 cell, ' +
          'no sheet name) on the sheet `sheetName` (72002 when there is none): the merge shows the top-left cell over the whole ' +
          'area; the other cells keep what they hold, hidden. Spans below 1, a missing field or a cell that is not one A1 cell: 126100; ' +
          'an area past the sheet\'s last row or column: 126101; an area sharing a cell with another merge: 409 / 126102. The same ' +
          'merge again, or a 1 × 1 merge, changes nothing (`merged: false`). Kept in xlsx export and import.',
        params: FileIdParams,
        body: Type.Object({
          sheetName: Type.String({ minLength: 1, maxLength: 400, description: 'the sheet name as is' }),
          cell: Type.String({ minLength: 1, maxLength: 32, description: 'the top-left cell, e.g. `B2`' }),
          rowspan: Type.Integer({ minimum: 1, maximum: MAX_ROWS, description: 'rows the merge covers, from the cell down' }),
          colSpan: Type.Integer({ minimum: 1, maximum: MAX_COLUMNS, description: 'columns the merge covers, from the cell right' }),
        }),
        response: {
          200: BackendOk(
            Type.Object({
              range: Type.String({ description: 'the merged area in A1, with the sheet name' }),
              merged: Type.Boolean({ description: 'false when nothing changed (already merged, or one cell)' }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { sheetName, cell, rowspan, colSpan } = request.body;
      return ok(await app.services.sheets.mergeCells(callerOf(request), request.params.fileId, sheetName, cell, rowspan, colSpan));
    },
  );
};
