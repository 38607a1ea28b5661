import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * JSON bodies are validated as sent: `"fileId": 123` is an error, not the string "123". Query strings,
 * path parameters and headers are text on the wire, so their values are coerced to the schema's types.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = makeAjv(false);
  const coercing = makeAjv('array');
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}

/** One readable sentence per failed rule, e.g. `body.type must be one of: document, spreadsheet`. */
export function formatValidationErrors(errors: ErrorObject[], dataVar: string): Error {
  const first = errors[0];
  if (!first) return new Error(`${dataVar} is invalid`);
  const where = `${dataVar}${first.instancePath.replace(/\//g, '.')}`;
  let what = first.message ?? 'is invalid';
  if (first.keyword === 'enum') what = `must be one of: ${(first.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  if (first.keyword === 'required') what = `must have property ${(first.params as { missingProperty: string }).missingProperty}`;
  return new Error(`${where} ${what}`);
}
