import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEditor, type Editor } from '../content/support.js';
import { eventually, startTestIntegrator } from '../support/integrator.js';
import type { ReferenceIntegrator } from '../../examples/integrator/integrator.js';
import { projectRoot, typescriptProcess } from '../support/processes.js';
import { asApp, call, clusterPrerequisites, REDIS_URL, startCluster, type TestCluster } from './support.js';
import { unusedPort } from '../support/ports.js';

const redisAnswers = await (async () => {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
})();
const clusterAvailable = await clusterPrerequisites();

/** `npm start`'s entry with the environment given, on a fresh SQLite folder; stopped by the caller. */
function startMain(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-redis-'));
  const child = spawn(...typescriptProcess('src/main.ts'), { cwd: projectRoot, env: { ...process.env, DATABASE_URL: '', SVC_DATA_DIR: dataDir, PORT: '0', ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = eventually(() => /Server listening at (http:\/\/[\d.:]+)/.test(output), 'the service listening', 60_000).then(() => /Server listening at (http:\/\/[\d.:]+)/.exec(output)![1]!);
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('REDIS_URL at start', { timeout: 120_000 }, () => {
  it('refuses a malformed REDIS_URL with a clear message', () => {
    for (const [value, message] of [
      ['http://127.0.0.1:6379', 'REDIS_URL must be a redis:// or rediss:// URL'],
      ['not a url', 'REDIS_URL must be a redis:// or rediss:// URL'],
      ['redis://127.0.0.1:6379/cache', 'REDIS_URL: the path may only be a database number'],
    ] as const) {
      const result = spawnSync(...typescriptProcess('src/main.ts'), { cwd: projectRoot, env: { ...process.env, REDIS_URL: value, DATABASE_URL: '' }, encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`configuration error: ${message}`);
    }
  });

  it.skipIf(!redisAnswers)('refuses credentials Redis does not accept with a clear message', () => {
    const url = new URL(REDIS_URL);
    url.username = 'nobody-here';
    url.password = 'wrong';
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-redis-'));
    try {
      const result = spawnSync(...typescriptProcess('src/main.ts'), { cwd: projectRoot, env: { ...process.env, REDIS_URL: url.toString(), DATABASE_URL: '', SVC_DATA_DIR: dataDir, PORT: '0' }, encoding: 'utf8', timeout: 60_000 });
      expect(result.stderr, `exit ${result.status} ${result.signal}: ${result.stdout}`).toContain('configuration error: REDIS_URL: Redis refuses its credentials');
      expect(result.status).toBe(1);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves without a Redis that does not answer, and says so in /healthz', async () => {
    const service = startMain({ REDIS_URL: `redis://127.0.0.1:${await unusedPort()}` });
    try {
      const url = await service.url;
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', redis: 'down' });
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      // logged once, however long it stays away
      expect(service.output().match(/Redis does not answer at start/g)).toHaveLength(1);
    } finally {
      await service.stop();
    }
  });
});

describe.skipIf(!clusterAvailable)('Redis going away and coming back', { timeout: 180_000 }, () => {
  let cluster: TestCluster;
  let integrator: ReferenceIntegrator;
  const secrets = new Map<string, string>();
  const editors: Editor[] = [];
  beforeAll(async () => {
    integrator = await startTestIntegrator((appId) => secrets.get(appId));
    cluster = await startCluster(2, { SVC_CONTENT_POLL_MS: '200' });
  }, 180_000);
  afterAll(async () => {
    for (const editor of editors) await editor.close();
    await cluster?.dispose();
    await integrator?.close();
  });

  /** Drops every connection of this cluster's processes, as a Redis restart does. */
  async function dropConnections(): Promise<number> {
    const admin = new Redis(REDIS_URL);
    try {
      const namespace = cluster.namespace;
      const list = (await admin.client('LIST')) as string;
      const ids = [...list.matchAll(/id=(\d+) .*?name=(\S*)/g)].filter((match) => match[2]!.startsWith(`${namespace}-`)).map((match) => match[1]!);
      for (const id of ids) await admin.client('KILL', 'ID', id);
      return ids.length;
    } finally {
      admin.disconnect();
    }
  }

  it('keeps editors in step through the storage poll while Redis is away, and through Redis again after', async () => {
    const app = await cluster.createApp({ endpointUrl: integrator.url });
    secrets.set(app.id, app.secret);
    await call(cluster.nodes[0]!, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'weathered' });
    const first = await connectEditor(asApp(cluster.nodes[0]!, app), 'weathered');
    const second = await connectEditor(asApp(cluster.nodes[1]!, app), 'weathered');
    editors.push(first, second);
    const text = (editor: Editor) => editor.doc.getText('probe').toString();
    first.doc.getText('probe').insert(0, 'a');
    await eventually(() => text(second) === 'a', 'the first edit');

    expect(await dropConnections()).toBeGreaterThan(0);
    first.doc.getText('probe').insert(1, 'b');
    await eventually(() => text(second) === 'ab', 'the edit made around the drop');
    // the subscriber reconnected (without a ready check: see RedisLink) and carries edits again
    await eventually(async () => {
      const states = await Promise.all(cluster.nodes.map(async (node) => ((await (await fetch(`${node.url}/healthz`)).json()) as { redis: string }).redis));
      return states.every((state) => state === 'up');
    }, 'Redis up again on both processes');
    second.doc.getText('probe').insert(2, 'c');
    await eventually(() => text(first) === 'abc', 'an edit after Redis returned');
    // the shared rate limit counts again: a request is answered
    expect((await call(cluster.nodes[1]!, app, 'GET', `/sdk/v2/api/license/apps/${app.id}`, undefined, { license: true })).status).toBe(200);
  });
});
