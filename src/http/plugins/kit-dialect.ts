import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isBackendSuccess, KIT_ANSWERS } from '../envelopes/kit.js';

const SIGNATURE_HEADER = 'x-svc-signature';
const TOKEN_HEADER = 'x-svc-token';

/**
 * The public client kits' dialect (client-kits.md, README "Client kits"), switched on by
 * SVC_COMPAT_HEADER_PREFIX. A request carrying `<prefix>Signature` and no `X-Svc-Signature` is a kit request:
 *
 * - onRequest: its `<prefix>Signature` / `<prefix>Token` become the request's X-Svc credentials, so it is
 *   authenticated by signature-auth exactly as any other request (registered before it). Nothing else is read
 *   from the kit headers (`X-Weboffice-*` and the like are ignored);
 * - preSerialization: a success of a call listed in KIT_ANSWERS is re-shaped (204 with no body for a write, the
 *   bare payload for a read, a route's own shape re-shaped). Errors, and every call not listed, keep the backend envelope.
 *
 * The dialect changes the shape of answers only, never who may do what.
 */
export const kitDialect = fp(
  async (app: FastifyInstance, options: { headerPrefix: string | undefined }) => {
    if (options.headerPrefix === undefined) return;
    const prefix = options.headerPrefix.toLowerCase();
    const kitSignature = `${prefix}signature`;
    const kitToken = `${prefix}token`;
    const kitRequests = new WeakSet<FastifyRequest>();

    app.addHook('onRequest', async (request) => {
      const { headers } = request;
      const signature = headers[kitSignature];
      if (headers[SIGNATURE_HEADER] !== undefined || typeof signature !== 'string') return;
      kitRequests.add(request);
      headers[SIGNATURE_HEADER] = signature;
      // The kit's own token or none: an X-Svc-Token beside kit credentials is not mixed in.
      const token = headers[kitToken];
      if (typeof token === 'string') headers[TOKEN_HEADER] = token;
      else delete headers[TOKEN_HEADER];
    });

    app.addHook('preSerialization', async (request, reply, payload) => {
      if (!kitRequests.has(request) || reply.statusCode >= 300) return payload;
      const answer = KIT_ANSWERS.get(`${request.method} ${request.routeOptions.url}`);
      if (!answer) return payload;
      if (answer.kind === 'own') {
        // The route's serializer knows only the route's own shape.
        reply.serializer(JSON.stringify);
        return answer.body(payload);
      }
      if (!isBackendSuccess(payload)) return payload;
      // The route's serializer knows only the envelope's shape.
      reply.serializer(JSON.stringify);
      if (answer.kind === 'write') {
        reply.code(204);
        return null;
      }
      return answer.body(payload.data);
    });

    // A renamed route (or parameter) would silently fall back to the envelope: refuse to start instead.
    const routes = new Set<string>();
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
    });
    app.addHook('onReady', async () => {
      const missing = [...KIT_ANSWERS.keys()].filter((call) => !routes.has(call));
      if (missing.length > 0) throw new Error(`kit dialect: no route ${missing.join(', ')}`);
    });
  },
  { name: 'kit-dialect' },
);
