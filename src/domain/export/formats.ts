import type { FileType } from '../../model/file-types.js';

/** Every `type` the export call names (contract notes 3). */
export const EXPORT_TYPES = ['docx', 'md', 'pdf', 'jpg', 'xlsx', 'csv', 'pptx', 'wps'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export function isExportType(value: unknown): value is ExportType {
  return typeof value === 'string' && (EXPORT_TYPES as readonly string[]).includes(value);
}

/** What each file kind exports to (docs/IMPORT-EXPORT.md "Export"). */
export const EXPORTS_BY_KIND: Readonly<Record<FileType, readonly ExportType[]>> = {
  document: ['docx', 'md', 'pdf', 'jpg', 'wps'],
  documentPro: ['docx', 'md', 'pdf', 'jpg', 'wps'],
  spreadsheet: ['xlsx', 'csv', 'pdf'],
  presentation: ['pptx', 'pdf', 'jpg'],
  table: ['xlsx'],
};

export const MIME_TYPES: Readonly<Record<ExportType, string>> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  md: 'text/markdown; charset=utf-8',
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  wps: 'application/vnd.ms-works',
};
