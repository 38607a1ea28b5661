import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Health and readiness (docs/DEPLOY.md). Both answer 503 when the database does not answer; Redis's state is
 * shown, never a failure: without it the service keeps serving (per-process rate limits, storage poll).
 * `/readyz` is the load balancer's question (also 503 while the process shuts down: Fastify refuses new
 * requests then); `/healthz` the monitor's.
 */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  const check = (ok: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { storage, cluster } = app.services;
    const state = { database: storage.engine, redis: cluster.redisState() };
    try {
      await storage.ping();
      return { status: ok, ...state };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', ...state });
    }
  };
  app.get('/healthz', { schema: { hide: true } }, check('ok'));
  app.get('/readyz', { schema: { hide: true } }, check('ready'));
};
