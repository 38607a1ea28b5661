import crypto from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ApiError, Errors } from './errors.js';
import { refuseControlCharactersInBody, refuseControlCharactersInUrl } from './http/control-characters.js';
import { ignoreContentTypeWithoutBody } from './http/empty-body.js';
import { sendBackendError } from './http/envelopes/backend.js';
import { sendTableError } from './http/envelopes/table.js';
import { redactingLogger } from './http/log-redaction.js';
import { withErrorAnswers } from './http/openapi.js';
import { appRateLimit } from './http/plugins/app-rate-limit.js';
import { browserCors } from './http/plugins/cors.js';
import { kitDialect } from './http/plugins/kit-dialect.js';
import { requestDrain } from './http/plugins/request-drain.js';
import { signatureAuth } from './http/plugins/signature-auth.js';
import { sharedSerializerFactory } from './http/serialization.js';
import { formatValidationErrors, validatorCompiler } from './http/validation.js';
import { backendApi } from './routes/backend/index.js';
import { collaborationEndpoint } from './routes/collaboration.js';
import { browserAssets } from './routes/editor-page/assets.js';
import { editorPage } from './routes/editor-page/index.js';
import { tableApi } from './routes/table-api/index.js';
import { healthRoutes } from './routes/health.js';
import { UPLOADER_PREFIX, uploaderApi } from './routes/uploader.js';
import type { Services } from './services.js';
import './http/request-context.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SDK_PREFIX = '/sdk/v2';
const TABLE_API_PATH = '/api/table-api/openapi/v1';
const TABLE_API_PREFIX = `${SDK_PREFIX}${TABLE_API_PATH}`;
/** How long requests under way may take to finish when the server closes. */
const REQUEST_DRAIN_MS = 20_000;
/** Longest path segment the router accepts; every id of the API is far shorter. */
const MAX_PARAM_LENGTH = 100;

export interface ServerOptions {
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the HTTP server: shared concerns (request ids, validation, OpenAPI) here, every route group in its
 * own plugin. Nothing listens until the caller calls `listen`.
 */
export async function buildServer(services: Services, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // signatures and tokens arrive in query strings too (browsers, client kits): never written to the log
    logger: redactingLogger(options.logger ?? { level: services.config.logLevel }),
    bodyLimit: services.config.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    },
    schemaErrorFormatter: formatValidationErrors,
    schemaController: { compilersFactory: { buildSerializer: sharedSerializerFactory } },
    forceCloseConnections: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any route (and its envelope) is chosen: answered in the envelope of
    // the group the path belongs to, like every other error.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      const apiError =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError(Errors.uriTooLong, `a path segment is longer than ${MAX_PARAM_LENGTH} characters`)
          : new ApiError(Errors.invalidRequest, 'malformed URL: it cannot be decoded');
      (request.url.startsWith(TABLE_API_PREFIX) ? sendTableError : sendBackendError)(apiError, request, reply);
    },
  });
  app.setValidatorCompiler(validatorCompiler());
  // Before any route is registered: a plugin's routes keep the error handler in force when it was registered, so
  // the health routes' refusals (a control character in their query) are in the envelope too, never a bare 500.
  app.setErrorHandler((error, request, reply) => sendBackendError(error, request, reply));
  // Fastify reads text/plain bodies as strings by default; no route takes one, so it is an unsupported type (415)
  app.removeContentTypeParser('text/plain');
  app.decorate('services', services);
  // The event delivery worker lives as long as the server: started when it is ready, stopped (in-flight
  // deliveries finished) before it closes, so storage is never closed under a running delivery.
  app.addHook('onReady', async () => {
    if (services.config.integratorLink.deliveryWorker) services.delivery.start(app.log.child({ component: 'event-delivery' }));
    // edits a process acknowledged but did not record before it stopped abruptly are recorded now
    await services.content.recoverAbandoned().catch((error: unknown) => app.log.error({ err: error }, 'looking for unrecorded content changes failed'));
    if (services.config.tasks.worker) services.tasks.start(app.log.child({ component: 'tasks' }));
    const exportLog = app.log.child({ component: 'export' });
    services.exports.start((error) => exportLog.error({ err: error }, 'removing expired export files failed'));
  });
  services.cluster.setLogger(app.log.child({ component: 'cluster' }));
  // Shutdown order (docs/OPERATIONS.md): editors told to reconnect and requests under way answered (preClose:
  // collaboration endpoint, request drain), then running import/export tasks given back to the queue (an
  // import's file is created in the transaction that ends its task), then the coalesced document changes recorded (their FileContent
  // events go to the outbox), then the deliveries under way finished and the rest of the claims given back.
  app.addHook('onClose', async () => {
    await services.tasks.stop();
    await services.exports.stop();
    await services.imports.stop();
    await services.previews.stop();
    await services.content.close();
    await services.delivery.close();
    await services.callbacks.close();
    services.scratch.close();
  });
  await app.register(requestDrain, { drainMs: REQUEST_DRAIN_MS });
  app.decorateRequest('auth', null);
  app.addHook('onRequest', ignoreContentTypeWithoutBody);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onRequest', refuseControlCharactersInUrl);
  app.addHook('preValidation', refuseControlCharactersInBody);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Svc document platform API',
        version: '2.0.0',
        description:
          'Backend API and table data API of the Svc document platform. Backend answers use `{status, message, data}` ' +
          '(status 0 = success); error codes are listed in docs/ERRORS.md.',
      },
      components: {
        securitySchemes: {
          signature: { type: 'apiKey', in: 'header', name: 'X-Svc-Signature', description: 'HS256 JWT signed with the app secret; JOSE header kid = appId' },
          token: { type: 'apiKey', in: 'header', name: 'X-Svc-Token', description: "the integrator's user session token" },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const auth = route.config?.auth ?? 'none';
      const security = auth === 'none' ? [] : auth === 'user' ? [{ signature: [], token: [] }] : [{ signature: [] }];
      const described = withErrorAnswers(schema, url, auth, { tablePrefix: TABLE_API_PREFIX, backendPrefixes: [SDK_PREFIX, UPLOADER_PREFIX] });
      return { schema: { ...described, security } as typeof schema, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes);
  await app.register(collaborationEndpoint);
  // The browser face: the editor page and the files it and the SDK load. Outside the integrators' scope below
  // because they answer HTML and files, not envelopes (the page checks signature and token itself).
  await app.register(editorPage);
  await app.register(browserAssets);
  // Authentication and the per-app rate limit once for everything integrators and editors call (/sdk/v2 and the
  // client kits' /uploader), so the backend, table and upload APIs draw on one budget per app; each group keeps
  // its own envelope.
  await app.register(async (integrators) => {
    // before signature-auth: it hands the kits' credentials to it
    await integrators.register(kitDialect, { headerPrefix: services.config.compatHeaderPrefix });
    await integrators.register(browserCors, { prefixes: [SDK_PREFIX, UPLOADER_PREFIX] });
    await integrators.register(signatureAuth);
    await integrators.register(appRateLimit, { defaultQps: services.config.appQps, store: services.cluster.rateLimitStore });
    await integrators.register(
      async (sdk) => {
        await sdk.register(backendApi);
        await sdk.register(tableApi, { prefix: TABLE_API_PATH, bodyLimit: services.config.tableBodyLimitBytes });
      },
      { prefix: SDK_PREFIX },
    );
    await integrators.register(uploaderApi, { prefix: UPLOADER_PREFIX });
  });

  app.setNotFoundHandler((request, reply) =>
    sendBackendError(new ApiError(Errors.routeNotFound, `no route ${request.method} ${request.url.split('?')[0]}`), request, reply),
  );
  return app;
}
