import type { FastifyPluginAsync } from 'fastify';

/** Liveness and readiness: 200 when the database answers, 503 otherwise. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await app.services.storage.ping();
      return { status: 'ok', database: app.services.storage.engine };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', database: app.services.storage.engine });
    }
  });
};
