import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { LocalAppChanges, type AppChanges } from '../apps/app-changes.js';
import type { CollaborationFanout } from '../domain/content/content-service.js';
import { RedisCollaborationFanout } from './collaboration-fanout.js';
import { sharedRateLimitStore } from './rate-limit-store.js';
import { RedisAppChanges } from './redis-app-changes.js';
import { RedisLink } from './redis-link.js';

/** Redis as /healthz shows it: not configured, answering, or not answering (the service keeps serving). */
export type RedisState = 'off' | 'up' | 'down';

/**
 * What the processes of one deployment share (docs/DEPLOY.md): announcements of app changes, collaboration
 * fan-out and the rate-limit counters. Alone (no REDIS_URL) everything stays in the process.
 */
export interface Cluster {
  changes: AppChanges;
  /** live documents' changes to the other processes; undefined: they poll storage */
  fanout: CollaborationFanout | undefined;
  /** the rate limiter's store; undefined: its own in-process store */
  rateLimitStore: FastifyRateLimitStoreCtor | undefined;
  redisState(): RedisState;
  /** Logs through the server's logger once there is one. */
  setLogger(log: FastifyBaseLogger): void;
  /** Before listening: a Redis that refuses REDIS_URL's credentials is a start-up error (ConfigError). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ClusterConfig {
  redisUrl: string | undefined;
  /** prefix of every Redis key and channel, so deployments may share one Redis */
  redisNamespace: string;
}

/** The cluster the configuration asks for: shared through Redis when REDIS_URL is set, else this process alone. */
export function createCluster(config: ClusterConfig): Cluster {
  let log: FastifyBaseLogger | undefined;
  const local = new LocalAppChanges((error) => log?.error({ err: error }, 'an app change listener failed'));
  if (!config.redisUrl) {
    return {
      changes: local,
      fanout: undefined,
      rateLimitStore: undefined,
      redisState: () => 'off',
      setLogger: (logger) => void (log = logger),
      start: async () => undefined,
      close: async () => undefined,
    };
  }
  const link = new RedisLink(config.redisUrl, config.redisNamespace);
  const fanout = new RedisCollaborationFanout(link, config.redisNamespace);
  return {
    changes: new RedisAppChanges(link, config.redisNamespace, local, (why) => log?.warn({ why }, 'app change message from Redis ignored')),
    fanout,
    rateLimitStore: sharedRateLimitStore(link, config.redisNamespace),
    redisState: () => (link.isUp() ? 'up' : 'down'),
    setLogger(logger) {
      log = logger;
      link.setLogger(logger);
      fanout.setLogger(logger);
    },
    start: () => link.start(),
    close: () => link.close(),
  };
}

/** One process on its own: the embedded default (and what tests get unless they ask for Redis). */
export function localCluster(): Cluster {
  return createCluster({ redisUrl: undefined, redisNamespace: 'svc' });
}
