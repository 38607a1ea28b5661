import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_ROWS, formatA1, parseA1 } from '../../model/sheets/a1.js';
import { MAX_ATTRIBUTE_CELLS } from '../../domain/sheets/workbook.js';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';
import { Range, sheetRowsParams } from './sheets.js';

/**
 * The kits' newer spreadsheet calls on rows, cell attributes and locks (client-kits.md "Newer kit calls";
 * docs/SHEETS.md "Inserting rows", "Cell attributes", "Locks").
 */
export const sheetCellRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const routeConfig = { auth: 'user' as const, invalidRequest: Errors.invalidSheetParams };

  app.post(
    '/files/:fileId/sheets/:sheetName/rows/:index',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Insert rows',
        description:
          'Needs `editable`. Inserts `count` empty rows before the zero-based `index` (the sheet\'s row count: at the end) and ' +
          'shifts the rows below down; formulas on every sheet, comment anchors, number formats and styles follow their cells. ' +
          `An index past the sheet's end is refused (72009), a sheet past ${MAX_ROWS} rows too (72005).`,
        params: sheetRowsParams('zero-based index of the row the new rows go before (row 1 is index 0)', MAX_ROWS),
        querystring: Type.Object({ count: Type.Integer({ minimum: 1, maximum: MAX_ROWS, default: 1 }) }),
        response: {
          200: BackendOk(Type.Object({ sheetName: Type.String(), insertedRows: Type.Integer(), rowCount: Type.Integer() })),
        },
      },
    },
    async (request) => {
      const { fileId, sheetName, index } = request.params;
      return ok(await app.services.sheets.insertRows(callerOf(request), fileId, sheetName, index, request.query.count));
    },
  );

  app.post(
    '/files/:fileId/sheets/attrs',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Set cell attributes on a range',
        description:
          'Needs `editable`. Sets the given attributes on every cell of `range`, in one change; attributes not given stay, ' +
          'null resets one to the default. Keys: `bold`, `italic` (booleans), `color`, `backgroundColor` (`#rrggbb`), ' +
          '`horizontalAlign` (left, center, right), `numberFormat` (a format code, docs/SHEETS.md "Number formats"; ' +
          '"General" resets it), `fontFamily` (a font name), `fontSize` (points, 1-409), `wrapText` (boolean), `borders` ' +
          '(`{top, right, bottom, left}`, each `{style: thin|medium|thick|dashed|dotted|double, color?}` or null). ' +
          'Whole rows or columns stop at the sheet\'s size. An unknown key, a bad value or no key at ' +
          `all: 126001; more than ${MAX_ATTRIBUTE_CELLS} cells: 126002; nothing is changed then.`,
        params: FileIdParams,
        body: Type.Object({
          range: Range,
          attrs: Type.Record(Type.String(), Type.Unknown(), { description: 'the attributes to set (see above)' }),
        }),
        response: {
          200: BackendOk(
            Type.Object({
              updatedRange: Type.String({ description: 'the cells changed, in A1 with the sheet\'s own name' }),
              updatedCells: Type.Integer(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { range, attrs } = request.body;
      return ok(await app.services.sheets.setAttributes(callerOf(request), request.params.fileId, range, attrs));
    },
  );

  app.get(
    '/files/:fileId/sheets/locks',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'The sheet locks',
        description:
          'Needs `readable`. The locks of the spreadsheet\'s sheets and ranges, per sheet that has any (docs/SHEETS.md "Locks"). ' +
          '`type` is `sheet` or `range`; permissions are `none`, `readable` or `editable`; `lockerId` is a number when the ' +
          'locker\'s user id is one, else the id as a string; `ranges` are A1 without the sheet. Locks are set and removed in ' +
          'the editor or with the JS SDK\'s `addRangeLock` / `addSheetLock` / `removeLock`.',
        params: FileIdParams,
        response: {
          200: BackendOk(
            Type.Object({
              locks: Type.Array(
                Type.Object({
                  sheetId: Type.String(),
                  sheetName: Type.String(),
                  locks: Type.Array(
                    Type.Object({
                      id: Type.String(),
                      type: Type.String({ enum: ['sheet', 'range'] }),
                      lockerId: Type.Union([Type.Integer(), Type.String()]),
                      visitorPermission: Type.String(),
                      users: Type.Record(Type.String(), Type.String()),
                      departments: Type.Record(Type.String(), Type.String()),
                      groups: Type.Record(Type.String(), Type.String()),
                      ranges: Type.Array(Type.String({ description: 'A1' })),
                    }),
                  ),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => ok(await app.services.sheets.locks(callerOf(request), request.params.fileId)),
  );

  app.get(
    '/files/:fileId/judge-table-locked',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Whether the spreadsheet is locked',
        description:
          'Needs `readable`. `lockedStatus`: 0 no lock, 1 a sheet or range of it is locked (`sheets/locks` lists them), 2 its ' +
          'content could not be read.',
        params: FileIdParams,
        response: { 200: BackendOk(Type.Object({ lockedStatus: Type.Integer({ enum: [0, 1, 2] }) })) },
      },
    },
    async (request) => ok(await app.services.sheets.lockedStatus(callerOf(request), request.params.fileId)),
  );

  app.get(
    '/files/:fileId/sheets/mention-at-position',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Where a mention in a comment points',
        description:
          'Needs `readable`. The cell of the comment whose content holds the mention `atGuid`: the top-left cell of its ' +
          'thread\'s range where it is now (rows and columns inserted or deleted since move it). `row` and `col` are zero-based, ' +
          '`position` the cell in A1. A mention no live comment of this spreadsheet holds, or on cells that were deleted: 126003.',
        params: FileIdParams,
        querystring: Type.Object({ atGuid: Type.String({ minLength: 1, maxLength: 128, description: 'the mention\'s guid' }) }),
        response: {
          200: BackendOk(
            Type.Object({
              positionInfo: Type.Object({
                sheetId: Type.String(),
                sheetName: Type.String(),
                row: Type.Integer({ description: 'zero-based' }),
                col: Type.Integer({ description: 'zero-based' }),
                position: Type.String({ description: 'the cell in A1, e.g. B3' }),
              }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { sheetId, sheetName, range } = await app.services.comments.mentionCells(callerOf(request), request.params.fileId, request.query.atGuid);
      const { startRow: row, startColumn: col } = parseA1(range);
      const position = formatA1({ sheetName: null, startRow: row, endRow: row, startColumn: col, endColumn: col });
      return ok({ positionInfo: { sheetId, sheetName, row, col, position } });
    },
  );
};
