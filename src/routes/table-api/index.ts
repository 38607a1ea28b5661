import type { FastifyPluginAsync } from 'fastify';
import { useTableEnvelope } from '../../http/envelopes/table.js';
import { columnRoutes } from './columns.js';
import { rowRoutes } from './rows.js';
import { tableRoutes } from './tables.js';
import { viewRoutes } from './views.js';

/**
 * The table data API (spec 4.4) under /sdk/v2/api/table-api/openapi/v1: its own `{code, msg, data}`
 * envelope, signature + token authentication on every route (`config.auth`), and a body limit of its own
 * (`SVC_TABLE_BODY_LIMIT`; above it 400 / 70012 before the body is read). Authentication and the per-app
 * rate limit come from the enclosing /sdk/v2 scope (server.ts), shared with the backend API.
 */
export const tableApi: FastifyPluginAsync<{ bodyLimit: number }> = async (app, options) => {
  useTableEnvelope(app);
  // Column names are any text, `__proto__` included (docs/TABLE-API.md), and value maps are keyed by them:
  // such a key is parsed as an own property (JSON.parse's own behaviour) instead of refusing the body, as
  // Fastify's default parser does. The table code never merges a value map into another object by
  // assignment, and a `constructor.prototype` body is still refused.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('ignore', 'error'));
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= options.bodyLimit;
  });
  await app.register(tableRoutes);
  await app.register(columnRoutes);
  await app.register(rowRoutes);
  await app.register(viewRoutes);
};
