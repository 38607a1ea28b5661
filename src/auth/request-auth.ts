import type { App } from '../apps/app.js';
import type { SignatureClaims } from './signature.js';

/**
 * Who is calling, established by the signature-auth plugin before validation and the handler. It lives
 * beside the signature it comes from, not in http/, so that domain services and the integrator client can
 * take the caller without depending on the HTTP layer.
 */
export interface RequestAuth {
  app: App;
  claims: SignatureClaims;
  /** The integrator's opaque session token, when sent; resolved to a user through the callbacks. */
  token: string | undefined;
  /** The request's id: callbacks made for this request carry it (X-Request-Id) and name it in errors. */
  requestId?: string | undefined;
  /**
   * Set when the caller is an editor page holding a session ticket (auth/session-tickets.ts) instead of a
   * signature: the calls it may make are about this one file, as this one user.
   */
  session?: { fileId: string; userId: string } | undefined;
}
