/**
 * `npm run demo`: the service and the reference integrator with its intranet page, in one process.
 *
 *   the service      http://127.0.0.1:3000   (PORT, HOST; data in SVC_DATA_DIR, default ./data, SQLite)
 *   the intranet     http://localhost:4000   (DEMO_PORT): the integrator's callbacks and its page for people
 *
 * The intranet runs on its own origin, as a real integrator's would: its page loads the SDK from the service
 * and shows the editor in an iframe of the service's origin. A first run creates the application (its secret
 * is kept in ./data/demo-settings.json) and five files with content (examples/integrator/seed.ts, imported
 * through the service's import API); later runs find them again (./data/demo-intranet.json).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { serve } from '../../src/serve.js';
import { startIntegrator } from './integrator.js';
import { GUESTS, Intranet } from './intranet.js';
import { SEED_FILES } from './seed.js';

const APP_ID = 'demo-intranet';

const DEPARTMENTS = [
  { id: 'company', name: 'Acme' },
  { id: 'product', name: 'Product', parentId: 'company' },
  { id: 'engineering', name: 'Engineering', parentId: 'company' },
  { id: 'design', name: 'Design', parentId: 'company' },
  { id: GUESTS, name: 'Guests' },
];

const COLLEAGUES = [
  { id: 'alice', name: 'Alice Chen', email: 'alice@acme.example', departmentId: 'product' },
  { id: 'bob', name: 'Bob Martin', email: 'bob@acme.example', departmentId: 'engineering' },
  { id: 'carol', name: 'Carol Díaz', email: 'carol@acme.example', departmentId: 'design' },
  { id: 'dan', name: 'Dan Okafor', email: 'dan@acme.example', departmentId: 'engineering' },
  { id: 'erin', name: 'Erin Guest', email: 'erin@partner.example', departmentId: GUESTS },
];

interface DemoSettings {
  secret: string;
}

/** The app secret of this data folder: made on the first run, read afterwards. */
function demoSettings(dataDir: string): DemoSettings {
  const file = path.join(dataDir, 'demo-settings.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as DemoSettings;
  const settings: DemoSettings = { secret: crypto.randomBytes(32).toString('base64url') };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings, null, 2), { mode: 0o600 });
  return settings;
}

async function main(): Promise<void> {
  const environment = loadConfig();
  const config = { ...environment, logLevel: process.env.LOG_LEVEL || 'warn' };
  const { secret } = demoSettings(config.dataDir);
  const port = Number(process.env.DEMO_PORT ?? 4000);

  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? secret : undefined), port, host: '127.0.0.1' });
  // the page's origin (localhost) differs from the service's (127.0.0.1), as an intranet's would
  const intranetUrl = `http://localhost:${new URL(integrator.url).port}`;
  integrator.publicUrl = `${intranetUrl}/intranet`;
  for (const department of DEPARTMENTS) integrator.departments.set(department.id, department);
  for (const colleague of COLLEAGUES) integrator.addUser({ ...colleague, token: crypto.randomBytes(18).toString('base64url') });

  const service = await serve({ ...config, bootstrapApp: { appId: APP_ID, secret, endpointUrl: integrator.url } });
  const intranet = new Intranet({ integrator, serviceUrl: service.url, appId: APP_ID, secret, statePath: path.join(config.dataDir, 'demo-intranet.json') });
  if (integrator.files.size === 0) {
    console.log('  first run: importing the demo files…');
    for (const seed of SEED_FILES) {
      const file = await intranet.createFile(integrator.users.get(seed.creator)!, seed.name, seed.type, await seed.content());
      if (seed.comment) {
        const { author, from, to, text } = seed.comment;
        await intranet.comment(integrator.users.get(author)!, file.id, { from, to }, text);
      }
    }
  }

  const shutdown = async () => {
    intranet.close();
    await integrator.close();
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  console.log(`\n  Svc demo intranet:  ${intranetUrl}/   ← open this in a browser\n`);
  console.log(`  service ${service.url} (data in ${path.resolve(config.dataDir)}, ${service.storage.engine}), integrator callbacks ${integrator.url}`);
  console.log('  Ctrl-C stops both.\n');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`a port is taken: ${(error as Error).message} (set PORT or DEMO_PORT)`);
  else console.error(error);
  process.exit(1);
});
