import type { RequestAuth } from '../auth/request-auth.js';
import type { ErrorSpec } from '../errors.js';
import type { Services } from '../services.js';

/**
 * What a route needs from the caller:
 * - `none`: nothing (health, docs, some preview pages);
 * - `app`: a valid application signature;
 * - `license`: a signature with scope "license" expiring within 4 minutes (licence and admin endpoints);
 * - `user`: a signature plus the integrator's user token (`X-Svc-Token`), for calls in a user's context.
 */
export type AuthRequirement = 'none' | 'app' | 'license' | 'user';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /** Error used when this route's input fails validation (default: Errors.invalidRequest). */
    invalidRequest?: ErrorSpec;
    /**
     * A page in a browser may call this route directly although it takes no user token (CORS, plugins/cors.ts);
     * routes with `auth: 'user'` are browser-callable anyway.
     */
    browser?: boolean;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
  interface FastifyInstance {
    services: Services;
  }
}

/** The caller of a route that declared an auth requirement; the auth hook guarantees it is set. */
export function callerOf(request: { auth: RequestAuth | null }): RequestAuth {
  if (!request.auth) throw new Error('route reached without authentication: declare config.auth on it');
  return request.auth;
}

/** The service's own origin as the caller reached it: links the service hands out point back at it. */
export function serviceOrigin(request: { protocol: string; host: string }): string {
  return `${request.protocol}://${request.host}`;
}
