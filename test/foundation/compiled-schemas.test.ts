import fc from 'fast-check';
import type { FastifySchemaCompiler } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sharedSerializerFactory } from '../../src/http/serialization.js';
import { validatorCompiler } from '../../src/http/validation.js';

type Validate = (data: unknown) => unknown;

/** Compiles `schema` for one part of a request, through a compiler of its own (as each server has one). */
function validatorFor(schema: object, httpPart: string): Validate {
  return validatorCompiler()({ schema, httpPart, method: 'GET', url: '/x' } as Parameters<FastifySchemaCompiler<unknown>>[0]) as Validate;
}

/** The error Fastify would answer with: a returned `{ error }` or the errors left on the function. */
function refusal(validate: Validate, data: unknown): string | undefined {
  const result = validate(data);
  if (result && typeof result === 'object' && 'error' in result) return (result as { error: Error }).error.message;
  if (result === true) return undefined;
  return JSON.stringify((validate as Validate & { errors?: unknown }).errors);
}

const COUNT = { type: 'object', properties: { count: { type: 'integer' } } } as const;

// Validators and serializers are compiled once per process and shared by its servers (src/http/validation.ts,
// src/http/serialization.ts): what one server compiled must still behave as a fresh compile for the part and
// the schema at hand.
describe('validators and serializers shared by the servers of a process', () => {
  it('keeps body and text parts apart for the same schema: a body is read as sent, text is coerced', () => {
    const query = validatorFor(COUNT, 'querystring');
    const body = validatorFor(COUNT, 'body');
    expect(refusal(query, { count: '7' })).toBeUndefined();
    expect(refusal(body, { count: '7' })).toContain('integer');
    expect(refusal(body, { count: 7 })).toBeUndefined();
  });

  it('names the part a refused integer came in, for the same schema in two parts', () => {
    expect(refusal(validatorFor(COUNT, 'querystring'), { count: '0x10' })).toBe(`querystring.count must be a decimal integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`);
    expect(refusal(validatorFor(COUNT, 'params'), { count: '0x10' })).toMatch(/^params\.count must be a decimal integer/);
  });

  it('gives a second server the validator a fresh compile gives, for any schema of a bounded integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: -20, max: 20 }), (minimum, span, value) => {
        const schema = { type: 'object', properties: { n: { type: 'integer', minimum, maximum: minimum + span } } };
        const first = refusal(validatorFor(schema, 'body'), { n: value });
        const second = refusal(validatorFor(structuredClone(schema), 'body'), { n: value });
        expect(second).toBe(first);
        expect(first === undefined).toBe(value >= minimum && value <= minimum + span);
      }),
      { numRuns: 50 },
    );
  });

  it('serializes each response schema by its own fields, not by another one compiled before it', () => {
    const serializerOf = (schema: object) => sharedSerializerFactory(undefined, undefined)({ schema, method: 'GET', url: '/x', httpStatus: '200' });
    const named = serializerOf({ type: 'object', properties: { name: { type: 'string' } } });
    const counted = serializerOf({ type: 'object', properties: { count: { type: 'integer' } } });
    const document = { name: 'Plan', count: 3 };
    expect(JSON.parse(named(document))).toEqual({ name: 'Plan' });
    expect(JSON.parse(counted(document))).toEqual({ count: 3 });
    expect(JSON.parse(serializerOf({ type: 'object', properties: { name: { type: 'string' } } })(document))).toEqual({ name: 'Plan' });
  });
});
