import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';
import { FILE_ID_PATTERN } from '../../domain/files/file-service.js';

const EventIdParams = Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64, description: 'the X-Svc-Event-Id of the event' }) });

const Delivery = Type.Object({
  eventId: Type.String({ description: 'sent as X-Svc-Event-Id; the same on every attempt' }),
  eventClass: Type.String({ description: 'sent as X-Svc-Sdk-Event' }),
  fileId: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ enum: ['pending', 'delivered', 'failed'] }),
  attempts: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt; null when no answer came' }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'pending events: when the next attempt is due' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  payload: Type.Unknown({ description: 'the JSON body sent to POST {endpointUrl}/events' }),
});

/**
 * The app's view of its event deliveries (licence scope, like every admin endpoint): what went out, how
 * often it was tried, what the integrator answered, and redelivery of failed events.
 */
export const eventAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const license = { auth: 'license' } as const;

  app.get(
    '/admin/events',
    {
      config: license,
      schema: {
        tags: ['events'],
        summary: 'Recent event deliveries, newest first',
        description:
          'Filter by `status` and `fileId`; page back with `before` = the last eventId of the previous page. ' +
          'Events are retried with exponential backoff over about 4-7 hours (README "Integrator link"), then marked failed.',
        querystring: Type.Object({
          status: Type.Optional(Type.String({ enum: ['pending', 'delivered', 'failed'] })),
          fileId: Type.Optional(Type.String({ pattern: FILE_ID_PATTERN })),
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
          before: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        }),
        response: { 200: BackendOk(Type.Array(Delivery)) },
      },
    },
    async (request) => {
      const { status, fileId, limit, before } = request.query;
      return ok(await app.services.events.list(callerOf(request).app.id, { status: status as 'pending' | 'delivered' | 'failed' | undefined, fileId, limit, before }));
    },
  );

  app.get(
    '/admin/events/:eventId',
    {
      config: license,
      schema: { tags: ['events'], summary: 'One event delivery', params: EventIdParams, response: { 200: BackendOk(Delivery) } },
    },
    async (request) => ok(await app.services.events.get(callerOf(request).app.id, request.params.eventId)),
  );

  app.post(
    '/admin/events/:eventId/redeliver',
    {
      config: license,
      schema: {
        tags: ['events'],
        summary: 'Send one event again',
        description:
          'Whatever its state: a failed event gets a fresh retry schedule, a delivered one is sent once more with the same ' +
          'X-Svc-Event-Id (deduplicate by it), a pending one becomes due now. A redelivered event is sent when its turn ' +
          'in its file\'s order comes; events of the file created after it may already have been delivered.',
        params: EventIdParams,
        response: { 200: BackendOk(Delivery) },
      },
    },
    async (request) => ok(await app.services.events.redeliver(callerOf(request).app.id, request.params.eventId)),
  );

  app.post(
    '/admin/events/redeliver-failed',
    {
      config: license,
      schema: {
        tags: ['events'],
        summary: 'Send every failed event again',
        response: { 200: BackendOk(Type.Object({ count: Type.Integer({ description: 'failed events put back on a fresh schedule' }) })) },
      },
    },
    async (request) => ok({ count: await app.services.events.redeliverFailed(callerOf(request).app.id) }),
  );
};
