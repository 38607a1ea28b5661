import { afterAll, describe, expect, it } from 'vitest';
import { ConversionFailed, ConversionTimedOut } from '../../src/domain/conversion/conversion-errors.js';
import { WorkerPool } from '../../src/domain/conversion/worker-pool.js';
import { CONVERT_WORKER, type ConversionRequest, type ConversionResult } from '../../src/domain/export/convert.js';
import { toHtml } from '../../src/domain/export/converters/html.js';
import { ChromiumRenderer, ImageTooTall, RenderTimeout } from '../../src/domain/export/render/chromium.js';
import { fontFaceCss } from '../../src/domain/export/render/fonts.js';
import type { RichTextSource } from '../../src/domain/export/source.js';
import { startHitCounter } from '../support/hit-counter.js';

/**
 * The limits an export task relies on, below the HTTP API (a real ten-minute run is not a test): a conversion
 * past its deadline or aborted ends its worker, a render past its deadline kills the browser and the next
 * render gets a new one, a page too tall for an image is refused.
 */

const source = (paragraphs: number): RichTextSource => ({
  kind: 'richText',
  title: 't',
  images: {},
  blocks: Array.from({ length: paragraphs }, (_, index) => ({ type: 'paragraph', content: [{ type: 'text', text: `Paragraph ${index} 段落` }] })),
});
const noProgress = { step: () => undefined };

describe('export limits', { timeout: 120_000 }, () => {
  const runner = new WorkerPool<ConversionRequest, ConversionResult>(CONVERT_WORKER, { memoryMb: 256 });
  const renderer = new ChromiumRenderer({ executablePath: process.env.CHROMIUM_PATH });
  afterAll(async () => {
    await runner.close();
    await renderer.kill();
  });

  it('a conversion past its deadline fails with ConversionTimedOut; an aborted one with the abort reason; the runner still works', async () => {
    await expect(runner.run({ op: 'file', target: 'docx', source: source(20_000) }, { signal: new AbortController().signal, deadlineMs: 1 })).rejects.toBeInstanceOf(ConversionTimedOut);
    const controller = new AbortController();
    const aborted = runner.run({ op: 'file', target: 'docx', source: source(20_000) }, { signal: controller.signal, deadlineMs: 60_000 });
    const reason = new Error('task timed out');
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    const fractions: number[] = [];
    const done = await runner.run({ op: 'file', target: 'md', source: source(300) }, { signal: new AbortController().signal, deadlineMs: 60_000, onProgress: (fraction) => fractions.push(fraction) });
    expect(done.op).toBe('file');
    expect(fractions.length).toBeGreaterThan(10);
    expect(fractions.at(-1)).toBe(1);
  });

  it('a conversion that throws fails with its message', async () => {
    const mismatched = runner.run({ op: 'file', target: 'xlsx', source: source(1) }, { signal: new AbortController().signal, deadlineMs: 60_000 });
    await expect(mismatched).rejects.toBeInstanceOf(ConversionFailed);
    await expect(mismatched).rejects.toThrow('a richText source cannot be written as xlsx');
  });

  it('a render past its deadline kills the browser; the next render launches a new one', async () => {
    const page = toHtml(source(50), noProgress, fontFaceCss());
    await expect(renderer.pdf(page, 1)).rejects.toBeInstanceOf(RenderTimeout);
    const { bytes: pdf } = await renderer.pdf(page, 60_000);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  });

  it('every request of the rendered page is intercepted: an outside address gets no connection, the refusal is counted', async () => {
    const outside = await startHitCounter();
    try {
      // no Content-Security-Policy here: the renderer's interception alone must hold
      const html = `<!doctype html><html><body><p>x</p><img src="${outside.origin}/pixel.png"><link rel="stylesheet" href="${outside.origin}/style.css"></body></html>`;
      const pdf = await renderer.pdf({ html, page: { format: 'A4', margin: 0, imageWidth: 800 } }, 60_000);
      expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      expect(pdf.refusedRequests).toBe(2);
      const jpg = await renderer.jpg({ html, page: { format: 'A4', margin: 0, imageWidth: 800 } }, 60_000);
      expect(jpg.refusedRequests).toBe(2);
      expect(outside.connections()).toBe(0);
    } finally {
      await outside.close();
    }
  });

  it('a page taller than an image may be is refused for jpg', async () => {
    await expect(renderer.jpg(toHtml(source(1500), noProgress, fontFaceCss()), 60_000)).rejects.toBeInstanceOf(ImageTooTall);
  });
});
