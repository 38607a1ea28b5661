import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startTestIntegrator } from '../support/integrator.js';
import { projectRoot, typescriptProcess } from '../support/processes.js';
import { sign, signLicense } from '../support/signing.js';

const root = projectRoot;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-proc-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function cli(dataDir: string, ...args: string[]) {
  const result = spawnSync(...typescriptProcess('src/cli/main.ts', ...args), {
    cwd: root,
    env: { ...process.env, SVC_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `src/main.ts` as `npm start` would, on a free port; resolves with its base URL. */
async function startProcess(env: Record<string, string>) {
  const child = spawn(...typescriptProcess('src/main.ts'), { cwd: root, env: { ...process.env, DATABASE_URL: '', PORT: '0', ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no listen line: ${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { url, stop: () => new Promise<void>((resolve) => (child.on('exit', () => resolve()), child.kill('SIGTERM'))) };
}

// Each test starts real processes (tsx compiles on start): slow on a loaded machine, so generous time limits.
describe('command line', { timeout: 120_000 }, () => {
  it('creates, shows, updates and rotates an application', () => {
    const dataDir = tempDir();
    const created = cli(dataDir, 'app', 'create', '--name', 'CRM', '--member-limit', '5', '--file-types', 'document,table');
    expect(created.code, created.stderr).toBe(0);
    const app = JSON.parse(created.stdout);
    expect(app).toMatchObject({ appName: 'CRM', memberLimit: 5, availableFileTypes: ['document', 'table'] });
    expect(app.appSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const shown = JSON.parse(cli(dataDir, 'app', 'show', app.appId).stdout);
    expect(shown.appSecret).toBeUndefined();
    expect(shown.appId).toBe(app.appId);

    const endpoint = cli(dataDir, 'app', 'set-endpoint', app.appId, 'https://crm.example.com/hooks/');
    expect(JSON.parse(endpoint.stdout).endpointUrl).toBe('https://crm.example.com/hooks');
    const metadata = cli(dataDir, 'app', 'set-endpoint', app.appId, 'http://169.254.169.254/latest');
    expect(metadata).toMatchObject({ code: 1, stderr: expect.stringContaining('link-local address') });

    const rotated = JSON.parse(cli(dataDir, 'app', 'rotate-secret', app.appId).stdout);
    expect(rotated.appSecret).not.toBe(app.appSecret);

    const updated = JSON.parse(cli(dataDir, 'app', 'update', app.appId, '--valid-until', '2030-01-01T00:00:00Z').stdout);
    expect(updated.validUntil).toBe('2030-01-01T00:00:00.000Z');
    expect(updated.frameOrigins).toEqual([]);
  });

  it('sets, normalizes and clears the allowed frame origins', () => {
    const dataDir = tempDir();
    const created = cli(dataDir, 'app', 'create', '--name', 'Framed', '--frame-origins', 'https://Intranet.example.com/, https://*.example.org:8443');
    expect(created.code, created.stderr).toBe(0);
    const app = JSON.parse(created.stdout);
    expect(app.frameOrigins).toEqual(['https://intranet.example.com', 'https://*.example.org:8443']);

    const updated = cli(dataDir, 'app', 'update', app.appId, '--frame-origins', 'http://localhost:5173');
    expect(JSON.parse(updated.stdout).frameOrigins).toEqual(['http://localhost:5173']);
    const refused = cli(dataDir, 'app', 'update', app.appId, '--frame-origins', 'https://a.example/path');
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('a path is not allowed') });
    expect(JSON.parse(cli(dataDir, 'app', 'show', app.appId).stdout).frameOrigins).toEqual(['http://localhost:5173']);
    expect(cli(dataDir, 'app', 'update', app.appId, '--frame-origins', ' , ').stderr).toContain('or any to allow every origin');

    const cleared = cli(dataDir, 'app', 'update', app.appId, '--frame-origins', 'any');
    expect(JSON.parse(cleared.stdout).frameOrigins).toEqual([]);
  });

  it('explains its mistakes', () => {
    const dataDir = tempDir();
    expect(cli(dataDir, 'app', 'show', 'nope')).toMatchObject({ code: 1, stderr: expect.stringContaining('not found') });
    expect(cli(dataDir, 'app', 'set-endpoint', 'x', 'ftp://x')).toMatchObject({ code: 1 });
    expect(cli(dataDir, 'app', 'create', '--file-types', 'video').stderr).toContain('unknown video');
    expect(cli(dataDir).code).toBe(2);
  });
});

describe('npm start', { timeout: 120_000 }, () => {
  it('creates the configured application at start, idempotently, and serves it', async () => {
    const dataDir = tempDir();
    const env = { SVC_DATA_DIR: dataDir, SVC_APP_ID: 'boot-app', SVC_APP_SECRET: 'boot-secret', SVC_APP_ENDPOINT_URL: 'http://127.0.0.1:9/cb' };
    for (let run = 0; run < 2; run++) {
      const service = await startProcess(env);
      try {
        expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
        const response = await fetch(`${service.url}/sdk/v2/api/license/apps/boot-app`, {
          headers: { 'x-svc-signature': await signLicense('boot-app', 'boot-secret') },
        });
        const body = (await response.json()) as { data: unknown };
        expect(body.data).toMatchObject({ endpointUrl: 'http://127.0.0.1:9/cb', userCount: 0 });
      } finally {
        await service.stop();
      }
    }
    expect(fs.existsSync(path.join(dataDir, 'svc.sqlite'))).toBe(true);
  });

  it('refuses a bad configuration with a clear message', () => {
    const result = spawnSync(...typescriptProcess('src/main.ts'), { cwd: root, env: { ...process.env, PORT: 'eighty', DATABASE_URL: '' }, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT must be an integer');
  });

  it('keeps data across restarts', async () => {
    const dataDir = tempDir();
    // Creating a file needs a token the integrator resolves to a user.
    const integrator = await startTestIntegrator((appId) => (appId === 'keep' ? 'keep-secret' : undefined));
    integrator.addUser({ id: 'u-t', name: 'T', token: 't' });
    onTestFinished(() => integrator.close());
    const env = { SVC_DATA_DIR: dataDir, SVC_APP_ID: 'keep', SVC_APP_SECRET: 'keep-secret', SVC_APP_ENDPOINT_URL: integrator.url };
    let service = await startProcess(env);
    const signature = await sign('keep', 'keep-secret');
    const create = await fetch(`${service.url}/sdk/v2/api/files`, {
      method: 'POST',
      headers: { 'x-svc-signature': signature, 'x-svc-token': 't', 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'document', fileId: 'persisted' }),
    });
    expect(create.status).toBe(200);
    await service.stop();
    service = await startProcess(env);
    try {
      const again = await fetch(`${service.url}/sdk/v2/api/files`, {
        method: 'POST',
        headers: { 'x-svc-signature': signature, 'x-svc-token': 't', 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'document', fileId: 'persisted' }),
      });
      expect(((await again.json()) as { status: number }).status).toBe(70012);
    } finally {
      await service.stop();
    }
  });
});
