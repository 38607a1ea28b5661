import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { RedisLink } from './redis-link.js';

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The stores @fastify/rate-limit ships (its Redis store: one Lua INCR + PEXPIRE per request), as it calls them. */
interface PluginStore {
  incr(key: string, counted: Counted, timeWindow: number, max: number): void;
}
interface PluginStores {
  RedisStore: new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => PluginStore;
  LocalStore: new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => PluginStore;
}

// the plugin does not export its stores by name; these are its own files (CommonJS, no types of their own)
const require = createRequire(import.meta.url);
const stores: PluginStores = {
  RedisStore: require('@fastify/rate-limit/store/RedisStore.js') as PluginStores['RedisStore'],
  LocalStore: require('@fastify/rate-limit/store/LocalStore.js') as PluginStores['LocalStore'],
};

/**
 * The rate limiter's store for several processes: @fastify/rate-limit's Redis store, so an application's
 * budget is counted once across every process; while Redis is away (or a count fails), its in-process store,
 * so each process still limits on its own until Redis returns.
 */
export function sharedRateLimitStore(link: RedisLink, namespace: string): FastifyRateLimitStoreCtor {
  class SharedStore implements PluginStore {
    private readonly shared: PluginStore;
    private readonly local: PluginStore;

    /** the plugin hands its resolved settings */
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = options.continueExceeding ?? false;
      const exponentialBackoff = options.exponentialBackoff ?? false;
      this.shared = new stores.RedisStore(continueExceeding, exponentialBackoff, link.commands, `${namespace}:rate:`);
      this.local = new stores.LocalStore(continueExceeding, exponentialBackoff);
    }

    incr(key: string, counted: Counted, timeWindow: number, max: number): void {
      if (!link.isUp()) return this.local.incr(key, counted, timeWindow, max);
      this.shared.incr(
        key,
        (error, result) => (error ? this.local.incr(key, counted, timeWindow, max) : counted(null, result)),
        timeWindow,
        max,
      );
    }

    /** One budget per app for the whole API: route-level limits are not used. */
    child(): FastifyRateLimitStore {
      return this as unknown as FastifyRateLimitStore;
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
