import type { TaskHandler } from '../../tasks/task-engine.js';
import type { ExportService } from './export-service.js';
import { isExportType, type ExportType } from './formats.js';

/** The export task (docs/TASKS.md): makes the file, then keeps it behind a download link as the task succeeds. */

export const EXPORT_TASK = 'export';
/** platform-api.md 8: an export normally runs up to 10 minutes. */
export const EXPORT_MAX_RUN_MS = 10 * 60_000;

/** What the export route submits. */
export interface ExportTaskInput extends Record<string, unknown> {
  type: ExportType;
  /** the file's name (from the integrator), for the download's file name */
  title: string;
  /** the exporting user's watermark lines (empty: none); tasks queued before watermarks existed have none */
  watermark?: string[];
}

function inputOf(raw: Record<string, unknown>): ExportTaskInput {
  if (!isExportType(raw.type) || typeof raw.title !== 'string') throw new Error('malformed export task input');
  const watermark = Array.isArray(raw.watermark) ? raw.watermark.filter((line): line is string => typeof line === 'string') : [];
  return { type: raw.type, title: raw.title, watermark };
}

export function exportTaskHandler(exports: ExportService): TaskHandler {
  return {
    kind: EXPORT_TASK,
    maxRunMs: EXPORT_MAX_RUN_MS,
    async run(context) {
      const { task, signal } = context;
      const input = inputOf(context.input);
      const started = task.startedAt ?? Date.now();
      const file = await exports.produce(task.appId, task.fileId, input.type, input.title, {
        signal,
        deadlineMs: EXPORT_MAX_RUN_MS - (Date.now() - started),
        progress: (percent) => void context.progress(percent).catch(() => undefined),
      }, input.watermark);
      const kept = exports.plan(file);
      return {
        result: kept,
        commit: (trx) => exports.keep(trx, { appId: task.appId, fileId: task.fileId, taskId: task.id }, file, kept),
      };
    },
  };
}
