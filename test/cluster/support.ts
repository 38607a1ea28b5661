import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { LocalAppChanges } from '../../src/apps/app-changes.js';
import type { App, AppSettings } from '../../src/apps/app.js';
import { AppService } from '../../src/domain/apps/app-service.js';
import { OutboundPolicy } from '../../src/net/outbound-policy.js';
import { openStorage, type Storage } from '../../src/storage/database.js';
import { testDatabases } from '../support/databases.js';
import { projectRoot, typescriptProcess } from '../support/processes.js';
import { sign, signLicense } from '../support/signing.js';

/** The Redis of the cluster tests: TEST_REDIS_URL, else the local default. */
export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the cluster tests can run: PostgreSQL (TEST_DATABASE_URL, as the rest of the suite) and Redis answer.
 * SQLite is one process's database; several processes share PostgreSQL.
 */
export async function clusterPrerequisites(): Promise<boolean> {
  const databaseUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!databaseUrl) return false;
  const database = await answers(async () => {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
  });
  const redis = await answers(async () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await client.connect();
      await client.ping();
    } finally {
      client.disconnect();
    }
  });
  return database && redis;
}

export interface Node {
  url: string;
  child: ChildProcess;
  /** SIGTERM, waits for the exit */
  stop(): Promise<void>;
  /** SIGKILL: a crash */
  kill(): Promise<void>;
}

export interface TestCluster {
  nodes: Node[];
  /** SVC_REDIS_PREFIX of its processes (their Redis keys, channels and connection names start with it) */
  namespace: string;
  /** storage of the shared database, opened by the test itself (setup and checks) */
  storage: Storage;
  createApp(settings?: AppSettings): Promise<App>;
  /** starts one more process on the same database and Redis */
  startNode(env?: Record<string, string>): Promise<Node>;
  dispose(): Promise<void>;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function startNode(storageOptions: object, env: Record<string, string>): Promise<Node> {
  const child = spawn(...typescriptProcess('test/cluster/fixtures/serve.ts'), {
    cwd: projectRoot,
    env: { ...process.env, ...env, SVC_TEST_STORAGE: JSON.stringify(storageOptions) },
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const node = (url: string): Node => ({
    url,
    child,
    async stop() {
      if (!exited(child)) child.kill('SIGTERM');
      await ended;
    },
    async kill() {
      if (!exited(child)) child.kill('SIGKILL');
      await ended;
    },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`service did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.CLUSTER_TEST_LOGS) process.stderr.write(chunk);
      const ready = /ready (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(node(ready[1]!));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.CLUSTER_TEST_LOGS) process.stderr.write(chunk);
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}: ${output}`)));
  });
}

/**
 * `count` service processes on one fresh PostgreSQL schema and a Redis namespace of their own (so test files
 * running at once never meet), started in parallel.
 */
export async function startCluster(count: number, env: Record<string, string> = {}): Promise<TestCluster> {
  const postgres = testDatabases().find((database) => database.name === 'postgres');
  if (!postgres) throw new Error('the cluster tests need PostgreSQL (TEST_DATABASE_URL)');
  const fresh = await postgres.fresh();
  const storage = await openStorage(fresh.options);
  const apps = new AppService(storage, new OutboundPolicy({ allowPrivateNetworks: true }), new LocalAppChanges());
  const clusterEnv = { REDIS_URL, SVC_REDIS_PREFIX: `test-${crypto.randomBytes(6).toString('hex')}`, ...env };
  const nodes: Node[] = [];
  const cluster: TestCluster = {
    nodes,
    namespace: clusterEnv.SVC_REDIS_PREFIX,
    storage,
    createApp: (settings = {}) => apps.create(settings),
    async startNode(extra = {}) {
      const node = await startNode(fresh.options, { ...clusterEnv, ...extra });
      nodes.push(node);
      return node;
    },
    async dispose() {
      await Promise.all(nodes.map((node) => node.kill()));
      await storage.close();
      await fresh.dispose();
    },
  };
  try {
    await Promise.all(Array.from({ length: count }, () => cluster.startNode()));
  } catch (error) {
    await cluster.dispose();
    throw error;
  }
  return cluster;
}

/** What a test needs to call a node as an app: its address and signatures. */
export function asApp(node: Node, app: App) {
  return {
    url: node.url,
    sign: () => sign(app.id, app.secret),
    signLicense: () => signLicense(app.id, app.secret),
  };
}

/** A backend call to a node as `app`, with the user token. */
export async function call(node: Node, app: App, method: string, path: string, body?: unknown, options: { license?: boolean; token?: string } = {}) {
  const headers: Record<string, string> = {
    'x-svc-signature': options.license ? await signLicense(app.id, app.secret) : await sign(app.id, app.secret),
    'x-svc-token': options.token ?? 'user-token',
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${node.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as { status: number; message: string; data: unknown } };
}
