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
    // a member limit given at creation is meant to limit: the seat policy defaults to auto
    expect(app).toMatchObject({ appName: 'CRM', memberLimit: 5, seatPolicy: 'auto', availableFileTypes: ['document', 'table'] });
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

    expect(JSON.parse(cli(dataDir, 'app', 'update', app.appId, '--seat-policy', 'strict').stdout).seatPolicy).toBe('strict');
    expect(cli(dataDir, 'app', 'update', app.appId, '--seat-policy', 'lenient')).toMatchObject({ code: 1, stderr: expect.stringContaining('--seat-policy: one of open, auto, strict') });
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

  it('signs for curl: a signature, a licence signature and an example integrator token that the service and integrator accept', async () => {
    const dataDir = tempDir();
    const integrator = await startTestIntegrator((appId) => (appId === 'curl' ? 'curl-secret' : undefined), { autoFiles: false });
    onTestFinished(() => integrator.close());
    integrator.addUser({ id: 'alice', name: 'Alice' });
    integrator.addFile({ id: 'budget', type: 'spreadsheet', grants: { alice: { readable: true, editable: true } } });
    const env = { SVC_DATA_DIR: dataDir, SVC_APP_ID: 'curl', SVC_APP_SECRET: 'curl-secret', SVC_APP_ENDPOINT_URL: integrator.url };
    const service = await startProcess(env);
    onTestFinished(() => service.stop());

    /** What `eval "$(npx svc sign …)"` would set. */
    const signed = (...args: string[]) => {
      const result = cli(dataDir, 'sign', ...args);
      expect(result.code, result.stderr).toBe(0);
      return Object.fromEntries(result.stdout.trim().split('\n').map((line) => /^export ([A-Z_]+)=([A-Za-z0-9._-]+)$/.exec(line)!.slice(1, 3)));
    };
    const { SIGNATURE, TOKEN, ...nothingElse } = signed('--app', 'curl', '--user', 'alice');
    expect(nothingElse).toEqual({});
    const created = await fetch(`${service.url}/sdk/v2/api/files`, {
      method: 'POST',
      headers: { 'x-svc-signature': SIGNATURE!, 'x-svc-token': TOKEN!, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'spreadsheet', fileId: 'budget' }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    // the user token is the integrator's business: the service never takes it for a signature
    const tokenAsSignature = await fetch(`${service.url}/sdk/v2/api/files/budget/sheets/values?range=A1`, { headers: { 'x-svc-signature': TOKEN!, 'x-svc-token': TOKEN! } });
    expect(tokenAsSignature.status).toBe(401);

    const { LICENSE_SIGNATURE } = signed('--app', 'curl', '--license');
    const license = await fetch(`${service.url}/sdk/v2/api/license/apps/curl`, { headers: { 'x-svc-signature': LICENSE_SIGNATURE! } });
    expect(license.status).toBe(200);
    // an ordinary signature is not a licence one (403: signed right, without the scope)
    expect((await fetch(`${service.url}/sdk/v2/api/license/apps/curl`, { headers: { 'x-svc-signature': SIGNATURE! } })).status).toBe(403);

    expect(cli(dataDir, 'sign', '--app', 'curl', '--license', '--expires', '5m')).toMatchObject({ code: 1, stderr: expect.stringContaining('4 minutes at most') });
    expect(cli(dataDir, 'sign', '--app', 'curl', '--expires', 'soon')).toMatchObject({ code: 1, stderr: expect.stringContaining('not a duration') });
    expect(cli(dataDir, 'sign', '--app', 'nope')).toMatchObject({ code: 1, stderr: expect.stringContaining('not found') });
    expect(cli(dataDir, 'sign')).toMatchObject({ code: 1, stderr: expect.stringContaining('sign needs --app') });
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
