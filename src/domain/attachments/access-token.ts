import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ACCESS_TOKEN_TYPE, assertAppValid, CLOCK_TOLERANCE_SECONDS, MAX_SIGNATURE_LENGTH, type AppLookup } from '../../auth/signature.js';
import { ApiError, Errors } from '../../errors.js';
import type { App } from '../../apps/app.js';
import { isBucket, type Bucket } from './buckets.js';

/** How long an access token may be used after `POST /uploader/token` issued it. */
export const ACCESS_TOKEN_TTL_SECONDS = 10 * 60;

/** What one upload may be: issued by `POST /uploader/token`, carried by its access token. */
export interface UploadGrant {
  appId: string;
  /** the collaborative file the attachment will belong to */
  fileId: string;
  /** who asked for the token (the integrator's user) */
  userId: string;
  /** the attachment's guid: one token stores one attachment */
  guid: string;
  bucket: Bucket;
  /** largest accepted upload, bytes */
  maxBytes: number;
  /** display name, already sanitized */
  filename: string;
}

interface GrantClaims extends JWTPayload {
  fid?: unknown;
  bkt?: unknown;
  max?: unknown;
  name?: unknown;
}

const encoder = new TextEncoder();

function invalid(reason: string): ApiError {
  return new ApiError(Errors.attachmentTokenInvalid, `attachment access token invalid: ${reason}`);
}

/**
 * The access token of one upload: an HS256 JWT signed with the app secret, JOSE header `kid` = appId and
 * `typ` = ACCESS_TOKEN_TYPE (so it can never pass for a signature, nor a signature for it), claims `sub`
 * (user), `jti` (attachment guid), `fid` (file), `bkt` (bucket), `max` (bytes), `name` (filename), `exp`.
 */
export function signAccessToken(app: App, grant: Omit<UploadGrant, 'appId'>, now = Date.now()): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ fid: grant.fileId, bkt: grant.bucket, max: grant.maxBytes, name: grant.filename })
    .setProtectedHeader({ alg: 'HS256', kid: app.id, typ: ACCESS_TOKEN_TYPE })
    .setSubject(grant.userId)
    .setJti(grant.guid)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(encoder.encode(app.secret));
}

/**
 * Checks an access token and returns what it grants: signed with the secret of the app its `kid` names, of
 * our type, not expired (5 s of clock drift tolerated), with every claim in shape. Anything else is 401 / 75003.
 */
export async function verifyAccessToken(token: string, findApp: AppLookup, now = Date.now()): Promise<{ app: App; grant: UploadGrant }> {
  if (token.length === 0) throw invalid('empty');
  if (token.length > MAX_SIGNATURE_LENGTH) throw invalid('too long');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw invalid('not a JWT');
  }
  if (header.typ !== ACCESS_TOKEN_TYPE || header.alg !== 'HS256' || typeof header.kid !== 'string' || header.kid.length === 0) {
    throw invalid('not an access token issued by POST /uploader/token');
  }
  const app = await findApp(header.kid);
  if (!app) throw invalid('it names an application that does not exist');

  let claims: GrantClaims;
  try {
    const verified = await jwtVerify<GrantClaims>(token, encoder.encode(app.secret), {
      algorithms: ['HS256'],
      typ: ACCESS_TOKEN_TYPE,
      requiredClaims: ['exp', 'sub', 'jti'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
    });
    claims = verified.payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw invalid(`expired (access tokens last ${ACCESS_TOKEN_TTL_SECONDS / 60} minutes): ask POST /uploader/token for a new one`);
    }
    throw invalid('wrong signature, altered, or not issued for this application');
  }
  const { sub, jti, fid, bkt, max, name } = claims;
  if (
    typeof sub !== 'string' ||
    typeof jti !== 'string' ||
    typeof fid !== 'string' ||
    typeof name !== 'string' ||
    !isBucket(bkt) ||
    typeof max !== 'number' ||
    !Number.isSafeInteger(max) ||
    max < 0
  ) {
    throw invalid('claims missing or malformed');
  }
  assertAppValid(app, now);
  return { app, grant: { appId: app.id, fileId: fid, userId: sub, guid: jti, bucket: bkt, maxBytes: max, filename: name } };
}
