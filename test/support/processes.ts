import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { LocalAppChanges } from '../../src/apps/app-changes.js';
import type { App } from '../../src/apps/app.js';
import { AppService } from '../../src/domain/apps/app-service.js';
import { OutboundPolicy } from '../../src/net/outbound-policy.js';
import { openStorage, type Storage, type StorageOptions } from '../../src/storage/database.js';
import { startTestIntegrator } from './integrator.js';
import type { ReferenceIntegrator } from '../../examples/integrator/integrator.js';

export const projectRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Command and arguments that run a TypeScript entry point in ONE node process (`node --import tsx`).
 * The `tsx` binary would start a second node process under itself, which a SIGKILL of the child we hold
 * leaves running.
 */
export function typescriptProcess(entry: string, ...args: string[]): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', entry, ...args]];
}

/**
 * The real server in a child process (test/integrator/fixtures/serve.ts) over the given storage (a test's
 * fresh database), for crash tests: `killed` ends it with SIGKILL. `env` adds variables (content settings); `url` is where it listens.
 */
export function startServiceProcess(storageOptions: object, env: Record<string, string> = {}): Promise<ChildProcess & { url: string }> {
  const child = spawn(...typescriptProcess('test/integrator/fixtures/serve.ts'), {
    cwd: projectRoot,
    env: { ...process.env, ...env, SVC_TEST_STORAGE: JSON.stringify(storageOptions) },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`service did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(Object.assign(child, { url: ready[1]! }));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`service exited ${code}: ${output}`)));
  });
}

/** Ends a service process as a crash would (SIGKILL) and waits until it is gone. */
export const killed = (child: ChildProcess) => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGKILL')));

/**
 * For a crash test: an app in the storage a service process will open, its endpoint a test integrator; what to
 * close is pushed onto `cleanup` (the storage, the integrator).
 */
export async function crashTestApp(options: StorageOptions, cleanup: Array<() => Promise<unknown>>): Promise<{ storage: Storage; app: App; integrator: ReferenceIntegrator }> {
  const storage = await openStorage(options);
  cleanup.push(() => storage.close());
  const apps = new AppService(storage, new OutboundPolicy({ allowPrivateNetworks: true }), new LocalAppChanges());
  const app = await apps.create({ name: 'crash test' });
  const integrator = await startTestIntegrator((appId) => (appId === app.id ? app.secret : undefined));
  cleanup.push(() => integrator.close());
  await apps.update(app.id, { endpointUrl: integrator.url });
  return { storage, app, integrator };
}
