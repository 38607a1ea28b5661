import type { CallbackFailure } from '../integrator/callback-client.js';
import type { Db } from '../storage/database.js';
import { systemEvent } from './builders.js';
import type { Outbox } from './outbox.js';

/** Credentials are shown only by their start: enough to recognise, useless to replay. */
function redact(headers: Record<string, string>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    shown[name] = name === 'x-svc-token' || name === 'x-svc-signature' ? `${value.slice(0, 6)}…` : value;
  }
  return shown;
}

/** The same failure (app, callback, code) is reported at most once in this window. */
export const SYSTEM_EVENT_WINDOW_MS = 60_000;

/**
 * Turns failed callbacks into `System` events (`type: endpointCallback`) so the integrator can see what
 * broke. An integrator that is down fails every request; it gets one event per app, callback and error code
 * a minute, not one per request. An app without an endpoint URL gets none: there is nowhere to send it.
 * Recording runs in the background and its own failure is only logged: the request that hit the failing
 * callback already has its error and must not wait on, or fail because of, the report.
 */
export function reportCallbackFailures(outbox: Outbox, db: Db, onError: (error: unknown) => void) {
  const lastReported = new Map<string, number>();
  return (failure: CallbackFailure): void => {
    if (!failure.app.endpointUrl) return;
    const now = Date.now();
    const key = `${failure.app.id} ${failure.callback} ${failure.error.spec.code} ${failure.error.spec.http}`;
    if ((lastReported.get(key) ?? 0) > now - SYSTEM_EVENT_WINDOW_MS) return;
    if (lastReported.size > 10_000) lastReported.clear();
    lastReported.set(key, now);
    const event = systemEvent({
      appId: failure.app.id,
      request: { headers: redact(failure.request.headers), url: failure.request.url, body: failure.request.body },
      response: failure.response,
      errorMessage: failure.error.message,
    });
    outbox.add(db, event).catch(onError);
  };
}
