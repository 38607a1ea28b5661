import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

const Health = (status: string, description: string) =>
  Type.Object(
    {
      status: Type.Literal(status),
      database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')], { description: 'the engine in use' }),
      redis: Type.Union([Type.Literal('off'), Type.Literal('up'), Type.Literal('down')], {
        description: 'off: REDIS_URL unset; up: Redis answers; down: it does not (the service keeps serving: per-process rate limits, storage poll)',
      }),
    },
    { description },
  );

const schema = (ok: 'ok' | 'ready', summary: string, description: string) => ({
  summary,
  description,
  tags: ['health'],
  response: { 200: Health(ok, 'The database answers'), 503: Health('unavailable', 'The database does not answer (or the process is shutting down)') },
});

/** The round trip, or a failure once `ms` have passed: a database that does not answer makes the check 503, not hang. */
async function withinTime(roundTrip: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([roundTrip, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Health and readiness (docs/DEPLOY.md). Both answer 503 when the database does not answer; Redis's state is
 * shown, never a failure. `/readyz` is the load balancer's question (also 503 while the process shuts down:
 * Fastify refuses new requests then); `/healthz` the monitor's.
 */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  const check = (ok: 'ok' | 'ready') => async (request: FastifyRequest, reply: FastifyReply) => {
    const { storage, cluster } = app.services;
    const state = { database: storage.engine, redis: cluster.redisState() };
    try {
      await withinTime(storage.ping(), app.services.config.databaseTimeoutMs);
      return { status: ok, ...state };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', ...state });
    }
  };
  app.get(
    '/healthz',
    { schema: schema('ok', 'Liveness', 'No authentication. 200 when the database answers a round trip, 503 otherwise; shows whether Redis answers.') },
    check('ok'),
  );
  app.get(
    '/readyz',
    {
      schema: schema('ready', 'Readiness', 'No authentication. For load balancers: 200 when this process should get requests (database answers), 503 otherwise and while it shuts down.'),
    },
    check('ready'),
  );
};
