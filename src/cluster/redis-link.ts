import { Redis, type RedisOptions } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from '../config.js';

/** How long start-up waits for Redis before serving without it (it keeps trying in the background). */
const START_WAIT_MS = 3000;
/** Reconnect pauses grow to this and stay there while Redis is away. */
const MAX_RECONNECT_PAUSE_MS = 2000;
/** Answers that mean the URL itself is wrong: waiting will not help. */
const REFUSED_CREDENTIALS = /WRONGPASS|NOAUTH|invalid (username-)?password|AUTH.*(failed|without any password)/i;

type Listener = (up: boolean) => void;

/**
 * The connections of this process to Redis (REDIS_URL) and whether Redis answers. Every client is made with
 * `enableReadyCheck: false`: the ready check sends INFO, which a subscriber connection refuses after a
 * reconnect ("Connection in subscriber mode"), and @hocuspocus/extension-redis then silently delivers nothing.
 * Commands are not queued while Redis is away (`enableOfflineQueue: false`): they fail at once and each user
 * falls back (rate limit counted in process, content carried by the storage poll, caches expire shortly).
 * A change of state is logged once, not per failed command.
 */
export class RedisLink {
  private readonly clients = new Set<Redis>();
  /** the connection whose state stands for Redis's (commands of the rate limiter, announcements) */
  readonly commands: Redis;
  private up = false;
  private readonly listeners = new Set<Listener>();
  private log: FastifyBaseLogger | undefined;
  private closing = false;
  /** Redis's refusal of REDIS_URL's credentials, when it refused them (start-up turns it into an error) */
  private refusedCredentials: Error | undefined;

  constructor(
    private readonly url: string,
    /** names the connections (CLIENT LIST shows which deployment and part each is) */
    private readonly namespace: string,
  ) {
    this.commands = this.client('commands');
    this.commands.on('ready', () => this.setUp(true));
    this.commands.on('close', () => this.setUp(false));
  }

  setLogger(log: FastifyBaseLogger): void {
    this.log = log;
  }

  /** A new connection with the options every user of Redis here needs; closed with the link. */
  client(name: string, options: RedisOptions = {}): Redis {
    const client = new Redis(this.url, {
      connectionName: `${this.namespace}-${name}`,
      enableReadyCheck: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      retryStrategy: (attempt) => (this.closing ? null : Math.min(attempt * 200, MAX_RECONNECT_PAUSE_MS)),
      ...options,
    });
    // an 'error' without a listener would crash the process; the state change is what gets logged
    client.on('error', (error: Error) => {
      if (!REFUSED_CREDENTIALS.test(error.message)) return;
      this.refusedCredentials = error;
      this.log?.error({ err: error, client: name }, 'Redis refuses the credentials of REDIS_URL');
    });
    this.clients.add(client);
    return client;
  }

  isUp(): boolean {
    return this.up;
  }

  /** Called with true when Redis answers again, false when it stops answering. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * At start: waits a moment for Redis. Credentials it refuses are a start-up error (ConfigError); an
   * unreachable Redis is not: the service starts without it, says so, and connects when it answers.
   */
  async start(): Promise<void> {
    try {
      const reached = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => finish(false), START_WAIT_MS);
        const onReady = () => finish(true);
        const finish = (result: boolean) => {
          clearTimeout(timer);
          this.commands.off('ready', onReady);
          resolve(result);
        };
        if (this.up) return finish(true);
        this.commands.on('ready', onReady);
      });
      // (without a ready check, 'ready' comes before the server's answer to the credentials: the first command tells)
      const answer = reached ? await this.firstAnswer() : undefined;
      const refused = this.refusedCredentials;
      if (refused) throw new ConfigError(`REDIS_URL: Redis refuses its credentials (${refused.message})`);
      if (answer instanceof Error) throw new ConfigError(`REDIS_URL: the server does not answer as Redis does (${answer.message})`);
      if (!reached) {
        this.log?.warn({ redis: redactedUrl(this.url) }, 'Redis does not answer at start; serving without it (per-process rate limits, storage poll for collaboration) until it does');
      }
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** PING's answer (an Error when refused), waited for at most START_WAIT_MS. */
  private async firstAnswer(): Promise<string | Error> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Error>((resolve) => (timer = setTimeout(() => resolve(new Error('no answer to PING')), START_WAIT_MS)));
    try {
      return await Promise.race([this.commands.ping().catch((error: Error) => error), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    // disconnect, not QUIT: QUIT waits for an answer a refused or unreachable server never gives
    for (const client of this.clients) client.disconnect();
    this.clients.clear();
  }

  private setUp(up: boolean): void {
    if (this.up === up || (this.closing && up)) return;
    this.up = up;
    if (!this.closing) {
      if (up) this.log?.info('Redis answers: shared rate limits, collaboration fan-out and change announcements across processes');
      else this.log?.warn('Redis stopped answering; serving without it (per-process rate limits, storage poll for collaboration) until it returns');
    }
    for (const listener of this.listeners) listener(up);
  }
}

/** REDIS_URL without its password, for logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable URL';
  }
}
