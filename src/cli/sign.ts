import { SignJWT } from 'jose';
import type { App } from '../apps/app.js';

/** Lifetime of a signature made by `svc sign` without --expires: long enough to follow the README's examples. */
export const DEFAULT_SIGNATURE_SECONDS = 60 * 60;
/** Lifetime of an example integrator user token made by `svc sign --user`. */
export const USER_TOKEN_SECONDS = 24 * 60 * 60;
/**
 * JOSE `typ` of the user tokens the example integrator (examples/integrator) accepts besides its fixed ones.
 * Such a token names the app in `aud`, not in `kid`, so the service never takes one for a signature.
 */
export const EXAMPLE_USER_TOKEN_TYPE = 'svc-example-user+jwt';

const encoder = new TextEncoder();

/** What signing needs of an app: its id and secret. */
export type SigningApp = Pick<App, 'id' | 'secret'>;

/**
 * An X-Svc-Signature for `app`, as an integrator's back end makes it (README "Calling the backend API"):
 * HS256 with the app secret, appId in `kid`, `exp` `seconds` ahead; `license` adds the licence scope
 * (the service refuses licence signatures that live longer than 4 minutes).
 */
export function signatureFor(app: SigningApp, options: { license: boolean; seconds: number }): Promise<string> {
  return new SignJWT(options.license ? { scope: 'license' } : {})
    .setProtectedHeader({ alg: 'HS256', kid: app.id })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + options.seconds)
    .sign(encoder.encode(app.secret));
}

/**
 * A user token the example integrator resolves to `userId` (a real integrator hands out its own session
 * tokens; the service never reads them). Signed with the app secret, which that integrator knows too.
 */
export function exampleUserToken(app: SigningApp, userId: string): Promise<string> {
  return new SignJWT({ sub: userId, aud: app.id })
    .setProtectedHeader({ alg: 'HS256', typ: EXAMPLE_USER_TOKEN_TYPE })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + USER_TOKEN_SECONDS)
    .sign(encoder.encode(app.secret));
}

/** `30`, `90s`, `10m`, `2h` → seconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,7})([smh]?)$/.exec(text.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * ({ '': 1, s: 1, m: 60, h: 3600 } as const)[match[2] as '' | 's' | 'm' | 'h'];
  return seconds > 0 ? seconds : undefined;
}
