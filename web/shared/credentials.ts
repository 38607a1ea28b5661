import { credentialsOf, ProtocolError } from '../../sdk/protocol.js';
import type { EditorSessionTicket } from './boot.js';
import { BridgeError } from './bridge.js';

/** A ticket is renewed this long before it expires (at most a fifth of its lifetime). */
const RENEW_AHEAD_MS = 60_000;
/** A renewal the page asks for on its own (a refused reconnection) is tried at most this often. */
const MIN_RENEW_INTERVAL_MS = 15_000;
/** setTimeout's longest delay; a later due time is looked at again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** When to act for something that ends at `end`: RENEW_AHEAD_MS before (a fifth of what is left at most); soon when it has ended. */
function dueIn(end: number): number {
  const remaining = end - Date.now();
  return remaining > 0 ? remaining - Math.min(RENEW_AHEAD_MS, remaining / 5) : MIN_RENEW_INTERVAL_MS;
}

/** What the keeper asks of the service and of the host page. */
export interface SessionSources {
  /** a new session from the host's credentials (`credentials`), or the current ticket renewed (none) */
  open(credentials?: { signature: string; token: string }): Promise<EditorSessionTicket>;
  /** the host page's `getCredentials()` */
  askHost(): Promise<unknown>;
}

/**
 * The page's editor session kept valid (docs/SDK.md "Sessions without tokens in URLs"). The ticket is renewed
 * with the service before it expires. A session never outlives the signature that opened it, so before that
 * signature expires (and when the service refuses the ticket) the host page's `getCredentials()` is asked for
 * new credentials, which the service exchanges for a new session; the host may also push them with
 * `sdk.setCredentials()`. The page never keeps the credentials themselves. New tickets go to `apply` (the API
 * client and the collaboration session).
 */
export class SessionKeeper {
  private renewing: Promise<boolean> | undefined;
  private ticketTimer: number | undefined;
  private hostTimer: number | undefined;
  private lastAskedAt = 0;
  private hostCanRenew = true;

  constructor(
    private current: EditorSessionTicket,
    private readonly apply: (ticket: string) => void,
    private readonly sources: SessionSources,
  ) {
    this.schedule();
  }

  /** Credentials the host pushed (`setCredentials`): anything but `{token, signature}` strings is refused; else a new session. */
  async set(value: unknown): Promise<void> {
    const credentials = credentialsOf(value);
    if (!credentials) throw new BridgeError(ProtocolError.invalidArguments, 'setCredentials needs {token, signature} as non-empty strings');
    this.use(await this.sources.open(credentials));
  }

  /**
   * Gets a working ticket now, as after a refusal: the current one renewed, or else a new session from the
   * host's credentials; true when one was applied. One at a time.
   */
  renew(): Promise<boolean> {
    this.renewing ??= this.renewNow().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** A renewal the page decided on by itself (a refused reconnection), not more often than every 15 s. */
  renewSoon(): void {
    if (Date.now() - this.lastAskedAt >= MIN_RENEW_INTERVAL_MS) void this.renew();
  }

  dispose(): void {
    window.clearTimeout(this.ticketTimer);
    window.clearTimeout(this.hostTimer);
  }

  private async renewNow(): Promise<boolean> {
    this.lastAskedAt = Date.now();
    try {
      this.use(await this.sources.open());
      return true;
    } catch (error) {
      console.warn('editor session not renewed; asking the host for credentials', error);
      return this.askHost();
    }
  }

  private async askHost(): Promise<boolean> {
    if (!this.hostCanRenew) return false;
    try {
      await this.set(await this.sources.askHost());
      return true;
    } catch (error) {
      // a host without getCredentials is not asked again; its other failures are retried by the next trigger
      if (error instanceof BridgeError && error.code === ProtocolError.noHandler) this.hostCanRenew = false;
      console.warn('credentials not renewed', error);
      return false;
    }
  }

  private use(session: EditorSessionTicket): void {
    this.current = session;
    this.apply(session.ticket);
    this.schedule();
  }

  /** Renews the ticket before it expires; asks the host before the signature behind it does (the ticket cannot outlive it). */
  private schedule(): void {
    window.clearTimeout(this.ticketTimer);
    window.clearTimeout(this.hostTimer);
    const { expiresAt, signatureExpiresAt } = this.current;
    if (expiresAt < signatureExpiresAt) this.ticketTimer = this.after(dueIn(expiresAt), () => void this.renew());
    if (this.hostCanRenew) this.hostTimer = this.after(dueIn(signatureExpiresAt), () => void this.askHost());
  }

  private after(delay: number, run: () => void): number {
    return window.setTimeout(() => (delay > LONGEST_TIMER_MS ? this.schedule() : run()), Math.min(delay, LONGEST_TIMER_MS));
  }
}
