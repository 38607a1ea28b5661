import type { FormatReader } from '../conversion.js';

/**
 * The module reading each extension the importer reads itself, loaded when a conversion first needs it: a
 * converter thread holds only the parsers of the formats it was given (all of them cost a thread about 60 MiB,
 * docs/PERFORMANCE.md).
 */
const LOADERS: Readonly<Record<string, () => Promise<FormatReader>>> = {
  docx: async () => (await import('./docx.js')).docx,
  md: async () => (await import('./md.js')).md,
  markdown: async () => (await import('./md.js')).md,
  txt: async () => (await import('./txt.js')).txt,
  html: async () => (await import('./html.js')).html,
  htm: async () => (await import('./html.js')).html,
  xlsx: async () => (await import('./xlsx.js')).xlsx,
  xlsm: async () => (await import('./xlsx.js')).xlsx,
  csv: async () => (await import('./csv.js')).csv,
  pptx: async () => (await import('./pptx.js')).pptx,
};

/** The reader of a format (a lower-case extension), or undefined when the importer does not read it. */
export async function formatReader(format: string): Promise<FormatReader | undefined> {
  return Object.hasOwn(LOADERS, format) ? LOADERS[format]!() : undefined;
}
