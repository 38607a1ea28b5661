import type { FastifyBaseLogger } from 'fastify';
import { LocalAppChanges, type AppChanges } from '../domain/apps/app-changes.js';

/** Redis as /healthz shows it: not configured, answering, or not answering (the service keeps serving). */
export type RedisState = 'off' | 'up' | 'down';

/**
 * What processes of one deployment share (docs/DEPLOY.md): announcements of app changes, collaboration
 * fan-out and the rate-limit counters. Alone (no REDIS_URL) everything stays in the process.
 */
export interface Cluster {
  changes: AppChanges;
  redisState(): RedisState;
  /** Logs through the server's logger once there is one. */
  setLogger(log: FastifyBaseLogger): void;
  close(): Promise<void>;
}

/** One process on its own: the embedded default. */
export function localCluster(): Cluster {
  let log: FastifyBaseLogger | undefined;
  return {
    changes: new LocalAppChanges((error) => log?.error({ err: error }, 'an app change listener failed')),
    redisState: () => 'off',
    setLogger(logger) {
      log = logger;
    },
    close: async () => undefined,
  };
}
