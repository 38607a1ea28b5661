/** Kinds of collaborative file (spec 2.2). */
export const FILE_TYPES = ['document', 'documentPro', 'spreadsheet', 'presentation', 'table'] as const;
export type FileType = (typeof FILE_TYPES)[number];

export function isFileType(value: unknown): value is FileType {
  return typeof value === 'string' && (FILE_TYPES as readonly string[]).includes(value);
}
