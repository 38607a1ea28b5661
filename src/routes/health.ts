import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';

const Health = (status: 'ok' | 'unavailable', description: string) =>
  Type.Object(
    { status: Type.Literal(status), database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')], { description: 'the engine in use' }) },
    { description },
  );

const healthSchema = {
  summary: 'Liveness and readiness',
  description: 'No authentication. 200 when the database answers a round trip, 503 otherwise (for load balancers and orchestrators).',
  tags: ['health'],
  response: { 200: Health('ok', 'The database answers'), 503: Health('unavailable', 'The database does not answer') },
};

/** Liveness and readiness: 200 when the database answers, 503 otherwise. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', { schema: healthSchema }, async (request, reply) => {
    try {
      await app.services.storage.ping();
      return { status: 'ok', database: app.services.storage.engine };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', database: app.services.storage.engine });
    }
  });
};
