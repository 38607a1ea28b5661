import crypto from 'node:crypto';
import { ApiError, Errors } from '../errors.js';
import type { App } from '../apps/app.js';
import type { Storage } from '../storage/database.js';
import type { RequestAuth } from './request-auth.js';
import { assertAppValid, CLOCK_TOLERANCE_SECONDS, type SignatureClaims } from './signature.js';

/**
 * Editor session tickets (docs/SDK.md "Sessions without tokens in URLs"). The editor page exchanges the
 * integrator's token and signature, which arrive in its URL, for a ticket: a random secret that stands for one
 * user on one file of one application, for a few minutes. The page, its API calls, its images and its
 * collaboration socket then carry the ticket only; the token and the signature never leave the page's first
 * request. A ticket is renewed (a new one, the old one cut short) while the user may still read the file and
 * their seat admits them, never past the signature's own expiry; it is revoked when the integrator or the seat
 * policy takes the file away from the user. Only the ticket's SHA-256 is stored.
 */

/** Where a request carries a ticket: this header, or (for images, which cannot send headers) this query parameter. */
export const SESSION_HEADER = 'x-svc-session-token';
export const SESSION_QUERY = 'sessionToken';

/** Prefix of every ticket: tells one apart from a token or a signature in a log or a bug report. */
const TICKET_PREFIX = 'svs_';
/** A ticket that was renewed keeps working this long (requests and image loads already under way). */
export const RENEWED_GRACE_MS = 30_000;
/** Expired sessions deleted per issue (the table is swept as it is used). */
const SWEEP_BATCH = 100;

/** What a ticket stands for. */
export interface EditorSession {
  appId: string;
  fileId: string;
  userId: string;
  /** the integrator's token: callbacks made for the session forward it */
  token: string;
  claims: SignatureClaims;
  expiresAt: number;
  signatureExpiresAt: number;
}

/** A ticket as the page gets it. */
export interface IssuedTicket {
  ticket: string;
  /** ms since the epoch: renew before then */
  expiresAt: number;
  /** ms since the epoch: the signature behind the session expires then; past it the host must give new credentials */
  signatureExpiresAt: number;
}

function hashOf(ticket: string): string {
  return crypto.createHash('sha256').update(ticket).digest('hex');
}

/** Until when a verified signature is accepted (its `exp`, plus the clock tolerance the service allows), ms. */
export function signatureExpiry(claims: SignatureClaims): number {
  return ((claims.exp ?? 0) + CLOCK_TOLERANCE_SECONDS) * 1000;
}

/** Whether `value` has the shape of a ticket (checked before any lookup). */
export function looksLikeTicket(value: string): boolean {
  return value.startsWith(TICKET_PREFIX) && value.length <= 100;
}

export class SessionTickets {
  constructor(
    private readonly storage: Storage,
    /** how long one ticket lives */
    private readonly ttlMs: number,
  ) {}

  /** A new ticket for `session` (its expiry is the ticket lifetime, at most the signature's). */
  async issue(session: Omit<EditorSession, 'expiresAt'>, now = Date.now()): Promise<IssuedTicket> {
    const ticket = TICKET_PREFIX + crypto.randomBytes(32).toString('base64url');
    const expiresAt = Math.min(now + this.ttlMs, session.signatureExpiresAt);
    if (expiresAt <= now) throw new ApiError(Errors.signatureExpired, 'signature expired');
    const { db } = this.storage;
    await db
      .deleteFrom('editor_sessions')
      .where('ticket_hash', 'in', db.selectFrom('editor_sessions').select('ticket_hash').where('expires_at', '<=', now).limit(SWEEP_BATCH))
      .execute();
    await db
      .insertInto('editor_sessions')
      .values({
        ticket_hash: hashOf(ticket),
        app_id: session.appId,
        file_id: session.fileId,
        user_id: session.userId,
        token: session.token,
        claims: JSON.stringify(session.claims),
        expires_at: expiresAt,
        signature_expires_at: session.signatureExpiresAt,
        created_at: now,
      })
      .execute();
    return { ticket, expiresAt, signatureExpiresAt: session.signatureExpiresAt };
  }

  /** The session a ticket stands for; 401 / 127100 when it is unknown, expired or revoked. */
  async resolve(ticket: string, now = Date.now()): Promise<EditorSession> {
    const refused = new ApiError(Errors.sessionTicketInvalid, 'editor session ticket unknown, expired or revoked: open the editor again');
    if (!looksLikeTicket(ticket)) throw refused;
    const row = await this.storage.db.selectFrom('editor_sessions').selectAll().where('ticket_hash', '=', hashOf(ticket)).executeTakeFirst();
    if (!row || Number(row.expires_at) <= now) throw refused;
    return {
      appId: row.app_id,
      fileId: row.file_id,
      userId: row.user_id,
      token: row.token,
      claims: JSON.parse(row.claims) as SignatureClaims,
      expiresAt: Number(row.expires_at),
      signatureExpiresAt: Number(row.signature_expires_at),
    };
  }

  /** A new ticket for the session of `ticket`, which then works for RENEWED_GRACE_MS more at most. */
  async renew(ticket: string, session: EditorSession, now = Date.now()): Promise<IssuedTicket> {
    const { expiresAt: _old, ...rest } = session;
    const issued = await this.issue(rest, now);
    await this.storage.db
      .updateTable('editor_sessions')
      .set({ expires_at: Math.min(session.expiresAt, now + RENEWED_GRACE_MS) })
      .where('ticket_hash', '=', hashOf(ticket))
      .execute();
    return issued;
  }

  /** Revokes the sessions of a user (on one file, or on all of the application's): they no longer work. */
  async revoke(appId: string, userId: string, fileId?: string): Promise<void> {
    let query = this.storage.db.deleteFrom('editor_sessions').where('app_id', '=', appId).where('user_id', '=', userId);
    if (fileId !== undefined) query = query.where('file_id', '=', fileId);
    await query.execute();
  }
}

/**
 * The caller a ticket stands for, as the signature and token it replaced would have made it: the session's
 * application (still valid), the signature's claims, the integrator's token, and the file and user it is bound to.
 */
export async function sessionAuth(tickets: SessionTickets, findApp: (appId: string) => Promise<App | undefined>, ticket: string, requestId: string | undefined): Promise<RequestAuth> {
  const session = await tickets.resolve(ticket);
  const app = await findApp(session.appId);
  if (!app) throw new ApiError(Errors.sessionTicketInvalid, 'editor session ticket unknown, expired or revoked: open the editor again');
  assertAppValid(app, Date.now());
  return { app, claims: session.claims, token: session.token, requestId, session: { fileId: session.fileId, userId: session.userId } };
}
