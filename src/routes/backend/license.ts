import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, Errors } from '../../errors.js';
import { FILE_TYPES } from '../../model/file-types.js';
import { SEAT_POLICIES } from '../../apps/seat-policy.js';
import { SeatStatus, type SeatStatusValue } from '../../domain/seats/seat-service.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { callerOf } from '../../http/request-context.js';

const MAX_USERS_PER_CALL = 1000;
const MAX_PAGE_SIZE = 500;
/** Highest page: 500 million seats at the largest page size, far beyond any licence. */
const MAX_PAGE = 1_000_000;

const UserIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: MAX_USERS_PER_CALL,
  description: `integrator user ids, 1-${MAX_USERS_PER_CALL} per call; duplicates count once`,
});

const AppDetails = Type.Object({
  appName: Type.String(),
  availableFileTypes: Type.Array(Type.String({ enum: [...FILE_TYPES] })),
  premiumFileTypes: Type.Array(Type.String({ enum: [...FILE_TYPES] })),
  activatedUserCount: Type.Integer({ description: 'seats with status 1' }),
  userCount: Type.Integer({ description: 'users with any seat status' }),
  memberLimit: Type.Integer({ description: 'most seats that may be activated at once' }),
  seatPolicy: Type.String({
    enum: [...SEAT_POLICIES],
    description:
      'open: any user the integrator vouches for; auto: a user without a seat is activated on first use while seats remain; ' +
      'strict: activated users only. Under auto and strict a disabled user or one beyond memberLimit is refused with 403 / 20011. ' +
      'Set with the command line (svc app update --seat-policy). Not in the specification: an extra field.',
  }),
  validFrom: Type.String({ format: 'date-time' }),
  validUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null: no expiry' }),
  endpointUrl: Type.Union([Type.String(), Type.Null()]),
  frameOrigins: Type.Array(Type.String(), {
    description:
      'host origins allowed to frame the editor page (frame-ancestors), normalized http(s)://host[:port], host possibly *.name; ' +
      'empty: any origin. Set with the command line (svc app update --frame-origins). Not in the specification: an extra field.',
  }),
});

const Seat = Type.Object({
  userId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  status: Type.Integer({ enum: [1, 0, -1], description: '1 activated, 0 disabled, -1 not enabled' }),
});

const AppIdParams = Type.Object({ appId: Type.String({ minLength: 1, maxLength: 64 }) });
const NoData = BackendOk(Type.Null());

/** Application and seat management (spec 4.2 "Application" and "Seats"): licence-scoped signatures only. */
export const licenseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const license = { auth: 'license' } as const;

  /** An app may read and change only itself; any other id looks like an unknown app. */
  const ownApp = (request: FastifyRequest, appId: string) => {
    const caller = callerOf(request);
    if (caller.app.id !== appId) throw new ApiError(Errors.appNotFound, `application ${appId} not found`);
    return caller.app;
  };

  app.get(
    '/license/apps/:appId',
    {
      config: license,
      schema: {
        tags: ['application'],
        summary: 'Application details',
        params: AppIdParams,
        response: { 200: BackendOk(AppDetails) },
      },
    },
    async (request) => {
      const current = await app.services.apps.get(ownApp(request, request.params.appId).id);
      const seats = await app.services.seats.counts(current.id);
      return ok({
        appName: current.name,
        availableFileTypes: current.availableFileTypes,
        premiumFileTypes: current.premiumFileTypes,
        activatedUserCount: seats.activated,
        userCount: seats.total,
        memberLimit: current.memberLimit,
        seatPolicy: current.seatPolicy,
        validFrom: new Date(current.validFrom).toISOString(),
        validUntil: current.validUntil === null ? null : new Date(current.validUntil).toISOString(),
        endpointUrl: current.endpointUrl,
        frameOrigins: current.frameOrigins,
      });
    },
  );

  app.put(
    '/license/apps/:appId/endpoint-url',
    {
      config: { ...license, invalidRequest: Errors.invalidEndpointUrl },
      schema: {
        tags: ['application'],
        summary: 'Set the integrator callback base address',
        description: 'Absolute http or https URL without credentials, query or fragment; error 10001 otherwise.',
        params: AppIdParams,
        body: Type.Object({ url: Type.String({ maxLength: 2048 }) }),
        response: { 200: NoData },
      },
    },
    async (request) => {
      await app.services.apps.setEndpointUrl(ownApp(request, request.params.appId).id, request.body.url);
      return ok(null);
    },
  );

  const ChangedIds = (what: string) =>
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: MAX_USERS_PER_CALL,
      default: [],
      description: `${what}, at most ${MAX_USERS_PER_CALL}; empty or absent: any`,
    });
  app.post(
    '/license/apps/:appId/permission-changes',
    {
      config: license,
      schema: {
        tags: ['application'],
        summary: 'Announce that permissions changed',
        description:
          'The integrator tells the service that what its `GET /files/{fileId}` callback answers has changed: for these ' +
          'files, for these users, both, or (both empty) for anything of the application. Every service process forgets ' +
          'the answers concerned at once, and open editors of those files ask again (downgraded or closed as the new ' +
          'answer says). Not in the specification: an addition (docs/DEPLOY.md "Changes take effect at once"). The reported ' +
          'event `file.permissionChanged` (POST events/report) announces the same for one file with a user token.',
        params: AppIdParams,
        body: Type.Object({ fileIds: ChangedIds('file ids'), userIds: ChangedIds('user ids') }, { additionalProperties: false }),
        response: { 200: NoData },
      },
    },
    async (request) => {
      const appId = ownApp(request, request.params.appId).id;
      await app.services.cluster.changes.publish({ kind: 'permissions', appId, fileIds: request.body.fileIds, userIds: request.body.userIds });
      return ok(null);
    },
  );

  app.get(
    '/license/users',
    {
      config: license,
      schema: {
        tags: ['seats'],
        summary: 'List user seats',
        description: `Paged by \`page\` (from 1 to ${MAX_PAGE}; 0 is read as 1) and \`size\` (1-${MAX_PAGE_SIZE}, default 20), oldest seat first.`,
        querystring: Type.Object({
          page: Type.Integer({ minimum: 0, maximum: MAX_PAGE, default: 1 }),
          size: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 }),
        }),
        response: { 200: BackendOk(Type.Array(Seat)) },
      },
    },
    async (request) => {
      const { page, size } = request.query;
      return ok(await app.services.seats.list(callerOf(request).app.id, Math.max(page, 1), size));
    },
  );

  const setSeats = async (request: FastifyRequest, userIds: string[], status: SeatStatusValue) => {
    await app.services.seats.setStatus(callerOf(request).app.id, userIds, status);
    return ok(null);
  };

  app.post(
    '/license/users/activate',
    {
      config: license,
      schema: {
        tags: ['seats'],
        summary: 'Activate seats (status 1)',
        description: 'All or nothing: fails with 20010 and changes nothing when the member limit would be exceeded.',
        body: Type.Object({ userIds: UserIds }),
        response: { 200: NoData },
      },
    },
    async (request) => setSeats(request, request.body.userIds, SeatStatus.activated),
  );

  app.post(
    '/license/users/deactivate',
    {
      config: license,
      schema: {
        tags: ['seats'],
        summary: 'Disable seats (status 0)',
        body: Type.Object({ userIds: UserIds }),
        response: { 200: NoData },
      },
    },
    async (request) => setSeats(request, request.body.userIds, SeatStatus.disabled),
  );

  const SetStatusBody = Type.Object({
    userIds: UserIds,
    status: Type.Union([Type.Literal(1), Type.Literal(0), Type.Literal(-1)], { description: '1 activated, 0 disabled, -1 not enabled' }),
  });
  app.post(
    '/license/users/set-status',
    {
      config: license,
      schema: {
        tags: ['seats'],
        summary: 'Set seats to a status',
        body: SetStatusBody,
        response: { 200: NoData },
      },
    },
    async (request) => setSeats(request, request.body.userIds, request.body.status),
  );
};
