import { ApiError, Errors } from '../../errors.js';
import type { Storage } from '../../storage/database.js';
import type { AppChange, AppChanges } from '../../apps/app-changes.js';
import type { FileService } from '../files/file-service.js';

/** The event types an integrator may report (docs/PUSH-AND-EVENTS.md "Reported events"). */
export const REPORTED_EVENT_TYPES = ['file.renamed', 'file.permissionChanged', 'user.updated', 'file.deleted'] as const;
export type ReportedEventType = (typeof REPORTED_EVENT_TYPES)[number];
/** Most events one report may carry. */
export const MAX_REPORTED_EVENTS = 100;
/** Longest name of a renamed file. */
export const MAX_FILE_NAME_CHARS = 255;

export interface ReportedEvent {
  type: string;
  fileId?: string | undefined;
  userId?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

/** A user as the integrator answers them now (name and avatar), or null when it does not know them. */
export type FreshUser = (userId: string) => Promise<{ id: string; name: string; avatar: string } | null>;

/** One checked event: the change every process is told, and the file it deletes if any. */
interface Checked {
  change: AppChange;
  deletes?: string | undefined;
}

function isReportedType(type: string): type is ReportedEventType {
  return (REPORTED_EVENT_TYPES as readonly string[]).includes(type);
}

function missing(index: number, field: string, why: string): ApiError {
  return new ApiError(Errors.reportEventFieldMissing, `events[${index}] ${why}`, { index, field });
}

/**
 * What the integrator reports changed on its side (a file renamed, deleted, its permissions; a user's name),
 * acted on at once by every process through AppChanges. All events are checked before any is applied; the
 * deletions commit in one transaction; then each change is announced, in the report's order.
 */
export class ReportedEvents {
  constructor(
    private readonly storage: Storage,
    private readonly files: FileService,
    private readonly changes: AppChanges,
  ) {}

  async report(appId: string, events: ReportedEvent[], freshUser: FreshUser): Promise<{ applied: number }> {
    if (events.length > MAX_REPORTED_EVENTS) {
      throw new ApiError(Errors.reportTooManyEvents, `${events.length} events reported; at most ${MAX_REPORTED_EVENTS} per call (none applied)`, {
        limit: MAX_REPORTED_EVENTS,
      });
    }
    const checked = events.map((event, index) => this.check(appId, event, index));
    await this.assertFilesExist(appId, events);
    // every event is valid: from here on nothing refuses, so the report applies as a whole
    const deleted = checked.flatMap((entry) => (entry.deletes ? [entry.deletes] : []));
    if (deleted.length > 0) {
      await this.storage.db.transaction().execute(async (trx) => {
        for (const fileId of new Set(deleted)) await this.files.delete(appId, fileId, trx);
      });
    }
    for (const { change } of checked) {
      if (change.kind === 'user') change.user = await freshUser(change.userId).catch(() => null);
      await this.changes.publish(change);
    }
    return { applied: events.length };
  }

  private check(appId: string, event: ReportedEvent, index: number): Checked {
    const { type, fileId, userId, data } = event;
    if (!isReportedType(type)) {
      throw new ApiError(Errors.reportUnknownEventType, `events[${index}].type ${JSON.stringify(type)} is none of ${REPORTED_EVENT_TYPES.join(', ')}`, { index });
    }
    if (type === 'user.updated') {
      if (!userId) throw missing(index, 'userId', 'user.updated needs the userId of the user who changed');
      return { change: { kind: 'user', appId, userId, user: null } };
    }
    if (!fileId) throw missing(index, 'fileId', `${type} needs the fileId of the file it concerns`);
    switch (type) {
      case 'file.renamed': {
        const name = data?.name;
        if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_FILE_NAME_CHARS) {
          throw missing(index, 'data.name', `file.renamed needs data.name, the new name (1-${MAX_FILE_NAME_CHARS} characters)`);
        }
        return { change: { kind: 'file', appId, fileId, change: { type: 'renamed', name } } };
      }
      case 'file.permissionChanged':
        return { change: { kind: 'permissions', appId, fileIds: [fileId], userIds: userId ? [userId] : [] } };
      case 'file.deleted':
        return { change: { kind: 'file', appId, fileId, change: { type: 'deleted' } }, deletes: fileId };
    }
  }

  /** Every file an event names belongs to this app (another app's file is as unknown as one never created). */
  private async assertFilesExist(appId: string, events: ReportedEvent[]): Promise<void> {
    const named = [...new Set(events.flatMap((event) => (event.type !== 'user.updated' && event.fileId ? [event.fileId] : [])))];
    if (named.length === 0) return;
    const rows = await this.storage.db.selectFrom('files').select('file_id').where('app_id', '=', appId).where('file_id', 'in', named).execute();
    const known = new Set(rows.map((row) => row.file_id));
    const index = events.findIndex((event) => event.type !== 'user.updated' && event.fileId !== undefined && !known.has(event.fileId));
    if (index >= 0) throw new ApiError(Errors.fileNotFound, `events[${index}]: file ${events[index]!.fileId} not found (none applied)`, { index, fileId: events[index]!.fileId });
  }
}
