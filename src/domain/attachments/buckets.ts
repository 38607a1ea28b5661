/**
 * Where an upload goes, named by the token request's `bucket`:
 * - `images` (the default): PNG, JPEG, GIF and WebP only, recognised from their bytes; shown inline;
 * - `attachments`: any file; images among them are shown inline, everything else is served as a download.
 */
export const BUCKETS = ['images', 'attachments'] as const;
export type Bucket = (typeof BUCKETS)[number];
export const DEFAULT_BUCKET: Bucket = 'images';

export function isBucket(value: unknown): value is Bucket {
  return typeof value === 'string' && (BUCKETS as readonly string[]).includes(value);
}

/** Whether the bucket refuses everything but the recognised image types. */
export function acceptsImagesOnly(bucket: Bucket): boolean {
  return bucket === 'images';
}
