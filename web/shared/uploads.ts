import type { ServiceApi } from './api.js';

/** One entry of `POST /uploader/token`'s answer (docs/ATTACHMENTS.md). */
interface UploadTicket {
  accessToken: string;
  fileFieldKey: string;
  serverUrl: string;
}

/** What `POST /uploader/upload` answers for a stored image. */
export interface UploadedImage {
  /** the credential-free path to store in content: `/sdk/v2/attachments/{guid}` */
  url: string;
  filename: string;
  width: number;
  height: number;
}

/**
 * Uploads an image of the user's into the file's attachments: a single-use access token for the `images`
 * bucket, then the multipart upload. The service reads the type and size from the bytes and refuses what is
 * not PNG, JPEG, GIF or WebP; refusals are thrown as ApiCallError.
 */
export async function uploadImage(api: ServiceApi, fileId: string, file: File): Promise<UploadedImage> {
  const [ticket] = await api.call<UploadTicket[]>('/uploader/token', {
    method: 'POST',
    body: [{ bucket: 'images', filename: file.name || 'image', fileGuid: fileId, fileSize: file.size, encrypt: false }],
  });
  const form = new FormData();
  // the token first: the service refuses a bad one before reading the file
  form.append('accessToken', ticket!.accessToken);
  form.append(ticket!.fileFieldKey, file, file.name);
  const stored = await api.call<{ url: string; filename: string; width: number | null; height: number | null }>(ticket!.serverUrl, { method: 'POST', body: form });
  return { url: stored.url, filename: stored.filename, width: stored.width ?? 0, height: stored.height ?? 0 };
}
