import path from 'node:path';
import { DEFAULT_SIGNATURE_MAX_LIFETIME_SECONDS } from './auth/signature.js';
import { DEFAULT_HISTORY_SNAPSHOTS, type ContentOptions } from './domain/content/content-service.js';
import { DEFAULT_CONTENT_CACHE_BYTES } from './domain/content/decoded-cache.js';
import { findSoffice } from './domain/conversion/libreoffice.js';
import type { ImportConfig } from './domain/import/import-service.js';
import type { OutsideImagesMode } from './domain/import/outside-images.js';
import { DEFAULT_CONNECT_TIMEOUT_MS } from './storage/database.js';
import type { TaskConfig } from './tasks/task-engine.js';

/**
 * Everything the service reads from its environment, parsed once at start.
 * The README's "Runtime contract" table documents each variable; keep the two in step.
 * Each module owns the type of its options (and their defaults); this file imports them, never the reverse.
 */
export interface Config {
  port: number;
  host: string;
  /** unset: SQLite in dataDir; `postgres://…`: PostgreSQL */
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL: longest wait for a connection (and for a health check's round trip), ms. */
  databaseTimeoutMs: number;
  logLevel: string;
  /** Latest `exp` a (non-licence) signature may carry, in seconds from now; licence signatures stay at 4 minutes. */
  signatureMaxLifetimeSeconds: number;
  /** Collaboration sockets one process keeps open at once per user of an application, and per file (more: closed with 4429). */
  collaborationSockets: CollaborationSocketLimits;
  /** Largest accepted request body, in bytes (JSON bodies). */
  bodyLimitBytes: number;
  /** Default per-application request budget per second on the backend routes. */
  appQps: number;
  /**
   * Header prefix of the public client kits' dialect, lower case (e.g. `x-shimo-`): a request signed with
   * `<prefix>Signature` is answered as the kits expect (README "Client kits"). Unset: no dialect.
   */
  compatHeaderPrefix?: string | undefined;
  /** Application created or updated at start, when SVC_APP_ID and SVC_APP_SECRET are set. */
  bootstrapApp: BootstrapApp | undefined;
  /** Largest accepted table API request body, in bytes; above it the table API answers 400 / 70012. */
  tableBodyLimitBytes: number;
  /** Largest accepted image or attachment upload, in bytes; above it 413 / 75001 (docs/ATTACHMENTS.md). */
  uploadLimitBytes: number;
  /** Integrator link: callback deadlines, permission cache and event delivery (README "Integrator link"). */
  integratorLink: IntegratorConfig;
  /** Content engine: change recording, cross-process catch-up and compaction (README "Collaboration"). */
  content: ContentConfig;
  /** unset: this process alone; `redis://…`: processes share rate limits, collaboration and change announcements (docs/DEPLOY.md) */
  redisUrl: string | undefined;
  /** prefix of every Redis key and channel (deployments sharing one Redis need different ones) */
  redisNamespace: string;
  /** Which addresses the service fetches from (README "Outbound connections"); link-local and metadata never. */
  outbound: { allowPrivateNetworks: boolean };
  /** `store`: outside images in content are fetched once and become attachments; `allow`: browsers load them (docs/ATTACHMENTS.md "Outside images"). */
  outsideImages: OutsideImagesMode;
  /** How long an editor session ticket lives before the page renews it, ms (docs/SDK.md "Sessions without tokens in URLs"). */
  editorSessionTtlMs: number;
  /** Asynchronous tasks: import, export, preview cache (docs/TASKS.md). */
  tasks: TaskConfig;
  /** Import (docs/IMPORT-EXPORT.md). */
  imports: ImportConfig;
  /** Export: download links, conversion limits, renderers (docs/IMPORT-EXPORT.md "Export"). */
  export: ExportConfig;
  /** LibreOffice's `soffice`, found on the PATH at start; unset: the legacy binary formats are refused. */
  soffice: string | undefined;
}

export interface CollaborationSocketLimits {
  perUser: number;
  perFile: number;
}

export interface ExportConfig {
  /** How long an export's download link works; its file is removed after that, ms. */
  linkTtlMs: number;
  /** Heap limit of one conversion's worker thread, MiB. */
  workerMemoryMb: number;
  /** Chromium for pdf and jpg; unset: the binary inside @sparticuz/chromium. */
  chromiumPath: string | undefined;
}

export interface IntegratorConfig {
  /** Deadline of one callback to the integrator, retries included, in ms. */
  callbackTimeoutMs: number;
  /** How long a resolved token/permission answer is reused, in ms; 0 disables the cache. */
  permissionCacheMs: number;
  /** Run the event delivery worker in this process. */
  deliveryWorker: boolean;
  /** Deadline of one event delivery (POST /events), in ms. */
  deliveryTimeoutMs: number;
  /** Events delivered at the same time (each to a different file). */
  deliveryConcurrency: number;
  /** First retry delay; each further one doubles (with jitter) up to deliveryMaxDelayMs. */
  deliveryRetryBaseMs: number;
  deliveryMaxDelayMs: number;
  /** Attempts before an event is marked failed. */
  deliveryMaxAttempts: number;
  /** How often the worker looks for due events when nothing woke it, in ms. */
  deliveryPollMs: number;
  /** Delivered events are kept this long (admin view), in ms; 0 keeps them forever. */
  deliveryRetentionMs: number;
}

export interface BootstrapApp {
  appId: string;
  secret: string;
  endpointUrl: string | undefined;
}

/** The content engine's settings that come from the environment (SVC_CONTENT_*); the rest are the wiring's (services.ts). */
export type ContentConfig = Omit<ContentOptions, 'permissionRequestIntervalMs' | 'fanout'>;

export class ConfigError extends Error {}

/** A header name prefix ending in `-` (`X-Shimo-`); never our own `X-Svc-`, whose answers keep the envelope. */
function compatHeaderPrefix(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const prefix = raw.toLowerCase();
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*-$/.test(prefix) || prefix === 'x-svc-') {
    throw new ConfigError(`SVC_COMPAT_HEADER_PREFIX must be a header name prefix ending in "-" other than X-Svc- (e.g. X-Shimo-), got ${JSON.stringify(raw)}`);
  }
  return prefix;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** REDIS_URL: redis:// or rediss://, a host, an optional database number (nothing else is understood). */
function checkRedisUrl(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got an unparsable value`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got ${url.protocol}//…`);
  if (!url.hostname) throw new ConfigError('REDIS_URL names no host');
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,2}$/.test(url.pathname)) throw new ConfigError('REDIS_URL: the path may only be a database number, e.g. redis://host:6379/0');
}

function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be unset (SQLite) or a postgres:// URL');
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined) checkRedisUrl(redisUrl);
  const redisNamespace = env.SVC_REDIS_PREFIX || 'svc';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(redisNamespace)) throw new ConfigError('SVC_REDIS_PREFIX must be 1-64 of A-Z a-z 0-9 _ . -');
  const appId = env.SVC_APP_ID || undefined;
  const secret = env.SVC_APP_SECRET || undefined;
  if ((appId === undefined) !== (secret === undefined)) {
    throw new ConfigError('SVC_APP_ID and SVC_APP_SECRET must be set together');
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    dataDir: path.resolve(env.SVC_DATA_DIR || './data'),
    databaseTimeoutMs: integer(env, 'SVC_DATABASE_TIMEOUT_MS', DEFAULT_CONNECT_TIMEOUT_MS, 100, 600_000),
    logLevel: env.LOG_LEVEL || 'info',
    signatureMaxLifetimeSeconds: integer(env, 'SVC_SIGNATURE_MAX_LIFETIME_HOURS', DEFAULT_SIGNATURE_MAX_LIFETIME_SECONDS / 3600, 1, 24 * 366) * 3600,
    collaborationSockets: {
      perUser: integer(env, 'SVC_COLLAB_SOCKETS_PER_USER', 50, 1, 100_000),
      perFile: integer(env, 'SVC_COLLAB_SOCKETS_PER_FILE', 500, 1, 1_000_000),
    },
    bodyLimitBytes: integer(env, 'SVC_BODY_LIMIT', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    appQps: integer(env, 'SVC_APP_QPS', 200, 1, 1_000_000),
    compatHeaderPrefix: compatHeaderPrefix(env.SVC_COMPAT_HEADER_PREFIX),
    bootstrapApp:
      appId && secret ? { appId, secret, endpointUrl: env.SVC_APP_ENDPOINT_URL || undefined } : undefined,
    tableBodyLimitBytes: integer(env, 'SVC_TABLE_BODY_LIMIT', 5 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    uploadLimitBytes: integer(env, 'SVC_UPLOAD_LIMIT', 10 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    integratorLink: {
      callbackTimeoutMs: integer(env, 'SVC_CALLBACK_TIMEOUT_MS', 5000, 100, 120_000),
      permissionCacheMs: integer(env, 'SVC_PERMISSION_CACHE_MS', 3000, 0, 600_000),
      deliveryWorker: env.SVC_EVENT_WORKER !== '0' && env.SVC_EVENT_WORKER !== 'false',
      deliveryTimeoutMs: integer(env, 'SVC_EVENT_TIMEOUT_MS', 10_000, 100, 120_000),
      deliveryConcurrency: integer(env, 'SVC_EVENT_CONCURRENCY', 16, 1, 1000),
      deliveryRetryBaseMs: integer(env, 'SVC_EVENT_RETRY_BASE_MS', 10_000, 1, 3_600_000),
      deliveryMaxDelayMs: integer(env, 'SVC_EVENT_RETRY_MAX_MS', 3_600_000, 1, 86_400_000),
      deliveryMaxAttempts: integer(env, 'SVC_EVENT_MAX_ATTEMPTS', 16, 1, 100),
      deliveryPollMs: integer(env, 'SVC_EVENT_POLL_MS', 500, 5, 60_000),
      deliveryRetentionMs: integer(env, 'SVC_EVENT_RETENTION_DAYS', 7, 0, 3650) * 86_400_000,
    },
    redisUrl,
    redisNamespace,
    content: {
      coalesceMs: integer(env, 'SVC_CONTENT_COALESCE_MS', 2000, 0, 600_000),
      coalesceMaxMs: integer(env, 'SVC_CONTENT_COALESCE_MAX_MS', 10_000, 0, 3_600_000),
      pollMs: integer(env, 'SVC_CONTENT_POLL_MS', 1000, 10, 60_000),
      compactAfter: integer(env, 'SVC_CONTENT_COMPACT_AFTER', 500, 1, 1_000_000),
      permissionRecheckMs: integer(env, 'SVC_CONTENT_PERMISSION_RECHECK_MS', 60_000, 100, 86_400_000),
      cacheBytes: integer(env, 'SVC_CONTENT_CACHE_BYTES', DEFAULT_CONTENT_CACHE_BYTES, 0, 64 * 1024 * 1024 * 1024),
      historySnapshots: integer(env, 'SVC_CONTENT_HISTORY_SNAPSHOTS', DEFAULT_HISTORY_SNAPSHOTS, 1, 1_000_000),
    },
    tasks: {
      worker: env.SVC_TASK_WORKER !== '0' && env.SVC_TASK_WORKER !== 'false',
      concurrency: integer(env, 'SVC_TASK_CONCURRENCY', 2, 1, 256),
      perAppConcurrency: integer(env, 'SVC_TASK_APP_CONCURRENCY', 2, 1, 256),
      pollMs: integer(env, 'SVC_TASK_POLL_MS', 1000, 5, 60_000),
      leaseMs: integer(env, 'SVC_TASK_LEASE_MS', 30_000, 100, 3_600_000),
      maxAttempts: integer(env, 'SVC_TASK_MAX_ATTEMPTS', 2, 1, 100),
      retentionMs: integer(env, 'SVC_TASK_RETENTION_HOURS', 24, 1, 24 * 365) * 3_600_000,
    },
    imports: {
      limitBytes: integer(env, 'SVC_IMPORT_LIMIT', 50 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      converterMemoryMb: integer(env, 'SVC_CONVERTER_MEMORY_MB', 512, 64, 16_384),
      converterTimeoutMs: integer(env, 'SVC_CONVERTER_TIMEOUT_MS', 300_000, 1000, 3_600_000),
      fetchTimeoutMs: integer(env, 'SVC_IMPORT_FETCH_TIMEOUT_MS', 60_000, 100, 600_000),
    },
    export: {
      linkTtlMs: integer(env, 'SVC_EXPORT_LINK_TTL_MINUTES', 60, 1, 7 * 24 * 60) * 60_000,
      workerMemoryMb: integer(env, 'SVC_EXPORT_WORKER_MEMORY_MB', 1024, 64, 16_384),
      chromiumPath: env.CHROMIUM_PATH || undefined,
    },
    soffice: findSoffice(env.PATH ?? ''),
    outbound: { allowPrivateNetworks: choice(env, 'SVC_OUTBOUND_PRIVATE_NETWORKS', ['allow', 'refuse'], 'allow') === 'allow' },
    outsideImages: choice(env, 'SVC_OUTSIDE_IMAGES', ['store', 'allow'], 'store'),
    editorSessionTtlMs: integer(env, 'SVC_EDITOR_SESSION_TTL_SECONDS', 600, 10, 86_400) * 1000,
  };
}
