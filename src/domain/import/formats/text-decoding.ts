import { ConversionError } from '../conversion.js';

/** UTF-8 text of a file (a BOM dropped); UTF-16 with its BOM too. Other encodings are refused rather than garbled. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ConversionError('importCorrupt', 'the file is not UTF-8 text');
  }
}
