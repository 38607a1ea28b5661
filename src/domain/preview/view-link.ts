import crypto from 'node:crypto';

/**
 * How long the links a viewer page hands its browser (the image, the pdf, each page) stay valid. The page itself
 * is where signature and token are checked; its links only carry that decision to the requests the browser makes
 * for the page's parts, which cannot send headers. Reloading the page makes new links.
 */
export const VIEW_LINK_TTL_MS = 30 * 60_000;

/** What one link opens: the parts of one built preview (one task) of one application's file, until `expiresAt`. */
export interface ViewGrant {
  appId: string;
  fileId: string;
  taskId: string;
  /** epoch ms */
  expiresAt: number;
}

/**
 * HMAC-SHA256 with the application's secret: rotating the secret ends every link, as it ends signatures. The fields
 * are signed as a JSON array, so no text can move from one field to the next under the same signature.
 */
export function viewSignature(secret: string, grant: ViewGrant): string {
  return crypto
    .createHmac('sha256', secret)
    .update(JSON.stringify(['svc-preview-view', grant.appId, grant.fileId, grant.taskId, grant.expiresAt]))
    .digest('base64url');
}

/** Whether `signature` is the one of `grant` (compared in constant time). */
export function isViewSignature(secret: string, grant: ViewGrant, signature: string): boolean {
  const expected = Buffer.from(viewSignature(secret, grant));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
