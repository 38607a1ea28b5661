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

/**
 * Turns every failed callback into a `System` event (`type: endpointCallback`) so the integrator can see what
 * broke. Recording runs in the background and its own failure is only logged: the request that hit the
 * failing callback already has its error and must not wait on, or fail because of, the report.
 */
export function reportCallbackFailures(outbox: Outbox, db: Db, onError: (error: unknown) => void) {
  return (failure: CallbackFailure): void => {
    const event = systemEvent({
      appId: failure.app.id,
      request: { headers: redact(failure.request.headers), url: failure.request.url, body: failure.request.body },
      response: failure.response,
      errorMessage: failure.error.message,
    });
    outbox.add(db, event).catch(onError);
  };
}
