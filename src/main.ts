import { ConfigError, loadConfig } from './config.js';
import { buildServer } from './server.js';
import { createServices } from './services.js';
import { openStorage } from './storage/database.js';

/** `npm start`: read the environment, migrate the database, bootstrap the configured app, serve. */
async function main(): Promise<void> {
  const config = loadConfig();
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const services = createServices(config, storage);
  if (config.bootstrapApp) {
    const { appId, secret, endpointUrl } = config.bootstrapApp;
    await services.apps.ensure({ id: appId, secret, endpointUrl });
  }
  const server = await buildServer(services);
  const shutdown = async (signal: string) => {
    server.log.info({ signal }, 'shutting down');
    await server.close();
    await storage.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await server.listen({ port: config.port, host: config.host });
  server.log.info({ database: storage.engine, dataDir: config.dataDir }, 'svc ready');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
