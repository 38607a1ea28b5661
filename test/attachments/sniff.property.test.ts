import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayName, MAX_FILENAME_LENGTH } from '../../src/domain/attachments/filename.js';
import { looksLikeSvg, sniffImage } from '../../src/domain/attachments/sniff.js';
import { contentDisposition } from '../../src/http/content-disposition.js';
import { gif, jpeg, jpegSegment, png, pngHeader, SVG, webpExtended, webpLossless, webpLossy } from './images.js';

const bytes = fc.uint8Array({ maxLength: 300 });
const side16 = fc.integer({ min: 1, max: 0xffff });
const side14 = fc.integer({ min: 1, max: 0x3fff });
const MAGICS = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [...Buffer.from('GIF89a')],
  [...Buffer.from('RIFF\0\0\0\0WEBPVP8 ')],
  [...Buffer.from('RIFF\0\0\0\0WEBPVP8L')],
  [...Buffer.from('RIFF\0\0\0\0WEBPVP8X')],
];

describe('sniffing images from their bytes', () => {
  it('never throws on arbitrary bytes, nor on a real magic followed by garbage (truncated, lying headers)', () => {
    fc.assert(
      fc.property(bytes, fc.constantFrom(...MAGICS), fc.boolean(), (rest, magic, prefixed) => {
        const input = prefixed ? Uint8Array.from([...magic, ...rest]) : rest;
        const sniffed = sniffImage(input);
        if (sniffed) {
          expect(sniffed.width).toBeGreaterThan(0);
          expect(sniffed.height).toBeGreaterThan(0);
        }
        expect(typeof looksLikeSvg(input)).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('every prefix of a valid header is either recognised with the right size or not at all', () => {
    fc.assert(
      fc.property(side16, side16, fc.nat(40), (width, height, cut) => {
        for (const full of [pngHeader(width, height), gif(width, height), jpeg(width, height)]) {
          const sniffed = sniffImage(full.subarray(0, Math.max(0, full.length - cut)));
          if (sniffed) expect([sniffed.width, sniffed.height]).toEqual([width, height]);
        }
      }),
    );
  });

  it('recognises generated PNG, GIF, JPEG and WebP headers with their pixel size, whatever follows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), bytes, (width, height, tail) => {
        expect(sniffImage(pngHeader(width, height, tail))).toEqual({ mimeType: 'image/png', width, height });
      }),
    );
    fc.assert(
      fc.property(side16, side16, bytes, fc.constantFrom('87a' as const, '89a' as const), (width, height, tail, version) => {
        expect(sniffImage(gif(width, height, tail, version))).toEqual({ mimeType: 'image/gif', width, height });
      }),
    );
    const segment = fc.tuple(fc.integer({ min: 0xe0, max: 0xfe }), fc.uint8Array({ maxLength: 200 })).map(([marker, data]) => jpegSegment(marker, Buffer.from(data)));
    fc.assert(
      fc.property(side16, side16, fc.array(segment, { maxLength: 4 }), fc.boolean(), bytes, (width, height, before, progressive, tail) => {
        expect(sniffImage(jpeg(width, height, { before, progressive, tail }))).toEqual({ mimeType: 'image/jpeg', width, height });
      }),
    );
    fc.assert(
      fc.property(side14, side14, bytes, (width, height, tail) => {
        expect(sniffImage(webpLossy(width, height, tail))).toEqual({ mimeType: 'image/webp', width, height });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x4000 }), fc.integer({ min: 1, max: 0x4000 }), bytes, (width, height, tail) => {
        expect(sniffImage(webpLossless(width, height, tail))).toEqual({ mimeType: 'image/webp', width, height });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x1000000 }), fc.integer({ min: 1, max: 0x1000000 }), bytes, (width, height, tail) => {
        expect(sniffImage(webpExtended(width, height, tail))).toEqual({ mimeType: 'image/webp', width, height });
      }),
    );
  });

  it('a real PNG, and what is not a recognised image', () => {
    expect(sniffImage(png(3, 2))).toEqual({ mimeType: 'image/png', width: 3, height: 2 });
    expect(sniffImage(pngHeader(0, 5))).toBeUndefined(); // zero pixels: not an image we serve
    expect(sniffImage(SVG)).toBeUndefined();
    expect(sniffImage(Buffer.from('%PDF-1.7\n'))).toBeUndefined();
    expect(sniffImage(Buffer.from('BM'))).toBeUndefined(); // BMP is not accepted
    expect(sniffImage(new Uint8Array())).toBeUndefined();
    // JPEG whose scan starts before any frame, or that ends early: no size, so not recognised
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeUndefined();
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0]))).toBeUndefined();
  });

  it('SVG is told apart (with or without prolog, BOM, comments), other text is not SVG', () => {
    expect(looksLikeSvg(SVG)).toBe(true);
    expect(looksLikeSvg(Buffer.from('\uFEFF  <svg viewBox="0 0 1 1"/>'))).toBe(true);
    expect(looksLikeSvg(Buffer.from('<!-- made by hand --><svg/>'))).toBe(true);
    expect(looksLikeSvg(Buffer.from('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"><svg/>'))).toBe(true);
    expect(looksLikeSvg(Buffer.from('hello, world'))).toBe(false);
    expect(looksLikeSvg(png(1, 1))).toBe(false);
  });
});

describe('display names of uploads', () => {
  it('keep the last path segment, without control or format characters, never empty, never a path', () => {
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('C:\\Users\\me\\photo.png')).toBe('photo.png');
    expect(displayName('a\u0000b\u001fc\u007f\u0085.png')).toBe('abc.png');
    expect(displayName('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
    expect(displayName('..')).toBe('file');
    expect(displayName('/')).toBe('file');
    expect(displayName('  .hidden  ')).toBe('hidden');
    expect(displayName('报告 2024.png')).toBe('报告 2024.png');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        const name = displayName(raw);
        expect(name.length).toBeGreaterThan(0);
        expect(Array.from(name).length).toBeLessThanOrEqual(MAX_FILENAME_LENGTH);
        expect(name).not.toMatch(/[/\\\p{Cc}\p{Cf}\p{Cs}]/u);
        expect(name.startsWith('.')).toBe(false);
        expect(displayName(name)).toBe(name);
      }),
    );
  });

  it('Content-Disposition: quoted ASCII fallback and the exact UTF-8 name in RFC 5987 form', () => {
    expect(contentDisposition('attachment', '报告 "final".pdf')).toBe(
      `attachment; filename="__ _final_.pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%22final%22.pdf`,
    );
    expect(contentDisposition('inline', "it's (1).png")).toBe(`inline; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`);
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (raw) => {
        const header = contentDisposition('attachment', displayName(raw));
        expect(header).toMatch(/^[\x20-\x7e]+$/);
        const match = /filename\*=UTF-8''(.*)$/.exec(header);
        expect(decodeURIComponent(match![1]!)).toBe(displayName(raw));
      }),
    );
  });
});
