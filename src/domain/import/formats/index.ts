import type { FormatReader } from '../conversion.js';
import { csv } from './csv.js';
import { docx } from './docx.js';
import { html } from './html.js';
import { md } from './md.js';
import { pptx } from './pptx.js';
import { txt } from './txt.js';
import { xlsx } from './xlsx.js';

/** Every format the importer reads itself, by extension. */
export const FORMAT_READERS: ReadonlyMap<string, FormatReader> = new Map(
  [docx, md, txt, html, xlsx, csv, pptx].flatMap((reader) => reader.extensions.map((extension) => [extension, reader] as const)),
);
