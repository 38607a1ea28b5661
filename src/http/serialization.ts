import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/** Fastify's own way of making response serializers (fast-json-stringify), wrapped below. */
const buildSerializer = SerializerSelector();
const compiled = new Map<string, ReturnType<ReturnType<SerializerFactory>>>();

/**
 * Fastify's response serializers, each compiled once per process: every server of a process compiles the same
 * route schemas, which takes a third of a server's start, and the test suite starts hundreds of servers in one
 * process. A serializer depends on the schema and the server's shared schemas and options only (all in the key).
 */
export const sharedSerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = buildSerializer(externalSchemas, options);
  const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route) => {
    const key = `${context} ${JSON.stringify(route.schema)}`;
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};
