import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

/** A rule as the API answers it (src/domain/sheets/data-validation.ts ValidationView). */
const RuleView = Type.Object(
  {
    id: Type.String(),
    ranges: Type.Array(Type.String(), { description: 'the cells the rule covers, in A1 without the sheet name' }),
  },
  { additionalProperties: true, description: 'the rule as set: `type`, `operator`, `value1`, `value2`, `values`, `formula`, `allowBlank`, `showDropdown`, `errorStyle`, `errorTitle`, `errorMessage`, `promptTitle`, `prompt`' },
);

/**
 * `GET` and `PUT /sdk/v2/api/files/{fileId}/sheets/data-validation` (docs/SHEETS.md "Data validation"): the rules of
 * a sheet, and a rule put on (or taken off) a range. Writes of the values API check the rules themselves.
 */
export const sheetValidationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/files/:fileId/sheets/data-validation',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidDataValidation },
      schema: {
        tags: ['sheets'],
        summary: 'Read the data validation rules of a sheet',
        description: 'Needs `readable` on a spreadsheet (72010 for other kinds). `sheetName` absent: the first sheet; an unknown sheet 72002.',
        params: FileIdParams,
        querystring: Type.Object({ sheetName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }),
        response: { 200: BackendOk(Type.Object({ sheetName: Type.String(), rules: Type.Array(RuleView) })) },
      },
    },
    async (request) => ok(await app.services.sheets.validations(callerOf(request), request.params.fileId, request.query.sheetName ?? null)),
  );

  app.put(
    '/files/:fileId/sheets/data-validation',
    {
      config: { auth: 'user', invalidRequest: Errors.invalidDataValidation },
      schema: {
        tags: ['sheets'],
        summary: 'Put a data validation rule on a range, or take the rules off it',
        description:
          'Needs `editable` on a spreadsheet (72010 for other kinds). The cells of `range` leave the rules they had, then `rule` ' +
          '(null: none) covers them, as the editor\'s Data validation dialog does. `rule.type`: `list` (`values`, or `formula` naming ' +
          'a range), `whole`, `decimal`, `date` (serial numbers), `textLength` (with `operator` between, notBetween, eq, ne, gt, lt, ' +
          'ge, le and `value1`, `value2`: numbers or formulas), `custom` (`formula`, TRUE passes); `errorStyle` stop (default), ' +
          'warning, information; `allowBlank` (default true). A rule that cannot be kept: 128401 (the message says why); a ' +
          'malformed range 72001, an unknown sheet 72002. Values already in the cells are not checked. Writes of the values API ' +
          'that break a `stop` rule answer 128400 and write nothing.',
        params: FileIdParams,
        body: Type.Object({
          range: Type.String({ minLength: 1, maxLength: 500, description: 'the cells, e.g. `Sheet1!A2:A100`' }),
          rule: Type.Union([Type.Object({ type: Type.String() }, { additionalProperties: true }), Type.Null()]),
        }),
        response: { 200: BackendOk(Type.Object({ range: Type.String(), rule: Type.Union([RuleView, Type.Null()]) })) },
      },
    },
    async (request) => ok(await app.services.sheets.setValidation(callerOf(request), request.params.fileId, request.body.range, request.body.rule)),
  );
};
