import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_ROWS } from '../../model/sheets/a1.js';
import { MAX_FIRST_SCREEN_ROWS, MAX_FIRST_SCREEN_WIDTH } from '../../model/sheets/first-screen.js';
import { MAX_SHEET_NAME } from '../../model/sheets/sheet-names.js';
import { MAX_WRITE_CELLS } from '../../domain/sheets/workbook.js';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';
import { BORDER_LINES } from '../../model/sheets/cell-style.js';

/** One side's border of a cell style (docs/SHEETS.md "Cell styles"). */
const BorderSchema = Type.Object({
  s: Type.String({ enum: [...BORDER_LINES] }),
  c: Type.Optional(Type.String({ description: '#rrggbb; black when absent' })),
});

/** A cell style as the first screen answers it (docs/SHEETS.md "Cell styles"). */
function CellStyleSchema(description: string) {
  return Type.Object(
    {
      b: Type.Optional(Type.Boolean()),
      i: Type.Optional(Type.Boolean()),
      c: Type.Optional(Type.String({ description: '#rrggbb' })),
      bg: Type.Optional(Type.String({ description: '#rrggbb' })),
      a: Type.Optional(Type.String({ enum: ['left', 'center', 'right'] })),
      ff: Type.Optional(Type.String({ description: 'font family name' })),
      fs: Type.Optional(Type.Number({ description: 'font size, points' })),
      w: Type.Optional(Type.Boolean({ description: 'text wraps' })),
      bt: Type.Optional(BorderSchema),
      br: Type.Optional(BorderSchema),
      bb: Type.Optional(BorderSchema),
      bl: Type.Optional(BorderSchema),
    },
    { description },
  );
}

const RANGE_HELP =
  'A1 notation: `Sheet1!A1:C3`, whole columns `A:C`, whole rows `2:5`, open-ended `A2:C`, one cell `B7`, a sheet name ' +
  "alone (its used range); names with spaces, `!`, `:` or `'` single-quoted with `'` doubled (`'Q1!Plan''s'!B2`). " +
  'Without a sheet name: the first sheet. Rows 1-1,048,576, columns A-XFD.';

export const Range = Type.String({ minLength: 1, maxLength: 1024, description: RANGE_HELP });

const CellValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
  description: 'a number, text or boolean; text starting with "=" is a formula; null or "" clears the cell',
});

const ValuesBody = Type.Object({
  range: Range,
  resource: Type.Object({
    values: Type.Array(Type.Array(CellValue), { description: `rows of cells, top-left first; at most ${MAX_WRITE_CELLS} cells` }),
  }),
});

const WriteResult = Type.Object({
  updatedRange: Type.String({ description: 'the cells the values covered, in A1' }),
  updatedRows: Type.Integer(),
  updatedColumns: Type.Integer(),
  updatedCells: Type.Integer(),
});

/** `files/{fileId}/sheets/{sheetName}/rows/{index}`: what the index means is the route's (`indexHelp`, `maximum`). */
export const sheetRowsParams = (indexHelp: string, maximum: number) =>
  Type.Composite([
    FileIdParams,
    Type.Object({
      sheetName: Type.String({ minLength: 1, maxLength: 400, description: 'the sheet name as is (URL-encoded, not quoted)' }),
      index: Type.Integer({ minimum: 0, maximum, description: indexHelp }),
    }),
  ]);

/** The spreadsheet values API (spec 4.2 "Spreadsheet", contract notes 3; docs/SHEETS.md). */
export const sheetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const routeConfig = { auth: 'user' as const, invalidRequest: Errors.invalidSheetParams };

  app.get(
    '/files/:fileId/sheets/values',
    {
      config: routeConfig,
      // The schema documents the answer; serialising 100,000 cells against its string|number|boolean union
      // costs ~200 ms (each cell tried against each type), JSON.stringify ~10 ms. The service builds the
      // values itself (strings, finite numbers, booleans), so nothing unchecked reaches the client.
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        tags: ['sheets'],
        summary: 'Read the values of a range',
        description:
          'Needs `readable`. Rows run from the range\'s first row to its last non-empty row, each from the range\'s first ' +
          'column to its last non-empty cell (trailing empty rows and cells trimmed); empty cells inside read as "". ' +
          'Numbers, text and booleans keep their types; dates are serial numbers (days since 1899-12-30). Formulas read as ' +
          'computed by the formula engine (errors as their code, e.g. "#DIV/0!"), or as their text with valueRenderOption=FORMULA, or ' +
          'as the text they show under their number format with valueRenderOption=FORMATTED_VALUE.',
        params: FileIdParams,
        querystring: Type.Object({
          range: Range,
          valueRenderOption: Type.Optional(
            Type.String({
              enum: ['UNFORMATTED_VALUE', 'FORMULA', 'FORMATTED_VALUE'],
              default: 'UNFORMATTED_VALUE',
              description: 'FORMATTED_VALUE: every cell as the text it shows under its number format (docs/SHEETS.md "Number formats")',
            }),
          ),
        }),
        response: {
          200: BackendOk(
            Type.Object({
              range: Type.String({ description: 'the range asked for, in A1 with the sheet\'s real name (values stop at its last data)' }),
              values: Type.Array(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { range, valueRenderOption } = request.query;
      const render = valueRenderOption === 'FORMULA' ? 'formula' : valueRenderOption === 'FORMATTED_VALUE' ? 'formatted' : 'value';
      return ok(await app.services.sheets.read(callerOf(request), request.params.fileId, range, render));
    },
  );

  app.get(
    '/files/:fileId/sheets/first-screen',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'What the spreadsheet editor first shows',
        description:
          'Needs `readable`. The sheets\' names, and for one sheet (`sheetName`, else the first) its size, frozen rows and the ' +
          'widths of the columns that fit in `width` pixels from column A, with the non-empty cells of its first `rows` rows ' +
          'across those columns, each as the text it shows (formulas computed, values under their number format). Cells of ' +
          'the covered area that are not listed are empty. The editor page draws this while it syncs the whole document, ' +
          'for the first sheet and for each tab the user picks meanwhile (docs/BROWSER.md "First screen"). Bad parameters: 72000; unknown sheet: 72002; not a spreadsheet: 72010.',
        params: FileIdParams,
        querystring: Type.Object({
          sheetName: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'the sheet name as is; default: the first sheet' })),
          rows: Type.Integer({ minimum: 1, maximum: MAX_FIRST_SCREEN_ROWS, default: 60, description: 'rows from row 1' }),
          width: Type.Integer({ minimum: 1, maximum: MAX_FIRST_SCREEN_WIDTH, default: 2000, description: 'pixels of columns from column A' }),
        }),
        response: {
          200: BackendOk(
            Type.Object({
              sheets: Type.Array(Type.Object({ sheetId: Type.String(), name: Type.String() }), { description: 'every sheet, in order' }),
              sheetId: Type.String(),
              name: Type.String(),
              rowCount: Type.Integer(),
              columnCount: Type.Integer(),
              frozenRows: Type.Integer({ description: 'rows from the top kept in view as the sheet scrolls (0: none)' }),
              rows: Type.Integer({ description: 'rows covered, from row 1' }),
              columns: Type.Integer({ description: 'columns covered, from column A' }),
              columnWidths: Type.Array(Type.Number(), { description: 'width of each covered column, pixels' }),
              rowHeights: Type.Array(Type.Object({ row: Type.Integer({ description: 'zero-based' }), height: Type.Integer({ description: 'pixels' }) }), {
                description: 'the covered rows a person gave a height; the others are as tall as their content',
              }),
              rowStyles: Type.Array(Type.Object({ row: Type.Integer({ description: 'zero-based' }), style: CellStyleSchema('the whole row\'s style') }), {
                description: 'the covered rows with a style of their own, which a covered cell not listed in `cells` shows (before its column\'s)',
              }),
              columnStyles: Type.Array(Type.Object({ column: Type.Integer({ description: 'zero-based' }), style: CellStyleSchema('the whole column\'s style') }), {
                description: 'the covered columns with a style of their own, which a covered cell not listed in `cells` shows (after its row\'s)',
              }),
              cells: Type.Array(
                Type.Object({
                  row: Type.Integer({ description: 'zero-based' }),
                  column: Type.Integer({ description: 'zero-based' }),
                  text: Type.String({ description: 'what the cell shows' }),
                  kind: Type.String({ enum: ['number', 'text', 'boolean', 'error'] }),
                  style: Type.Optional(CellStyleSchema('the style the cell shows (docs/SHEETS.md "Cell styles"), absent for the default look')),
                  look: Type.Optional(
                    Type.Object(
                      {
                        fill: Type.Optional(Type.String({ description: '#rrggbb' })),
                        color: Type.Optional(Type.String({ description: 'font colour, #rrggbb' })),
                        bold: Type.Optional(Type.Boolean()),
                        italic: Type.Optional(Type.Boolean()),
                        bar: Type.Optional(Type.Object({ fraction: Type.Number({ description: '0-1 of the cell\'s width' }), color: Type.String({ description: '#rrggbb' }) })),
                      },
                      { description: 'what the sheet\'s conditional formats make of the cell (docs/SHEETS.md "Conditional formatting"), absent for nothing' },
                    ),
                  ),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { sheetName, rows, width } = request.query;
      return ok(await app.services.sheets.firstScreen(callerOf(request), request.params.fileId, sheetName ?? null, rows, width));
    },
  );

  app.post(
    '/files/:fileId/sheets/values',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Write values into a range',
        description:
          'Needs `editable`. Values go into the range from its top-left cell; cells of the range they do not reach keep ' +
          'their content; null or "" clears a cell. Values larger than the range are refused (72004) and change nothing. ' +
          'Idempotent: the same call twice leaves the same sheet. The sheet grows to hold what is written. A formula longer ' +
          'than 8192 characters is refused (72012), one that does not parse (`=SUM(1,`) with 128100, and then nothing is written.',
        params: FileIdParams,
        body: ValuesBody,
        response: { 200: BackendOk(WriteResult) },
      },
    },
    async (request) => {
      const { range, resource } = request.body;
      return ok(await app.services.sheets.write(callerOf(request), request.params.fileId, range, resource.values));
    },
  );

  app.put(
    '/files/:fileId/sheets/values',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Append rows after a range\'s table',
        description:
          'Needs `editable`. The rows go after the last non-empty row of the range\'s table (the range\'s columns, widened ' +
          'to the rows\' width, from its first row down), starting at its first column. NOT idempotent: each call adds ' +
          'rows. Send `clientRequestId` to make retries safe: an id seen in the last 24 hours (last 1000 per file) answers ' +
          'the first result with `alreadyApplied: true` and adds nothing; the same id with another range or values is ' +
          'refused (72011).',
        params: FileIdParams,
        body: Type.Composite([
          ValuesBody,
          Type.Object({
            clientRequestId: Type.Optional(
              Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$', description: 'the caller\'s id for this append (retry key)' }),
            ),
          }),
        ]),
        response: { 200: BackendOk(Type.Composite([WriteResult, Type.Object({ alreadyApplied: Type.Boolean() })])) },
      },
    },
    async (request) => {
      const { range, resource, clientRequestId } = request.body;
      return ok(await app.services.sheets.append(callerOf(request), request.params.fileId, range, resource.values, clientRequestId));
    },
  );

  app.delete(
    '/files/:fileId/sheets/:sheetName/rows/:index',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Delete rows',
        description:
          'Needs `editable`. Removes `count` rows from the zero-based `index` and shifts the rows below up. Rows past ' +
          'the sheet\'s end are not there to remove: `deletedRows` says how many were. An index past the last row is ' +
          'refused (72009). A sheet keeps at least one row.',
        params: sheetRowsParams('zero-based index of the first row to remove (row 1 is index 0)', MAX_ROWS - 1),
        querystring: Type.Object({ count: Type.Integer({ minimum: 1, maximum: MAX_ROWS, default: 1 }) }),
        response: {
          200: BackendOk(Type.Object({ sheetName: Type.String(), deletedRows: Type.Integer(), rowCount: Type.Integer() })),
        },
      },
    },
    async (request) => {
      const { fileId, sheetName, index } = request.params;
      return ok(await app.services.sheets.deleteRows(callerOf(request), fileId, sheetName, index, request.query.count));
    },
  );

  app.post(
    '/files/:fileId/sheets',
    {
      config: routeConfig,
      schema: {
        tags: ['sheets'],
        summary: 'Add a sheet',
        description:
          `Needs \`editable\`. Adds an empty sheet (1000 rows × 26 columns) at the end. Names: 1-${MAX_SHEET_NAME} characters, ` +
          "none of : \\ / ? * [ ], no control characters, not starting or ending with ' or white space (72007); unique " +
          'ignoring case (72008).',
        params: FileIdParams,
        body: Type.Object({ name: Type.String({ description: 'the new sheet\'s name' }) }),
        response: {
          200: BackendOk(
            Type.Object({ sheetId: Type.String(), name: Type.String(), index: Type.Integer(), rowCount: Type.Integer(), columnCount: Type.Integer() }),
          ),
        },
      },
    },
    async (request) => ok(await app.services.sheets.addSheet(callerOf(request), request.params.fileId, request.body.name)),
  );
};
