import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { originAllowed } from '../../apps/frame-origins.js';

/** Request headers a page may send: the credentials and the body's type. */
const ALLOWED_HEADERS = ['content-type', 'x-svc-signature', 'x-svc-token', 'x-request-id'];
/** Answer headers a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'x-request-id, retry-after, content-disposition, etag';
/** How long a browser may reuse a preflight's answer, seconds. */
const PREFLIGHT_MAX_AGE = 600;

/**
 * Routes a page in a browser may call directly: those in a user's context (signature and the user's token, as
 * the page got them from its own back end) and those that say so (`config.browser`: the upload, whose access
 * token is its credential). Licence and admin calls never are: their signature is the application's secret at work.
 */
function browserCallable(config: FastifyContextConfig | undefined): boolean {
  return config?.auth === 'user' || config?.browser === true;
}

/** A route pattern (`/a/:id/b`) as a matcher of request paths. */
function pathMatcher(pattern: string): RegExp {
  const segments = pattern.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  reply.header('vary', current ? `${String(current)}, ${value}` : value);
}

/**
 * CORS for the browser-callable routes of the enclosing scope (README "Browser calls (CORS)"). The allowed origins
 * are each application's frame origins (`svc app update --frame-origins`); an app that lists none opens nothing.
 *
 * - An answer carries `Access-Control-Allow-Origin` only when the request's Origin is allowed by the app that
 *   signed it (by any app when the request carries no valid signature, so a page can read why it was refused).
 * - A preflight (`OPTIONS` under `prefixes`) carries no credentials: it is answered when some app allows the
 *   origin and the path has a browser-callable route for the method asked; otherwise 204 with no CORS headers,
 *   which the browser takes as a refusal.
 */
export const browserCors = fp(
  async (app: FastifyInstance, options: { prefixes: readonly string[] }) => {
    const routes: { path: RegExp; methods: Set<string> }[] = [];
    app.addHook('onRoute', (route) => {
      if (!browserCallable(route.config)) return;
      const methods = [route.method].flat().filter((method) => method !== 'HEAD');
      const existing = routes.find((entry) => entry.path.source === pathMatcher(route.url).source);
      if (existing) methods.forEach((method) => existing.methods.add(method));
      else routes.push({ path: pathMatcher(route.url), methods: new Set(methods) });
    });

    const originOf = (request: FastifyRequest): string | undefined => {
      const origin = request.headers.origin;
      return typeof origin === 'string' && origin.length > 0 ? origin : undefined;
    };

    app.addHook('onSend', async (request, reply, payload) => {
      if (!browserCallable(request.routeOptions.config)) return payload;
      addVary(reply, 'Origin');
      const origin = originOf(request);
      if (origin === undefined) return payload;
      const allowed = request.auth ? originAllowed(request.auth.app.frameOrigins, origin) : await app.services.apps.anyAllowsOrigin(origin);
      if (allowed) reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED_HEADERS);
      return payload;
    });

    const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
      addVary(reply, 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      const origin = originOf(request);
      const method = request.headers['access-control-request-method'];
      const path = request.url.split('?')[0]!;
      const methods = new Set(routes.filter((route) => route.path.test(path)).flatMap((route) => [...route.methods]));
      const asked = String(request.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((header) => header.trim().toLowerCase())
        .filter(Boolean);
      const refusal =
        origin === undefined || typeof method !== 'string'
          ? 'not a CORS preflight (Origin and Access-Control-Request-Method)'
          : !methods.has(method.toUpperCase())
            ? `no browser-callable ${method} ${path}`
            : asked.some((header) => !ALLOWED_HEADERS.includes(header))
              ? `headers not allowed: ${asked.filter((header) => !ALLOWED_HEADERS.includes(header)).join(', ')}`
              : !(await app.services.apps.anyAllowsOrigin(origin))
                ? `origin ${origin} is allowed by no application (svc app update --frame-origins)`
                : undefined;
      if (refusal !== undefined) {
        request.log.info({ origin, method, path }, `CORS preflight refused: ${refusal}`);
        return reply.code(204).send();
      }
      return reply
        .code(204)
        .header('access-control-allow-origin', origin!)
        .header('access-control-allow-methods', [...methods].join(', '))
        .header('access-control-allow-headers', ALLOWED_HEADERS.join(', '))
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE))
        .send();
    };
    for (const prefix of options.prefixes) {
      app.options(`${prefix}/*`, { config: { auth: 'none' }, schema: { hide: true } }, preflight);
    }
  },
  { name: 'browser-cors' },
);
