/**
 * Import and export benchmark (issue 16): `npm run bench -- import-export`. With DATABASE_URL=postgres://… the
 * server runs on that PostgreSQL database, otherwise on embedded SQLite in a temporary folder. The service runs as
 * its own process (bench/_service.ts) with the reference integrator answering its callbacks; everything goes
 * through real HTTP. Parts: export (bench/_export.ts: a 200-page document to docx and to pdf).
 */
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { exportBench } from './_export.js';
import { startBenchService } from './_service.js';

const APP_ID = 'bench-import-export';
const SECRET = 'bench-import-export-secret-0123456789';
const TOKEN = 'bench-token';

export default async function importExportBench(): Promise<void> {
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined), autoFiles: true });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: 'export-200', name: 'Annual report', type: 'document', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url });
  try {
    await exportBench(service, TOKEN);
  } finally {
    await service.close();
    await integrator.close();
  }
}
