/**
 * How a conversion (a worker thread, LibreOffice) ends when it gives no answer, in neutral terms: import and
 * export each map these to their own error codes (121xxx, 122xxx) where they call the conversion.
 */

export class ConversionFailed extends Error {
  constructor(
    message: string,
    /** `out-of-memory`: past the worker's heap limit; `not-started`: the program could not be started */
    readonly why: 'failed' | 'out-of-memory' | 'not-started' = 'failed',
  ) {
    super(message);
  }
}

export class ConversionTimedOut extends Error {}

/** What an aborted conversion rejects with: the abort's own reason (the task engine's), so its caller can tell why. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ConversionFailed('the conversion was aborted');
}
