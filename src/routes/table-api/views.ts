import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TableOk, tableOk } from '../../http/envelopes/table.js';
import { callerOf } from '../../http/request-context.js';
import { MAX_VIEW_NAME, MAX_VIEWS_PER_TABLE, VIEW_KINDS } from '../../model/tables/views.js';
import { SavedView, TableParams, ViewParams } from './schemas.js';

const ViewName = Type.String({ minLength: 1, maxLength: MAX_VIEW_NAME, description: `1-${MAX_VIEW_NAME} characters, unique in the table (128801)` });
const Settings = Type.Unknown({ description: 'the settings of the view\'s kind (docs/TABLE-API.md "Views"); column guids of the table' });

/** Saved views of a table: our extension of the spec (docs/TABLE-API.md "Views"), errors 1288xx. */
export const viewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/tables/:guid/views',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'List the saved views of a table (extension)',
        description: 'In order; the first is the default grid view. Needs `readable` on the base.',
        params: TableParams,
        response: { 200: TableOk(Type.Array(SavedView)) },
      },
    },
    async (request) => tableOk(await app.services.tables.listViews(callerOf(request), request.params.guid)),
  );

  app.post(
    '/tables/:guid/views',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Create a saved view (extension)',
        description:
          `Added last. \`kind\`: ${VIEW_KINDS.join(', ')}; absent \`settings\`: the kind's defaults. Settings that break a rule: 400 / 128800; ` +
          `a name taken: 409 / 128801; more than ${MAX_VIEWS_PER_TABLE} views: 409 / 128803.`,
        params: TableParams,
        body: Type.Object({ name: ViewName, kind: Type.Union(VIEW_KINDS.map((kind) => Type.Literal(kind))), settings: Type.Optional(Settings) }),
        response: { 200: TableOk(SavedView) },
      },
    },
    async (request) => {
      const { name, kind, settings } = request.body;
      return tableOk(await app.services.tables.createView(callerOf(request), request.params.guid, { name, kind, settings }));
    },
  );

  app.put(
    '/tables/:guid/views/:viewGuid',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Rename a saved view or replace its settings (extension)',
        description: 'Sent `settings` replace the stored ones whole (absent keys take their defaults). The kind is fixed at creation.',
        params: ViewParams,
        body: Type.Object({ name: Type.Optional(ViewName), settings: Type.Optional(Settings) }),
        response: { 200: TableOk(SavedView) },
      },
    },
    async (request) => {
      const { name, settings } = request.body;
      return tableOk(await app.services.tables.updateView(callerOf(request), request.params.guid, request.params.viewGuid, { name, settings }));
    },
  );

  app.delete(
    '/tables/:guid/views/:viewGuid',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['table api'],
        summary: 'Delete a saved view (extension)',
        description: 'The default view cannot be deleted (409 / 128802); rows are untouched.',
        params: ViewParams,
        response: { 200: TableOk(Type.Null()) },
      },
    },
    async (request) => {
      await app.services.tables.deleteView(callerOf(request), request.params.guid, request.params.viewGuid);
      return tableOk(null);
    },
  );
};
