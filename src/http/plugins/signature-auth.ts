import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_HEADER, SESSION_QUERY, sessionAuth } from '../../auth/session-tickets.js';
import { verifySignature } from '../../auth/signature.js';
import { ApiError, Errors } from '../../errors.js';
import type { AuthRequirement } from '../request-context.js';

/** A credential from its header or, as browsers and older clients send it, from the query string. */
function credential(request: FastifyRequest, header: string, queryName: string): string | undefined {
  const fromHeader = request.headers[header];
  if (typeof fromHeader === 'string' && fromHeader.length > 0) return fromHeader;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.[queryName];
  return typeof fromQuery === 'string' && fromQuery.length > 0 ? fromQuery : undefined;
}

/**
 * Authenticates every route of the enclosing scope according to its `config.auth`, in onRequest: before the
 * body is read, so an unauthenticated caller costs no parsing. Sets `request.auth`. A route in a user's context
 * also takes an editor session ticket (X-Svc-Session-Token, or ?sessionToken= for images) in place of the
 * signature and token: the editor page's calls (auth/session-tickets.ts).
 */
export const signatureAuth = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      const requirement: AuthRequirement = request.routeOptions.config?.auth ?? 'none';
      if (requirement === 'none') return;
      const ticket = requirement === 'user' ? credential(request, SESSION_HEADER, SESSION_QUERY) : undefined;
      if (ticket !== undefined) {
        request.auth = await sessionAuth(app.services.sessionTickets, (id) => app.services.apps.find(id), ticket, request.id);
        return;
      }
      const verified = await verifySignature(credential(request, 'x-svc-signature', 'signature'), (id) => app.services.apps.find(id), {
        license: requirement === 'license',
        maxLifetimeSeconds: app.services.config.signatureMaxLifetimeSeconds,
      });
      const token = credential(request, 'x-svc-token', 'token');
      if (requirement === 'user' && token === undefined) {
        throw new ApiError(Errors.tokenMissing, 'user token missing: send X-Svc-Token or ?token=');
      }
      request.auth = { app: verified.app, claims: verified.claims, token, requestId: request.id };
    });
  },
  { name: 'signature-auth' },
);
