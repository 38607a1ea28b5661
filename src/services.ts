import type { Config } from './config.js';
import { AppService } from './domain/apps/app-service.js';
import { FileService } from './domain/files/file-service.js';
import { SeatService } from './domain/seats/seat-service.js';
import type { Storage } from './storage/database.js';

/** The domain services, built once over one storage; routes reach them through `app.services`. */
export interface Services {
  config: Config;
  storage: Storage;
  apps: AppService;
  seats: SeatService;
  files: FileService;
}

export function createServices(config: Config, storage: Storage): Services {
  return {
    config,
    storage,
    apps: new AppService(storage),
    seats: new SeatService(storage),
    files: new FileService(storage),
  };
}
