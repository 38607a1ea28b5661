import type { FileType } from '../../model/file-types.js';
import { TARGETS_OF_SHAPE } from './build-output.js';
import type { ReadContent } from './conversion.js';

/** What each importable extension reads into (formats/*.ts read them; keep the two in step). */
export const FORMAT_SHAPES: Readonly<Record<string, ReadContent['shape']>> = {
  docx: 'richText',
  md: 'richText',
  markdown: 'richText',
  txt: 'richText',
  html: 'richText',
  htm: 'richText',
  xlsx: 'workbook',
  xlsm: 'workbook',
  csv: 'workbook',
  pptx: 'slides',
};

/** Legacy binary formats: LibreOffice converts them to the Office Open XML format named here first. */
export const LEGACY_FORMATS: Readonly<Record<string, 'docx' | 'xlsx' | 'pptx'>> = { doc: 'docx', wps: 'docx', xls: 'xlsx', ppt: 'pptx' };

/** The lower-case extension of a file name, without the dot; '' when it has none. */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The file types a format can become ([] when the format is unknown). */
export function targetsOf(format: string): readonly FileType[] {
  const shape = FORMAT_SHAPES[LEGACY_FORMATS[format] ?? format];
  return shape ? TARGETS_OF_SHAPE[shape] : [];
}
