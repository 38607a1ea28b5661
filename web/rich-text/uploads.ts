import { ApiCallError, type ServiceApi } from '../shared/api.js';
import { uploadImage as storeImage } from '../shared/uploads.js';
import { t } from './messages.js';

/** What the `images` bucket accepts (docs/ATTACHMENTS.md); the service checks the bytes again. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Service codes of the attachment routes (docs/ATTACHMENTS.md "Limits and errors"). */
const TOO_LARGE = 75001;
const NOT_AN_IMAGE = 75002;

/** A refused upload, with the sentence to show the user. */
export class UploadRefused extends Error {}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function refusal(file: File, error: unknown): UploadRefused {
  const name = file.name;
  if (error instanceof ApiCallError && error.code === TOO_LARGE) return new UploadRefused(t('error.imageTooLarge', { name, size: sizeText(file.size) }));
  if (error instanceof ApiCallError && error.code === NOT_AN_IMAGE) return new UploadRefused(t('error.imageType', { name }));
  return new UploadRefused(t('error.imageUpload', { name, message: error instanceof Error ? error.message : String(error) }));
}

/**
 * Uploads an image for this page's file (web/shared/uploads.ts) and resolves with the credential-free path to
 * store as the image's `src`. Refusals (type, size, permission) reject with UploadRefused carrying the sentence
 * to show.
 */
export async function uploadImage(api: ServiceApi, fileId: string, file: File): Promise<string> {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) throw new UploadRefused(t('error.imageType', { name: file.name }));
  try {
    return (await storeImage(api, fileId, file)).url;
  } catch (error) {
    throw refusal(file, error);
  }
}
