import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, Errors } from '../../errors.js';

/**
 * Per-application request budget per second on the backend routes (spec 8): the app's own `qpsLimit`,
 * else the service default. Runs after authentication (preParsing), so the key is the verified appId;
 * unauthenticated requests are keyed by client address. Counters are kept in process (one instance);
 * @fastify/rate-limit's Redis store is the path for several instances.
 */
export const appRateLimit = fp(
  async (app: FastifyInstance, options: { defaultQps: number }) => {
    await app.register(rateLimit, {
      hook: 'preParsing',
      timeWindow: 1000,
      max: (request) => request.auth?.app.qpsLimit ?? options.defaultQps,
      keyGenerator: (request) => (request.auth ? `app:${request.auth.app.id}` : `ip:${request.ip}`),
      errorResponseBuilder: (_request, context) =>
        new ApiError(Errors.rateLimited, `rate limit of ${context.max} requests per second exceeded; retry after ${context.after}`),
    });
  },
  { name: 'app-rate-limit' },
);
