import type { Selectable } from 'kysely';
import type { RequestAuth } from '../../auth/request-auth.js';
import { ApiError, Errors } from '../../errors.js';
import type { AccessService } from '../../integrator/access-service.js';
import type { Storage } from '../../storage/database.js';
import type { BehaviorHistoriesTable } from '../../storage/schema.js';
import type { FileService } from '../files/file-service.js';

/** doc-sidebar-info `historyType` of behavior history, beside edits (1-3) and comment activity (4). */
export const BEHAVIOR_HISTORY_TYPE = 5;

/** What the integrator tells about something that happened to a file outside the editor. */
export interface BehaviorHistoryInput {
  userId: string;
  action: string;
  content?: string | undefined;
  /** epoch milliseconds; default: now */
  createdAt?: number | undefined;
}

/** One behavior history entry as the API answers it. */
export interface BehaviorHistoryEntry {
  id: string;
  fileId: string;
  userId: string;
  /** the user's name, as the integrator answered it when the entry was written */
  name: string;
  action: string;
  content: string;
  createdAt: string;
}

export interface BehaviorHistoryPage {
  histories: BehaviorHistoryEntry[];
  isLastPage: boolean;
  total: number;
}

function toEntry(row: Selectable<BehaviorHistoriesTable>): BehaviorHistoryEntry {
  return {
    id: row.id,
    fileId: row.file_id,
    userId: row.user_id,
    name: row.user_name,
    action: row.action,
    content: row.content,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

/**
 * Behavior history (docs/BEHAVIOR-HISTORY.md): entries the integrator writes about a file of its app (shared,
 * approved, archived, …). Every call names the file in the caller's app: another app's file is not found
 * (70013), another file's entry is not found (125001). The user's name is asked of the integrator when the
 * entry is written, so the history keeps the name it had then, as the edit history does.
 */
export class BehaviorHistoryService {
  constructor(
    private readonly storage: Storage,
    private readonly files: FileService,
    private readonly access: AccessService,
  ) {}

  async add(auth: RequestAuth, fileId: string, input: BehaviorHistoryInput): Promise<BehaviorHistoryEntry> {
    await this.files.get(auth.app.id, fileId);
    const user = (await this.access.usersById(auth, [input.userId])).get(input.userId);
    if (!user) {
      throw new ApiError(Errors.behaviorHistoryUserUnknown, `user ${input.userId} is not known to the integrator (POST /users/batch/get did not answer it)`, { userId: input.userId });
    }
    const now = Date.now();
    const row: Selectable<BehaviorHistoriesTable> = {
      id: crypto.randomUUID(),
      app_id: auth.app.id,
      file_id: fileId,
      user_id: user.id,
      user_name: user.name,
      action: input.action,
      content: input.content ?? '',
      created_at: input.createdAt ?? now,
      recorded_at: now,
    };
    await this.storage.db.insertInto('behavior_histories').values(row).execute();
    return toEntry(row);
  }

  /** Newest first (by `createdAt`), `pageSize` entries of page `page` (1-based). */
  async list(appId: string, fileId: string, page: { page: number; pageSize: number }): Promise<BehaviorHistoryPage> {
    await this.files.get(appId, fileId);
    const { db } = this.storage;
    const [rows, counted] = await Promise.all([
      db
        .selectFrom('behavior_histories')
        .selectAll()
        .where('app_id', '=', appId)
        .where('file_id', '=', fileId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.pageSize + 1)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      db
        .selectFrom('behavior_histories')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where('app_id', '=', appId)
        .where('file_id', '=', fileId)
        .executeTakeFirstOrThrow(),
    ]);
    return { histories: rows.slice(0, page.pageSize).map(toEntry), isLastPage: rows.length <= page.pageSize, total: Number(counted.total) };
  }

  async remove(appId: string, fileId: string, id: string): Promise<{ deleted: true }> {
    await this.files.get(appId, fileId);
    const result = await this.storage.db
      .deleteFrom('behavior_histories')
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new ApiError(Errors.behaviorHistoryNotFound, `behavior history entry ${id} not found in file ${fileId}`);
    return { deleted: true };
  }
}
