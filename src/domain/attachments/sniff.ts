/**
 * What an upload really is, read from its first bytes: the client's declared type is never trusted. Only the
 * four raster formats browsers show everywhere are recognised, each with its pixel size from its header.
 * Every read is bounds-checked: any bytes at all give an answer (or `undefined`), never an exception.
 */

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export const IMAGE_TYPES: readonly ImageType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface SniffedImage {
  mimeType: ImageType;
  width: number;
  height: number;
}

/** The image `bytes` hold, with its size; `undefined` when they are none of PNG, JPEG, GIF, WebP or the header is unreadable. */
export function sniffImage(bytes: Uint8Array): SniffedImage | undefined {
  const size = sniffPng(bytes) ?? sniffGif(bytes) ?? sniffWebp(bytes) ?? sniffJpeg(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

/**
 * Whether `bytes` look like SVG (or another XML document, which may be one): refused by image buckets with a
 * message saying why, since an SVG can carry script.
 */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return head.startsWith('<?xml') || (head.startsWith('<') && head.includes('<svg'));
}

function startsWith(bytes: Uint8Array, at: number, expected: readonly number[] | string): boolean {
  const codes = typeof expected === 'string' ? [...expected].map((c) => c.charCodeAt(0)) : expected;
  if (bytes.length < at + codes.length) return false;
  return codes.every((code, index) => bytes[at + index] === code);
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!);
}

function u32le(bytes: Uint8Array, at: number): number {
  return (u16le(bytes, at) + u16le(bytes, at + 2) * 0x10000) >>> 0;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG: the signature, then the IHDR chunk (length, "IHDR", width and height as 32-bit big-endian). */
function sniffPng(bytes: Uint8Array): SniffedImage | undefined {
  if (!startsWith(bytes, 0, PNG_SIGNATURE) || !startsWith(bytes, 12, 'IHDR') || bytes.length < 24) return undefined;
  return { mimeType: 'image/png', width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** GIF: "GIF87a" or "GIF89a", then the logical screen's width and height as 16-bit little-endian. */
function sniffGif(bytes: Uint8Array): SniffedImage | undefined {
  if (!(startsWith(bytes, 0, 'GIF87a') || startsWith(bytes, 0, 'GIF89a')) || bytes.length < 10) return undefined;
  return { mimeType: 'image/gif', width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

/** WebP: a RIFF container of form "WEBP" whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function sniffWebp(bytes: Uint8Array): SniffedImage | undefined {
  if (!startsWith(bytes, 0, 'RIFF') || !startsWith(bytes, 8, 'WEBP')) return undefined;
  const image = (width: number, height: number): SniffedImage => ({ mimeType: 'image/webp', width, height });
  if (startsWith(bytes, 12, 'VP8 ')) {
    // frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height (2 scale bits above each)
    if (!startsWith(bytes, 23, [0x9d, 0x01, 0x2a]) || bytes.length < 30) return undefined;
    return image(u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff);
  }
  if (startsWith(bytes, 12, 'VP8L')) {
    // signature 0x2f, then width - 1 and height - 1 in 14 bits each, least significant bits first
    if (bytes[20] !== 0x2f || bytes.length < 25) return undefined;
    const bits = u32le(bytes, 21);
    return image((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (startsWith(bytes, 12, 'VP8X')) {
    // flags (4 bytes), then canvas width - 1 and height - 1 in 24 bits each, little-endian
    if (bytes.length < 30) return undefined;
    return image(u24le(bytes, 24) + 1, u24le(bytes, 27) + 1);
  }
  return undefined;
}

/** JPEG markers of a start-of-frame segment (SOF0-SOF15 but DHT c4, JPG c8 and DAC cc): they carry the size. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * JPEG: FF D8 FF, then segments (FF, marker, 16-bit length including itself) up to the first start of frame,
 * which holds precision (1 byte), height and width (16-bit big-endian). Scanning stops at the start of scan.
 */
function sniffJpeg(bytes: Uint8Array): SniffedImage | undefined {
  if (!startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return undefined;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    while (at < bytes.length && bytes[at] === 0xff) at++; // fill bytes
    if (at >= bytes.length) return undefined;
    const marker = bytes[at]!;
    at++;
    // Markers without a length: TEM, RST0-7, SOI; EOI or SOS before a frame means there is no size to read.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    if (marker === 0xd9 || marker === 0xda || at + 2 > bytes.length) return undefined;
    const length = u16be(bytes, at);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (length < 7 || at + 7 > bytes.length) return undefined;
      return { mimeType: 'image/jpeg', height: u16be(bytes, at + 3), width: u16be(bytes, at + 5) };
    }
    at += length;
  }
  return undefined;
}
