import type { Config } from './config.js';
import { AppService } from './domain/apps/app-service.js';
import { FileService } from './domain/files/file-service.js';
import { SeatService } from './domain/seats/seat-service.js';
import { ContentService } from './domain/content/content-service.js';
import type { Storage } from './storage/database.js';

/** The domain services, built once over one storage; routes reach them through `app.services`. */
export interface Services {
  config: Config;
  storage: Storage;
  apps: AppService;
  seats: SeatService;
  files: FileService;
  /** collaborative content: live Yjs documents shared by editors and the backend API (docs/CONTENT-MODEL.md) */
  content: ContentService;
}

export function createServices(config: Config, storage: Storage): Services {
  const files = new FileService(storage);
  return {
    config,
    storage,
    apps: new AppService(storage),
    seats: new SeatService(storage),
    files,
    content: new ContentService(storage, files, config.content),
  };
}
