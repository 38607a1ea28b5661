import { ConfigError, loadConfig } from './config.js';
import { serve } from './serve.js';

/** Longest a graceful shutdown may take: within the 30 s a container orchestrator usually grants. */
const SHUTDOWN_LIMIT_MS = 28_000;

/** `npm start`: read the environment, migrate the database, bootstrap the configured app, serve. */
async function main(): Promise<void> {
  const config = loadConfig();
  const service = await serve(config);
  // Graceful shutdown (docs/OPERATIONS.md); a second signal, or a shutdown that outlasts its time, ends the
  // process at once.
  const shutdown = async (signal: string) => {
    service.server.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      service.server.log.error({ signal }, `shutdown took longer than ${SHUTDOWN_LIMIT_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    await service.close();
    service.server.log.info({ signal }, 'stopped');
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
