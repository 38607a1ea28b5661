import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalAppChanges } from '../../src/apps/app-changes.js';
import { AppService } from '../../src/domain/apps/app-service.js';
import { OutboundPolicy } from '../../src/net/outbound-policy.js';
import { openStorage } from '../../src/storage/database.js';
import { projectRoot } from '../support/processes.js';

/**
 * `npx svc sign` (bin/svc.js) on a clone answers without building the server (issue 27: the first one took 46 s,
 * compiling everything): it runs src/cli/sign-command.ts from the sources, reading the app's secret from the
 * database. The build stamps stay as they were, and what it prints verifies with the app's secret.
 */
describe('npx svc sign', { timeout: 120_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sign-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const svc = (...args: string[]) =>
    spawnSync(process.execPath, ['bin/svc.js', ...args], { cwd: projectRoot, env: { ...process.env, SVC_DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });

  it('signs from the sources, without a build, with the secret stored for the app', async () => {
    const storage = await openStorage({ dataDir });
    const app = await new AppService(storage, new OutboundPolicy({ allowPrivateNetworks: true }), new LocalAppChanges()).create({ id: 'walk' });
    await storage.close();
    const stamps = path.join(projectRoot, 'dist', '.build-stamps.json');
    const stampedBefore = fs.existsSync(stamps) ? fs.statSync(stamps).mtimeMs : undefined;

    const signed = svc('sign', '--app', 'walk', '--user', 'alice');
    expect(signed.status, signed.stderr).toBe(0);
    const lines = Object.fromEntries(signed.stdout.trim().split('\n').map((line) => /^export ([A-Z_]+)=(\S+)$/.exec(line)!.slice(1, 3)));
    expect(Object.keys(lines)).toEqual(['SIGNATURE', 'TOKEN']);
    expect(decodeProtectedHeader(lines.SIGNATURE!)).toMatchObject({ alg: 'HS256', kid: 'walk' });
    await jwtVerify(lines.SIGNATURE!, new TextEncoder().encode(app.secret));
    expect(signed.stderr).not.toContain('building');
    expect(fs.existsSync(stamps) ? fs.statSync(stamps).mtimeMs : undefined).toBe(stampedBefore);

    expect(svc('sign', '--app', 'other')).toMatchObject({ status: 1, stderr: expect.stringContaining('app other not found') });
    const elsewhere = spawnSync(process.execPath, ['bin/svc.js', 'sign', '--app', 'walk'], { cwd: projectRoot, env: { ...process.env, SVC_DATA_DIR: path.join(dataDir, 'none'), DATABASE_URL: '' }, encoding: 'utf8' });
    expect(elsewhere).toMatchObject({ status: 1, stderr: expect.stringContaining('no database at') });
  });
});
