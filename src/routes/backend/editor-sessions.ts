import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RENEWED_GRACE_MS, SESSION_HEADER, signatureExpiry } from '../../auth/session-tickets.js';
import { ApiError, Errors, isApiError, type ErrorSpec } from '../../errors.js';
import { BackendOk, ok } from '../../http/envelopes/backend.js';
import { absentBodyAsEmptyObject } from '../../http/empty-body.js';
import { callerOf } from '../../http/request-context.js';
import { FileIdParams } from './files.js';

/** Refusals that end a user's editor sessions on the file: the integrator or the seat policy took it away. */
const REVOKING: readonly ErrorSpec[] = [Errors.permissionDenied, Errors.integratorFileNotFound, Errors.seatRequired];

const IssuedTicket = Type.Object({
  ticket: Type.String({ description: `the new ticket: send it as ${SESSION_HEADER}` }),
  expiresAt: Type.Integer({ description: 'ms since the epoch: renew before then' }),
  signatureExpiresAt: Type.Integer({ description: 'ms since the epoch: the signature behind the session expires then' }),
});

/**
 * `POST /sdk/v2/collab-files/{fileId}/editor-session` (docs/SDK.md "Sessions without tokens in URLs"): the editor
 * page's session ticket, new or renewed. With a signature and token (the credentials the host page gave): a new
 * session. With the current ticket (X-Svc-Session-Token): its renewal, a new ticket, the old one cut short. Either
 * way the user must still be let in (seat) and read the file (`readable`); when the integrator or the seat policy
 * refuses, the user's sessions on the file are revoked with the refusal.
 */
export const editorSessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;

  app.post(
    '/:fileId/editor-session',
    {
      config: { auth: 'user' },
      preValidation: absentBodyAsEmptyObject,
      schema: {
        tags: ['editor'],
        summary: "An editor page's session ticket, new or renewed",
        description:
          'Called by the editor page, not by integrators: with `X-Svc-Signature` + `X-Svc-Token` it opens a session of the ' +
          `user on the file; with \`${SESSION_HEADER}\` it renews that session (the old ticket works ${RENEWED_GRACE_MS / 1000} s more). Needs ` +
          '`readable` (and the seat policy\'s admission); a refusal also revokes the user\'s sessions on the file. A ticket ' +
          'never lives past the signature that opened the session. Unknown, expired or revoked ticket: 401 / 127100; a ' +
          'ticket of another file: 403 / 127101.',
        params: FileIdParams,
        body: Type.Object({}),
        response: { 200: BackendOk(IssuedTicket) },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const { fileId } = request.params;
      await services.files.get(auth.app.id, fileId);
      let userId: string;
      try {
        userId = (await services.access.authorize(auth, fileId, 'readable')).user.id;
      } catch (error) {
        const sessionUser = auth.session?.userId;
        if (sessionUser !== undefined && isApiError(error) && REVOKING.includes(error.spec)) await services.sessionTickets.revoke(auth.app.id, sessionUser, fileId);
        throw error;
      }
      if (auth.session) {
        const ticket = request.headers[SESSION_HEADER];
        if (typeof ticket !== 'string') throw new ApiError(Errors.invalidRequest, `a renewal sends the ticket as ${SESSION_HEADER}, not in the query`);
        return ok(await services.sessionTickets.renew(ticket, await services.sessionTickets.resolve(ticket)));
      }
      if (auth.token === undefined) throw new ApiError(Errors.tokenMissing, 'user token missing: send X-Svc-Token');
      return ok(await services.sessionTickets.issue({ appId: auth.app.id, fileId, userId, token: auth.token, claims: auth.claims, signatureExpiresAt: signatureExpiry(auth.claims) }));
    },
  );
};
