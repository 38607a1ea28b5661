import { SignJWT } from 'jose';

export interface SignOptions {
  /** seconds from now; negative for an expired signature */
  expiresIn?: number;
  scope?: string;
  /** put the appId in the `appId` claim instead of the JOSE `kid` header (older clients) */
  appIdInClaim?: boolean;
  extraClaims?: Record<string, unknown>;
}

/** Makes an X-Svc-Signature the way integrators' clients do. */
export async function sign(appId: string, secret: string, options: SignOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { ...options.extraClaims };
  if (options.scope) claims.scope = options.scope;
  if (options.appIdInClaim) claims.appId = appId;
  return new SignJWT(claims)
    .setProtectedHeader(options.appIdInClaim ? { alg: 'HS256' } : { alg: 'HS256', kid: appId })
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(new TextEncoder().encode(secret));
}

/** A licence signature: scope "license", 4 minutes, as the public clients make it. */
export function signLicense(appId: string, secret: string): Promise<string> {
  return sign(appId, secret, { scope: 'license', expiresIn: 240 });
}

/** Builds a JWT from raw parts, for attacks that a JWT library refuses to produce (alg none, bad JSON). */
export function rawJwt(header: unknown, payload: unknown, signature = ''): string {
  const part = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  return `${part(header)}.${part(payload)}.${signature}`;
}
