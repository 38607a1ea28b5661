import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVICE_RESTART_CLOSE_CODE } from '../../src/domain/content/content-service.js';
import { startBalancer } from '../support/balancer.js';
import { eventually, startTestIntegrator } from '../support/integrator.js';
import { projectRoot, typescriptProcess } from '../support/processes.js';
import { sign } from '../support/signing.js';
import { appendParagraph, connectEditor, type Editor } from './support.js';

const APP_ID = 'sigterm-app';
const SECRET = 'sigterm-secret-0123456789-0123456789-abcdef';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `npm start` as its own process on the SQLite database in `dataDir`. */
async function startProcess(dataDir: string, endpointUrl: string) {
  const child = spawn(...typescriptProcess('src/main.ts'), {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_APP_ID: APP_ID, SVC_APP_SECRET: SECRET, SVC_APP_ENDPOINT_URL: endpointUrl },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { url, exited, terminate: () => child.kill('SIGTERM') };
}

// Real processes (tsx compiles on start): slow on a loaded machine, so a generous time limit.
describe('SIGTERM', { timeout: 120_000 }, () => {
  it('a process stops with its editors moved to the next one, every acknowledged edit and its record kept', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sigterm-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const integrator = await startTestIntegrator((appId) => (appId === APP_ID ? SECRET : undefined));
    cleanups.push(() => integrator.close());
    const first = await startProcess(dataDir, integrator.url);
    const balancer = await startBalancer(first.url);
    cleanups.push(() => balancer.close());
    const signer = { url: balancer.url, sign: () => sign(APP_ID, SECRET) };

    const created = await fetch(`${balancer.url}/sdk/v2/api/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-signature': await sign(APP_ID, SECRET), 'x-svc-token': 'user-token' },
      body: JSON.stringify({ type: 'document', fileId: 'doc-term' }),
    });
    expect(created.status).toBe(200);
    const editor: Editor = await connectEditor(signer, 'doc-term');
    cleanups.push(() => editor.close());
    for (let i = 1; i <= 10; i++) appendParagraph(editor.doc, `typed ${i}`);
    await editor.saved();

    // SIGTERM within the coalescing window (2 s by default): the burst is not recorded yet
    first.terminate();
    expect(await first.exited).toBe(0);
    expect(editor.closes).toContain(SERVICE_RESTART_CLOSE_CODE);
    // the integrator heard of the change: recorded at shutdown, delivered by one process or the other
    const second = await startProcess(dataDir, integrator.url);
    balancer.target = second.url;
    await eventually(() => integrator.events.some((event) => event.eventClass === 'FileContent' && event.body.fileId === 'doc-term'), 'FileContent of the burst', 30_000);

    // the editor is back through the balancer, on the second process, with everything it had
    await eventually(() => editor.provider.isSynced, 'editor reconnected', 30_000);
    appendParagraph(editor.doc, 'after the restart');
    await editor.saved();
    const text = await fetch(`${second.url}/sdk/v2/collab-files/doc-term/plain-text`, {
      headers: { 'x-svc-signature': await sign(APP_ID, SECRET), 'x-svc-token': 'user-token' },
    }).then((response) => response.json() as Promise<{ data: { content: string } }>);
    expect(text.data.content.split('\n')).toEqual([...Array.from({ length: 10 }, (_, i) => `typed ${i + 1}`), 'after the restart']);
    second.terminate();
    expect(await second.exited).toBe(0);
  });
});
