/**
 * The run's promise, or its abort reason as soon as the signal fires (a handler that ignores the signal never
 * holds a slot). The run is always followed to its end, also when the signal fired before it was passed in:
 * its later failure (a progress write refused once the lease was given back) is then settled here instead of
 * surfacing as an unhandled rejection that takes the process down.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
