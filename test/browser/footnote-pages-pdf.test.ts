import fs from 'node:fs';
import { getDocumentProxy } from 'unpdf';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { DEFAULT_PAGE_SETUP, writePageSetup } from '../../src/model/rich-text/page-setup.js';
import type { ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { browserForThisFile } from './support/browser-per-file.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { author, createFile, exportFile, paragraph, text, writeRichText } from '../export/support.js';

/**
 * Footnotes at the bottom of their page in the pdf (src/domain/export/render/footnote-pages.ts), read two ways: the
 * pdf's text with its positions (pdf.js in Node), and the pdf drawn as an image by the preview viewer (pdf.js in a
 * real browser, as a user sees it), whose pixels must show the notes' rule and text low on their page and the
 * header at the top.
 */

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };
const NOTES = { 2: 'Note one: the 2025 ledger.', 9: 'Note two: audited figures.', 20: 'Note three: the northern region.' } as const;

/** 24 paragraphs of two lines (about 16 fill an A4 page), notes on paragraphs 2 and 9 (page 1) and 20 (page 2). */
function report(): ProseMirrorNode[] {
  return Array.from({ length: 24 }, (_, index) => {
    const number = index + 1;
    const note = NOTES[number as keyof typeof NOTES];
    const body = text(`Paragraph ${number} of the quarterly report, long enough to fill a line of the printed page and a bit more.`);
    return note ? paragraph(body, { type: 'footnote', attrs: { note } }) : paragraph(body);
  });
}

interface PlacedText {
  page: number;
  /** from the top of the page, as a fraction of its height */
  top: number;
}

/** Where each piece of text stands in the pdf: its page (from 1) and how far down it is. */
async function textPositions(bytes: Uint8Array): Promise<Array<PlacedText & { text: string }>> {
  const pdf = await getDocumentProxy(bytes);
  const placed: Array<PlacedText & { text: string }> = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const height = page.getViewport({ scale: 1 }).height;
    for (const item of (await page.getTextContent()).items) {
      if ('str' in item && item.str.trim()) placed.push({ page: number, top: 1 - item.transform[5] / height, text: item.str });
    }
  }
  return placed;
}

function find(placed: Array<PlacedText & { text: string }>, fragment: string): PlacedText {
  const found = placed.find((item) => item.text.includes(fragment));
  if (!found) throw new Error(`"${fragment}" is not in the pdf`);
  return found;
}

describe('footnotes at the bottom of their page in the pdf', { timeout: 240_000 }, () => {
  const browser = browserForThisFile();
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true, tasks: TASKS });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it.each(['document', 'documentPro'] as const)('%s: each of 3 notes on its reference page, under the text, none at the end', async (type) => {
    const fileId = `notes-${type}`;
    await createFile(svc, fileId, type, `${fileId}.${type === 'document' ? 'doc' : 'docx'}`);
    await writeRichText(svc, fileId, report());
    await svc.services.content.change(svc.app.id, fileId, author, (doc) => writePageSetup(doc, { ...DEFAULT_PAGE_SETUP, header: { left: 'Acme quarterly', center: '', right: '' } }));
    const { bytes } = await exportFile(svc, fileId, 'pdf');
    const placed = await textPositions(new Uint8Array(bytes));
    const pages = Math.max(...placed.map((item) => item.page));
    expect(pages).toBe(2);
    const notes = Object.entries(NOTES).map(([paragraphNumber, note]) => ({ reference: find(placed, `Paragraph ${paragraphNumber} of`), note: find(placed, note.slice(0, 12)) }));
    for (const { reference, note } of notes) {
      expect(note.page).toBe(reference.page);
      // the notes stand in the lower part of the page, under every line of text on it
      expect(note.top).toBeGreaterThan(0.6);
      const lowestText = Math.max(...placed.filter((item) => item.page === note.page && item.text.startsWith('Paragraph')).map((item) => item.top));
      expect(note.top).toBeGreaterThan(lowestText);
    }
    expect(notes.map(({ note }) => note.page)).toEqual([1, 1, 2]);

    if (type === 'documentPro') await looksRight(bytes, placed);
  });

  /**
   * The pdf as the preview viewer draws it (pdf.js on a canvas): on each page the notes' rule (a long light grey
   * line) stands between the text and the notes, the note's own pixels are where its text is, and the header's ink
   * is at the top. Page 1 is kept as docs/images/footnotes-pdf-page.png.
   */
  async function looksRight(bytes: Buffer, placed: Array<PlacedText & { text: string }>): Promise<void> {
    svc.integrator.addFile({ id: 'notes-pdf', name: 'notes.pdf', type: 'file', ext: 'pdf', content: bytes, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
    const created = await svc.call('POST', '/sdk/v2/api/cloud-files/notes-pdf/create');
    expect(created.status, created.text).toBe(200);
    const context = await browser().newContext({ viewport: { width: 1000, height: 1400 } });
    try {
      const page = await context.newPage();
      const query = new URLSearchParams({ signature: await svc.sign(), token: DEFAULT_USER.token, lang: 'en' });
      await expect
        .poll(
          async () => {
            await page.goto(`${svc.url}/sdk/v2/api/cloud-files/notes-pdf/page?${query}`);
            return page.evaluate(() => document.body.dataset.viewer ?? document.title);
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe('ready');
      for (const number of [1, 2]) {
        const slot = page.locator(`.pdf-page[data-page="${number}"]`);
        await slot.scrollIntoViewIfNeeded();
        await expect.poll(() => slot.getAttribute('data-rendered')).toBe('true');
        const rows = await inkRows(page, number);
        const height = rows.length;
        const noteTop = Math.min(...placed.filter((item) => item.page === number && item.text.includes('Note ')).map((item) => item.top));
        const lowestText = Math.max(...placed.filter((item) => item.page === number && item.text.startsWith('Paragraph')).map((item) => item.top));
        // the rule: a row of light grey across much of the width, between the last line of text and the first note
        const rule = rows.findIndex((row, index) => index > lowestText * height && row.grey > 0.3);
        expect(rule, `page ${number}: no rule above the notes`).toBeGreaterThan(lowestText * height);
        expect(rule).toBeLessThan(noteTop * height);
        expect(rule / height).toBeGreaterThan(0.6);
        // the note's text is drawn where the pdf says it is: dark pixels in the rows just above its baseline
        const noteRows = rows.slice(Math.floor(noteTop * height - 12), Math.ceil(noteTop * height));
        expect(noteRows.some((row) => row.dark > 0.01)).toBe(true);
        // the header (grey text): ink in the top margin, above the text, below the paper's blank edge
        const ink = (row: { dark: number; grey: number }) => row.dark + row.grey > 0.01;
        expect(rows.slice(0, Math.round(height * 0.03)).some(ink)).toBe(false);
        expect(rows.slice(Math.round(height * 0.03), Math.round(height * 0.08)).some(ink)).toBe(true);
        if (number === 1) {
          const png = await slot.locator('canvas').evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL('image/png'));
          fs.writeFileSync('docs/images/footnotes-pdf-page.png', Buffer.from(png.slice(png.indexOf(',') + 1), 'base64'));
        }
      }
    } finally {
      await context.close();
    }
  }
});

/** Per pixel row of a drawn pdf page: the share of its pixels that are dark (text) and light grey (a rule). */
function inkRows(page: Page, number: number): Promise<Array<{ dark: number; grey: number }>> {
  return page.evaluate((pageNumber) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`.pdf-page[data-page="${pageNumber}"] canvas`)!;
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const rows: Array<{ dark: number; grey: number }> = [];
    for (let y = 0; y < canvas.height; y++) {
      let dark = 0;
      let grey = 0;
      for (let x = 0; x < canvas.width; x++) {
        const index = (y * canvas.width + x) * 4;
        const [red, green, blue] = [pixels[index]!, pixels[index + 1]!, pixels[index + 2]!];
        if (red < 110 && green < 110 && blue < 110) dark++;
        else if (red < 235 && Math.abs(red - green) < 24 && Math.abs(green - blue) < 24) grey++;
      }
      rows.push({ dark: dark / canvas.width, grey: grey / canvas.width });
    }
    return rows;
  }, number);
}
