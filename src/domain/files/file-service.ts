import type { Selectable } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { Db, Storage } from '../../storage/database.js';
import type { FilesTable } from '../../storage/schema.js';
import type { App } from '../../apps/app.js';
import type { FileType } from '../../model/file-types.js';

export interface CollabFile {
  fileId: string;
  type: FileType;
  createdAt: string;
  updatedAt: string;
}

export interface CreateFileInput {
  fileId: string;
  type: FileType;
  contentKey?: string | undefined;
  createdBy?: string | undefined;
}

/** fileId: 1-64 characters, none of them white space, control characters (C0, DEL, C1), '/', '\\', '?', '#' or '%'. */
export const FILE_ID_PATTERN = '^[^\\s\\x00-\\x1f\\x7f-\\x9f/\\\\?#%]{1,64}$';

function toFile(row: Pick<Selectable<FilesTable>, 'file_id' | 'type' | 'created_at' | 'updated_at'>): CollabFile {
  return {
    fileId: row.file_id,
    type: row.type as FileType,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * The registry of collaborative files. Every file belongs to one application and is addressed by the
 * integrator's own fileId; queries always carry the appId, so one app can never see another's files.
 */
export class FileService {
  constructor(private readonly storage: Storage) {}

  /** `db`: a transaction when the file must commit together with other writes (a copy and its content). */
  async create(app: App, input: CreateFileInput, db: Db = this.storage.db): Promise<CollabFile> {
    if (!app.availableFileTypes.includes(input.type)) {
      throw new ApiError(
        Errors.fileTypeNotAvailable,
        `file type ${input.type} is not available to this application (available: ${app.availableFileTypes.join(', ') || 'none'})`,
      );
    }
    const now = Date.now();
    const row = {
      app_id: app.id,
      file_id: input.fileId,
      type: input.type,
      content_key: input.contentKey ?? null,
      created_by: input.createdBy ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await db.insertInto('files').values(row).execute();
    } catch (error) {
      if (this.storage.isUniqueViolation(error)) {
        throw new ApiError(Errors.fileExists, `file ${input.fileId} already exists`);
      }
      throw error;
    }
    return toFile(row);
  }

  async find(appId: string, fileId: string): Promise<CollabFile | undefined> {
    const row = await this.storage.db
      .selectFrom('files')
      .selectAll()
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row ? toFile(row) : undefined;
  }

  async get(appId: string, fileId: string): Promise<CollabFile> {
    const file = await this.find(appId, fileId);
    if (!file) throw new ApiError(Errors.fileNotFound, `file ${fileId} not found`);
    return file;
  }

  /**
   * Records one change of the file's content and returns its new version. Call it inside the transaction
   * that writes the change (pass the transaction as `db`), so the version and the change commit together.
   */
  async bumpVersion(db: Db, appId: string, fileId: string): Promise<number> {
    const row = await db
      .updateTable('files')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: Date.now() }))
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .returning('version')
      .executeTakeFirst();
    if (!row) throw new ApiError(Errors.fileNotFound, `file ${fileId} not found`);
    return row.version;
  }

  /** The file's current version, read in `db` (the recording transaction when a history entry keeps it). */
  async versionOf(db: Db, appId: string, fileId: string): Promise<number> {
    const row = await db.selectFrom('files').select('version').where('app_id', '=', appId).where('file_id', '=', fileId).executeTakeFirst();
    if (!row) throw new ApiError(Errors.fileNotFound, `file ${fileId} not found`);
    return row.version;
  }

  /**
   * Removes the file and, through foreign keys, everything stored for it. Deleting twice is not an error.
   * `db`: a transaction when several deletions must commit together (reported `file.deleted` events).
   */
  async delete(appId: string, fileId: string, db: Db = this.storage.db): Promise<{ deleted: boolean }> {
    const result = await db
      .deleteFrom('files')
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return { deleted: result.numDeletedRows > 0n };
  }
}
