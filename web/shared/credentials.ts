import { credentialsOf, ProtocolError } from '../../sdk/protocol.js';
import type { EditorBoot } from './boot.js';
import { BridgeError } from './bridge.js';

export type Credentials = EditorBoot['credentials'];

/** New credentials are asked for this long before the signature expires (at most a fifth of its lifetime). */
const RENEW_AHEAD_MS = 60_000;
/** A renewal the page asks for on its own (a refused reconnection) is tried at most this often. */
const MIN_RENEW_INTERVAL_MS = 15_000;
/** setTimeout's longest delay; a signature valid for longer is looked at again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** When a signature (a JWT) expires, from its `exp` claim, read without verifying (the service verifies). */
export function signatureExpiry(signature: string): number | undefined {
  const payload = signature.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page's signature and token, kept valid: before the signature expires, and when the service refuses a
 * reconnection, the host page's `getCredentials()` is asked for new ones; the host may also push them with
 * `sdk.setCredentials()`. New credentials go to `apply` (the API client and the collaboration session).
 * Without a getCredentials handler on the host the page keeps what it has.
 */
export class CredentialKeeper {
  private renewing: Promise<boolean> | undefined;
  private timer: number | undefined;
  private lastAskedAt = 0;
  private hostCanRenew = true;

  constructor(
    private current: Credentials,
    private readonly apply: (credentials: Credentials) => void,
    private readonly ask: () => Promise<unknown>,
  ) {
    this.schedule();
  }

  get credentials(): Credentials {
    return this.current;
  }

  /** Credentials the host pushed (`setCredentials`); anything but `{token, signature}` strings is refused. */
  set(value: unknown): void {
    const credentials = credentialsOf(value);
    if (!credentials) throw new BridgeError(ProtocolError.invalidArguments, 'setCredentials needs {token, signature} as non-empty strings');
    this.current = credentials;
    this.apply(credentials);
    this.schedule();
  }

  /** Asks the host for new credentials now; true when they were applied. One request at a time. */
  renew(): Promise<boolean> {
    this.renewing ??= this.askHost().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** A renewal the page decided on by itself (a refused reconnection), not more often than every 15 s. */
  renewSoon(): void {
    if (this.hostCanRenew && Date.now() - this.lastAskedAt >= MIN_RENEW_INTERVAL_MS) void this.renew();
  }

  dispose(): void {
    window.clearTimeout(this.timer);
  }

  private async askHost(): Promise<boolean> {
    if (!this.hostCanRenew) return false;
    this.lastAskedAt = Date.now();
    try {
      this.set(await this.ask());
      return true;
    } catch (error) {
      // a host without getCredentials is not asked again; its other failures are retried by the next trigger
      if (error instanceof BridgeError && error.code === ProtocolError.noHandler) this.hostCanRenew = false;
      console.warn('credentials not renewed', error);
      return false;
    }
  }

  private schedule(): void {
    window.clearTimeout(this.timer);
    const expiry = signatureExpiry(this.current.signature);
    if (expiry === undefined || !this.hostCanRenew) return;
    const remaining = expiry - Date.now();
    // an already expired signature (the host answered a stale one) is not asked about in a tight loop
    const due = remaining > 0 ? remaining - Math.min(RENEW_AHEAD_MS, remaining / 5) : MIN_RENEW_INTERVAL_MS;
    const delay = Math.min(LONGEST_TIMER_MS, due);
    this.timer = window.setTimeout(() => (delay === LONGEST_TIMER_MS ? this.schedule() : void this.renew()), delay);
  }
}
