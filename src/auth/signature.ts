import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { App } from '../apps/app.js';
import { ApiError, Errors } from '../errors.js';

/** Licence/admin signatures may not live longer than this (spec 5 rule 1). */
export const LICENSE_SIGNATURE_MAX_SECONDS = 4 * 60;
/** Default ceiling of any other signature's lifetime (SVC_SIGNATURE_MAX_LIFETIME_HOURS): 7 days. */
export const DEFAULT_SIGNATURE_MAX_LIFETIME_SECONDS = 7 * 24 * 3600;
/** Allowance for clock drift between the integrator's servers and ours. */
export const CLOCK_TOLERANCE_SECONDS = 5;
/** Longest accepted signature, in characters: far above any real JWT, well below abuse. */
export const MAX_SIGNATURE_LENGTH = 8192;
/**
 * JOSE `typ` of the attachment access tokens the service issues (domain/attachments/access-token.ts). They are
 * signed with the app secret too, and handed to browsers: one is never accepted as a signature.
 */
export const ACCESS_TOKEN_TYPE = 'svc-upload+jwt';

export interface SignatureClaims extends JWTPayload {
  appId?: string;
  scope?: string;
  version?: string;
}

export interface VerifiedSignature {
  app: App;
  claims: SignatureClaims;
}

export type AppLookup = (appId: string) => Promise<App | undefined>;

const encoder = new TextEncoder();

/**
 * Verifies an `X-Svc-Signature` JWT (spec 5, contract notes 1): HS256 only, signed with the secret of the
 * app named by the JOSE `kid` (or, for older clients, the `appId` claim), with an `exp` in the future.
 * With `license`, the claim `scope: "license"` and an `exp` at most 4 minutes ahead are also required; any other
 * signature may expire at most `maxLifetimeSeconds` ahead (a signature that lives for years is a credential that
 * cannot be taken back short of rotating the secret).
 */
export async function verifySignature(
  jwt: string | undefined,
  findApp: AppLookup,
  options: { license: boolean; maxLifetimeSeconds: number; now?: number },
): Promise<VerifiedSignature> {
  if (!jwt) throw new ApiError(Errors.signatureMissing, 'signature missing: send X-Svc-Signature or ?signature=');
  if (jwt.length > MAX_SIGNATURE_LENGTH) throw new ApiError(Errors.signatureMalformed, 'signature malformed: too long');

  let alg: string | undefined;
  let appId: unknown;
  let type: unknown;
  try {
    const header = decodeProtectedHeader(jwt);
    alg = header.alg;
    type = header.typ;
    appId = header.kid ?? decodeJwt(jwt).appId;
  } catch {
    throw new ApiError(Errors.signatureMalformed, 'signature malformed: not a JWT');
  }
  // Checked before any key lookup: 'none' and asymmetric algorithms must never reach verification.
  if (alg !== 'HS256') throw new ApiError(Errors.signatureInvalid, `signature algorithm must be HS256, got ${String(alg)}`);
  if (type === ACCESS_TOKEN_TYPE) throw new ApiError(Errors.signatureInvalid, 'an attachment access token is not a signature');
  if (typeof appId !== 'string' || appId.length === 0) {
    throw new ApiError(Errors.signatureMalformed, 'signature malformed: no appId (JOSE header kid or claim appId)');
  }

  const app = await findApp(appId);
  if (!app) throw new ApiError(Errors.unknownApp, `application ${appId} not found`);

  const now = options.now ?? Date.now();
  let claims: SignatureClaims;
  try {
    const verified = await jwtVerify<SignatureClaims>(jwt, encoder.encode(app.secret), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
    });
    claims = verified.payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new ApiError(Errors.signatureExpired, 'signature expired');
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      throw new ApiError(Errors.signatureInvalid, `signature claim ${error.claim} invalid: ${error.reason}`);
    }
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw new ApiError(Errors.signatureInvalid, 'signature verification failed: wrong secret or altered token');
    }
    throw new ApiError(Errors.signatureMalformed, 'signature malformed');
  }
  if (typeof claims.exp !== 'number') throw new ApiError(Errors.signatureInvalid, 'signature claim exp must be a number');

  assertAppValid(app, now);
  const lifetime = claims.exp - Math.floor(now / 1000);
  if (lifetime > options.maxLifetimeSeconds + CLOCK_TOLERANCE_SECONDS) {
    throw new ApiError(
      Errors.signatureLifetimeTooLong,
      `a signature may expire at most ${options.maxLifetimeSeconds} seconds ahead; this one expires in ${lifetime}`,
    );
  }
  if (options.license) {
    if (claims.scope !== 'license') {
      throw new ApiError(Errors.licenseScopeRequired, 'this endpoint needs a signature with claim scope "license"');
    }
    if (lifetime > LICENSE_SIGNATURE_MAX_SECONDS + CLOCK_TOLERANCE_SECONDS) {
      throw new ApiError(
        Errors.licenseSignatureTooLong,
        `a licence signature may expire at most ${LICENSE_SIGNATURE_MAX_SECONDS} seconds ahead; this one expires in ${lifetime}`,
      );
    }
  }
  return { app, claims };
}

/** Refuses an application past its `validUntil` (403 / 30008), whatever credential named it. */
export function assertAppValid(app: App, now: number): void {
  if (app.validUntil !== null && app.validUntil < now) {
    throw new ApiError(Errors.appExpired, `application ${app.id} licence expired at ${new Date(app.validUntil).toISOString()}`);
  }
}
