import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, Errors } from '../../errors.js';

/**
 * Per-application request budget per second on the backend routes (spec 8): the app's own `qpsLimit`,
 * else the service default. Runs after authentication (preParsing), so the key is the verified appId;
 * unauthenticated requests are keyed by client address. Counters are kept in process, or with REDIS_URL in
 * Redis (src/cluster/rate-limit-store.ts), so that N processes still allow the budget once.
 */
export const appRateLimit = fp(
  async (app: FastifyInstance, options: { defaultQps: number; store?: FastifyRateLimitStoreCtor | undefined }) => {
    await app.register(rateLimit, {
      ...(options.store ? { store: options.store } : {}),
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
