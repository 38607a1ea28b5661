import { ConfigError, loadConfig } from './config.js';
import { serve } from './serve.js';

/** `npm start`: read the environment, migrate the database, bootstrap the configured app, serve. */
async function main(): Promise<void> {
  const config = loadConfig();
  const service = await serve(config);
  const shutdown = async (signal: string) => {
    service.server.log.info({ signal }, 'shutting down');
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  service.server.log.info({ database: service.storage.engine, dataDir: config.dataDir }, 'svc ready');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
