import { errors as undiciErrors, request } from 'undici';
import { ApiError, Errors, type ErrorSpec } from '../../errors.js';
import { Deadline } from '../../net/deadline.js';
import { OutboundRefusedError, type OutboundPolicy } from '../../net/outbound-policy.js';

const MAX_REDIRECTS = 5;

function refusedBy(error: unknown): OutboundRefusedError | undefined {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof OutboundRefusedError || (cause as { code?: unknown }).code === 'ERR_OUTBOUND_REFUSED') return cause as OutboundRefusedError;
  }
  return undefined;
}

/** The codes a failed download answers with, and the name of the request field that held the URL (for messages). */
export interface UrlFetchErrors {
  field: string;
  forbidden: ErrorSpec;
  unreachable: ErrorSpec;
  timeout: ErrorSpec;
  tooLarge: ErrorSpec;
  empty: ErrorSpec;
}

/** An import's (and a preview's) `fileUrl`. */
const IMPORT_URL_ERRORS: UrlFetchErrors = {
  field: 'fileUrl',
  forbidden: Errors.importUrlForbidden,
  unreachable: Errors.importUrlUnreachable,
  timeout: Errors.importUrlTimeout,
  tooLarge: Errors.importTooLarge,
  empty: Errors.importCorrupt,
};

/** How an image address that cannot be fetched is answered (a cell image's `srcUrl`, docs/ERRORS.md 1262xx). */
export const IMAGE_URL_ERRORS: UrlFetchErrors = {
  field: 'srcUrl',
  forbidden: Errors.cellImageUrlForbidden,
  unreachable: Errors.cellImageUrlUnreachable,
  timeout: Errors.cellImageUrlTimeout,
  tooLarge: Errors.attachmentTooLarge,
  empty: Errors.invalidAttachmentParams,
};

/**
 * Downloads an import's `fileUrl` through the outbound policy (link-local and cloud-metadata addresses never,
 * private ones as the operator allows, checked again at every connection and redirect), within a deadline and
 * the import size limit, reporting the share received when the size is announced.
 */
export async function fetchFileUrl(
  raw: string,
  options: {
    outbound: OutboundPolicy;
    limitBytes: number;
    timeoutMs: number;
    signal: AbortSignal;
    onProgress: (fraction: number) => void;
    /** default: the import's codes */
    errors?: UrlFetchErrors;
  },
): Promise<Buffer> {
  const codes = options.errors ?? IMPORT_URL_ERRORS;
  const field = codes.field;
  const startedAt = Date.now();
  // The deadline counts from the first byte of the connection: connecting, headers, redirects and body all
  // fall within it; undici's own header and body timeouts say the same, in case the signal were ever lost.
  const deadline = new Deadline(options.timeoutMs, options.signal);
  const dispatcher = options.outbound.dispatcher({
    connectTimeoutMs: Math.min(options.timeoutMs, 10_000),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  try {
    let url = options.outbound.assertUrl(raw);
    for (let redirects = 0; ; redirects++) {
      const remaining = deadline.remainingMs(startedAt);
      const response = await request(url, {
        method: 'GET',
        dispatcher,
        signal: deadline.signal,
        headersTimeout: remaining,
        bodyTimeout: remaining,
        headers: { accept: '*/*' },
      });
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof response.headers.location === 'string') {
        await response.body.dump();
        if (redirects >= MAX_REDIRECTS) throw new ApiError(codes.unreachable, `${field} redirects more than ${MAX_REDIRECTS} times`);
        url = options.outbound.assertUrl(new URL(response.headers.location, url).toString());
        continue;
      }
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw new ApiError(codes.unreachable, `${field} answered HTTP ${response.statusCode}`);
      }
      const announced = Number(response.headers['content-length']);
      if (Number.isFinite(announced) && announced > options.limitBytes) {
        response.body.destroy();
        throw new ApiError(codes.tooLarge, `the file at ${field} is ${announced} bytes, more than the limit of ${options.limitBytes}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > options.limitBytes) {
          response.body.destroy();
          throw new ApiError(codes.tooLarge, `the file at ${field} is larger than the limit of ${options.limitBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
        if (announced > 0) options.onProgress(size / announced);
      }
      if (size === 0) throw new ApiError(codes.empty, `the file at ${field} is empty`);
      return Buffer.concat(chunks);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (options.signal.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : error;
    const refused = refusedBy(error);
    if (refused) throw new ApiError(codes.forbidden, `${field} is refused: ${refused.message}`);
    if (deadline.passed || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      throw new ApiError(codes.timeout, `${field} did not deliver the file within ${Math.round(options.timeoutMs / 1000)} s`);
    }
    throw new ApiError(codes.unreachable, `${field} cannot be fetched: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    deadline.clear();
    // destroy, not close: close waits for a request under way, which is exactly the one that does not end
    await dispatcher.destroy();
  }
}
