import type { FastifyInstance } from 'fastify';
import { createCluster } from './cluster/cluster.js';
import type { Config } from './config.js';
import { buildServer } from './server.js';
import { createServices } from './services.js';
import { openStorage, type Storage } from './storage/database.js';

export interface RunningService {
  server: FastifyInstance;
  storage: Storage;
  /** the address it listens on, e.g. `http://127.0.0.1:3000` */
  url: string;
  close(): Promise<void>;
}

/**
 * Opens storage (migrating it), brings the configured application in line and listens: what `npm start`
 * runs, and what the demo (examples/integrator/demo.ts) runs beside its integrator.
 */
export async function serve(config: Config): Promise<RunningService> {
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, connectTimeoutMs: config.databaseTimeoutMs });
  const cluster = createCluster(config);
  const services = createServices(config, storage, cluster);
  const server = await buildServer(services);
  try {
    await cluster.start();
  } catch (error) {
    await server.close();
    await cluster.close();
    await storage.close();
    throw error;
  }
  if (config.bootstrapApp) {
    const { appId, secret, endpointUrl } = config.bootstrapApp;
    await services.apps.ensure({ id: appId, secret, endpointUrl });
  }
  await server.listen({ port: config.port, host: config.host });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    server,
    storage,
    url: `http://${host}:${port}`,
    async close() {
      await server.close();
      await cluster.close();
      await storage.close();
    },
  };
}
