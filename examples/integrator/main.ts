/**
 * Runs the reference integrator for local development, with a few users and files:
 *
 *   SVC_APP_ID=demo SVC_APP_SECRET=change-me npx tsx examples/integrator/main.ts     # listens on :4000
 *   SVC_APP_ID=demo SVC_APP_SECRET=change-me SVC_APP_ENDPOINT_URL=http://127.0.0.1:4000 npm start
 *
 * Tokens `alice-token` (all permissions on every file) and `bob-token` (read only) then work against the service.
 */
import { ALL_PERMISSIONS, startIntegrator } from './integrator.js';

const appId = process.env.SVC_APP_ID ?? 'demo';
const secret = process.env.SVC_APP_SECRET ?? 'change-me';
const port = Number(process.env.INTEGRATOR_PORT ?? 4000);

const integrator = await startIntegrator({ secretOf: (id) => (id === appId ? secret : undefined), port, host: '127.0.0.1' });
integrator.addUser({ id: 'alice', name: 'Alice', email: 'alice@example.com', token: 'alice-token' });
integrator.addUser({ id: 'bob', name: 'Bob', email: 'bob@example.com', token: 'bob-token' });
for (const [id, type] of [
  ['welcome', 'document'],
  ['budget', 'spreadsheet'],
  ['tasks', 'table'],
] as const) {
  integrator.addFile({ id, name: id, type, creatorId: 'alice', grants: { alice: { ...ALL_PERMISSIONS }, bob: { readable: true } } });
}
const seen = new Set<string>();
setInterval(() => {
  for (const event of integrator.events) {
    if (seen.has(event.eventId)) continue;
    seen.add(event.eventId);
    console.log(`event ${event.eventClass} ${event.eventId}: ${JSON.stringify(event.body)}`);
  }
}, 500).unref();
console.log(`reference integrator for app ${appId} on ${integrator.url}`);
process.once('SIGINT', () => void integrator.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void integrator.close().then(() => process.exit(0)));
