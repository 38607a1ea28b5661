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

/** One per way of reading input; compiled validators stay in them, so they live as long as the process. */
const strict = makeAjv(false);
const coercing = makeAjv('array');
/**
 * Validators compiled so far, by the part of the request they read and the schema's text. Every server of a process
 * compiles the same route schemas; compiling them is most of a server's start (about a second on two
 * cores), and the test suite starts hundreds of servers in one process, so each schema is compiled once.
 */
const compiled = new Map<string, ReturnType<FastifySchemaCompiler<unknown>>>();

/**
 * JSON bodies are validated as sent: `"fileId": 123` is an error, not the string "123". Query strings,
 * path parameters and headers are text on the wire, so their values are coerced to the schema's types.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    // the part is in the key: it decides the coercion and is named in the messages
    const key = `${httpPart ?? 'input'} ${JSON.stringify(schema)}`;
    let validator = compiled.get(key);
    if (!validator) {
      validator = httpPart === 'body' ? (strict.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>) : coercingValidator(schema, httpPart);
      compiled.set(key, validator);
    }
    return validator;
  };
}

/** A validator of text input (query, path, headers): coerced by Ajv, integers checked as decimal text first. */
function coercingValidator(schema: unknown, httpPart: string | undefined): ReturnType<FastifySchemaCompiler<unknown>> {
  const validate = coercing.compile(schema as object);
  const integers = integerProperties(schema);
  if (integers.length === 0) return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  // Fastify reads a failed validation's errors from the function it was given: they are copied onto it
  const checked = Object.assign(
    (data: unknown) => {
      const refused = integers.find((name) => !decimalIntegerText((data as Record<string, unknown> | undefined)?.[name]));
      if (refused !== undefined) {
        return { error: Object.assign(new Error(`${httpPart ?? 'input'}.${refused} must be a decimal integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`), { validation: [] }) };
      }
      const valid = validate(data);
      checked.errors = validate.errors;
      return valid;
    },
    { errors: null as typeof validate.errors },
  );
  return checked as ReturnType<FastifySchemaCompiler<unknown>>;
}

/** Names of the top-level properties an object schema declares as integers. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

/**
 * Text that Ajv may coerce to an integer: plain decimal digits with an optional minus, a safe integer (exact
 * in a JS number, and it fits any database integer). Number() would also take `0x10`, `1e3`, ` 7` and
 * `99999999999999999999` (1e20, which Ajv calls an integer). Absent is left to the schema.
 */
function decimalIntegerText(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.every(decimalIntegerText);
  return typeof value !== 'string' || (/^-?\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value)));
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
