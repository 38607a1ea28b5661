import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * Image bytes for the tests: a complete, valid PNG (decodable by any viewer), and header-correct GIF, JPEG and
 * WebP files of any size, which is all the sniffer reads. `tail` is appended as the rest of the file.
 */

function u32be(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value >>> 0);
  return buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), body, u32be(zlib.crc32(body))]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A real RGB PNG of `width` × `height` pixels in one colour. */
export function png(width: number, height: number, colour: [number, number, number] = [200, 30, 60]): Buffer {
  const header = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => colour).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A real RGB PNG whose left half is one colour and right half another (what a crop keeps shows in a render). */
export function halvesPng(width: number, height: number, left: [number, number, number], right: [number, number, number]): Buffer {
  const header = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, (_, x) => (x < width / 2 ? left : right)).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A real RGB PNG of random pixels: it does not compress, so the file is about width × height × 3 bytes. */
export function noisyPng(width: number, height: number): Buffer {
  const header = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  const rows = Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), crypto.randomBytes(width * 3)]));
  const pixels = zlib.deflateSync(Buffer.concat(rows), { level: 1 });
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A PNG header (signature and IHDR) of any declared size, followed by `tail`. */
export function pngHeader(width: number, height: number, tail: Uint8Array = new Uint8Array()): Buffer {
  const header = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0])]);
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), tail]);
}

export function gif(width: number, height: number, tail: Uint8Array = new Uint8Array(), version: '87a' | '89a' = '89a'): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  return Buffer.concat([Buffer.from(`GIF${version}`, 'latin1'), screen, tail]);
}

/**
 * A JPEG: SOI, the given segments before the frame (e.g. APP0/JFIF, EXIF, comments), a baseline or progressive
 * start of frame with the size, then `tail`.
 */
export function jpeg(width: number, height: number, options: { before?: Buffer[]; progressive?: boolean; tail?: Uint8Array } = {}): Buffer {
  const frame = Buffer.alloc(2 + 2 + 6 + 3);
  frame[0] = 0xff;
  frame[1] = options.progressive ? 0xc2 : 0xc0;
  frame.writeUInt16BE(2 + 6 + 3, 2); // length: itself, precision, height, width, one component (3 bytes)
  frame[4] = 8;
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  frame[9] = 1;
  frame.set([1, 0x11, 0], 10);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), ...(options.before ?? [jpegSegment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'))]), frame, options.tail ?? Buffer.alloc(0)]);
}

/** A JPEG marker segment: FF, marker, length (2 + data), data. */
export function jpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

function riff(chunk: Buffer, tail: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), chunk, tail]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, body]);
}

/** Lossy WebP (VP8 key frame header): 14-bit width and height, 1 to 16383. */
export function webpLossy(width: number, height: number, tail: Uint8Array = new Uint8Array()): Buffer {
  const data = Buffer.alloc(10);
  data.set([0x9d, 0x01, 0x2a], 3); // after the 3-byte frame tag
  data.writeUInt16LE(width & 0x3fff, 6);
  data.writeUInt16LE(height & 0x3fff, 8);
  const header = Buffer.concat([Buffer.from('VP8 ', 'latin1'), Buffer.alloc(4), data]);
  return riff(header, tail);
}

/** Lossless WebP (VP8L): 14-bit width - 1 and height - 1, 1 to 16384. */
export function webpLossless(width: number, height: number, tail: Uint8Array = new Uint8Array()): Buffer {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const data = Buffer.alloc(5);
  data[0] = 0x2f;
  data.writeUInt32LE(bits >>> 0, 1);
  return riff(Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.alloc(4), data]), tail);
}

/** Extended WebP (VP8X): 24-bit canvas width - 1 and height - 1, 1 to 16777216. */
export function webpExtended(width: number, height: number, tail: Uint8Array = new Uint8Array()): Buffer {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riff(Buffer.concat([Buffer.from('VP8X', 'latin1'), Buffer.alloc(4), data]), tail);
}

export const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
