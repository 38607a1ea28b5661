import { Document, Packer, Paragraph, TextRun } from 'docx';
import type { Page } from 'playwright-core';
import pptxgen from 'pptxgenjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { png } from '../attachments/images.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { pdfFixture } from '../support/pdf-fixtures.js';
import { startService, type TestService } from '../support/service.js';
import { xlsxFixture } from '../preview/support.js';
import { browserForThisFile } from './support/browser-per-file.js';

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };

async function docxFixture(): Promise<Buffer> {
  const paragraphs = ['Quarterly preview report', 'Revenue grew in every region.'].map((text) => new Paragraph({ children: [new TextRun(text)] }));
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
}

async function pptxFixture(): Promise<Buffer> {
  const pptx = new (pptxgen as unknown as typeof import('pptxgenjs').default)();
  pptx.layout = 'LAYOUT_16x9';
  pptx.addSlide().addText('Welcome aboard', { x: 1, y: 1, w: 5, h: 1 });
  pptx.addSlide().addText('Second slide text', { x: 0.5, y: 2, w: 4, h: 1 });
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

describe.each(testDatabases().slice(0, 1))('preview viewer in a real browser ($name)', { timeout: 120_000 }, (db) => {
  const browser = browserForThisFile();
  let svc: TestService;
  let page: Page;
  /** what the page reported that it should not: console errors, refused loads, Content-Security-Policy violations */
  const problems: string[] = [];

  beforeAll(async () => {
    svc = await startService(db, { integrator: true, tasks: TASKS });
    const files: Array<[string, string, Buffer]> = [
      ['pdf', 'pdf', pdfFixture(['First page', 'Second page', 'Third page'])],
      ['doc', 'docx', await docxFixture()],
      ['book', 'xlsx', await xlsxFixture()],
      ['deck', 'pptx', await pptxFixture()],
      ['picture', 'png', png(320, 200)],
      ['panorama', 'png', png(3000, 400)],
    ];
    for (const [id, ext, content] of files) {
      svc.integrator.addFile({ id, name: `${id}.${ext}`, type: 'file', ext, content, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
      const created = await svc.call('POST', `/sdk/v2/api/cloud-files/${id}/create`);
      expect(created.status, created.text).toBe(200);
    }
    page = await (await browser().newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP refused ${event.blockedURI} (${event.violatedDirective})`));
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** Opens the viewer of a file as an integrator's page would (signature and token in the query), once built. */
  async function openViewer(fileId: string): Promise<void> {
    const query = new URLSearchParams({ signature: await svc.sign(), token: DEFAULT_USER.token, lang: 'en' });
    await expect
      .poll(
        async () => {
          await page.goto(`${svc.url}/sdk/v2/api/cloud-files/${fileId}/page?${query}`);
          return page.evaluate(() => document.body.dataset.viewer ?? document.title);
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe('ready');
  }

  const counter = () => page.locator('#counter').textContent();
  const zoomLevel = () => page.locator('#zoom-level').textContent();

  it('a pdf: pages drawn by pdf.js as they come into view, page navigation and zoom', async () => {
    await openViewer('pdf');
    await expect.poll(() => page.locator('.pdf-page').count()).toBe(3);
    await expect.poll(() => page.locator('.pdf-page[data-page="1"]').getAttribute('data-rendered')).toBe('true');
    await expect.poll(counter).toBe('1 / 3');
    expect(await page.locator('#previous').isDisabled()).toBe(true);
    // the page was really drawn: the canvas holds the heading's ink, not a blank sheet
    const inked = () =>
      page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('.pdf-page[data-page="1"] canvas');
        const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
        let dark = 0;
        for (let index = 0; pixels && index < pixels.length; index += 4) if (pixels[index]! < 100 && pixels[index + 1]! < 100 && pixels[index + 2]! < 100) dark++;
        return dark;
      });
    await expect.poll(inked).toBeGreaterThan(100);

    await page.locator('#next').click();
    await expect.poll(counter).toBe('2 / 3');
    await expect.poll(() => page.locator('.pdf-page[data-page="2"]').getAttribute('data-rendered')).toBe('true');
    const top = (n: number) => page.locator(`.pdf-page[data-page="${n}"]`).evaluate((element) => element.getBoundingClientRect().top - document.getElementById('stage')!.getBoundingClientRect().top);
    await expect.poll(() => top(2)).toBeLessThan(60);
    await page.keyboard.press('ArrowRight');
    await expect.poll(counter).toBe('3 / 3');
    await expect.poll(() => page.locator('#next').isDisabled()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(counter).toBe('2 / 3');

    const width = () => page.locator('.pdf-page[data-page="2"]').evaluate((element) => element.getBoundingClientRect().width);
    const before = await width();
    await page.locator('#zoom-in').click();
    await expect.poll(zoomLevel).toBe('125%');
    await expect.poll(width).toBeCloseTo(before * 1.25, -1);
    // drawn again at the new size, on the page the reader was on
    await expect.poll(() => page.locator('.pdf-page[data-page="2"]').getAttribute('data-rendered')).toBe('true');
    await expect.poll(() => page.locator('.pdf-page[data-page="2"] canvas').evaluate((canvas: HTMLCanvasElement) => canvas.width)).toBeGreaterThan(before * 1.2);
    await expect.poll(counter).toBe('2 / 3');
    await page.locator('#zoom-out').click();
    await page.locator('#zoom-out').click();
    await expect.poll(zoomLevel).toBe('75%');
    await expect.poll(width).toBeCloseTo(before * 0.75, -1);
    expect(problems).toEqual([]);
  });

  it('a workbook: one centred sheet per page, sized to its grid, with page navigation', async () => {
    await openViewer('book');
    const frame = page.locator('iframe.sheet:not([hidden])');
    await expect.poll(counter).toBe('1 / 2');
    await expect.poll(() => frame.contentFrame().locator('body').textContent()).toContain('North');
    const box = async () => (await frame.boundingBox())!;
    await expect.poll(async () => (await box()).height).toBeGreaterThan(60);
    const { x, width } = await box();
    // centred on the stage with margins, not against its left edge
    expect(x).toBeGreaterThan(100);
    expect(Math.abs(x - (1200 - x - width))).toBeLessThan(20);
    await page.locator('#next').click();
    await expect.poll(counter).toBe('2 / 2');
    await expect.poll(() => frame.contentFrame().locator('body').textContent()).toContain('Rent');
    await expect.poll(() => page.locator('iframe.sheet').count()).toBe(2);
    await expect.poll(() => frame.getAttribute('data-fitted')).toBe('1');
    const before = (await box()).width;
    await page.locator('#zoom-in').click();
    await expect.poll(() => frame.getAttribute('data-fitted')).toBe('1.25');
    expect((await box()).width).toBeCloseTo(before * 1.25, -1);
    expect(problems).toEqual([]);
  });

  it('a document, a presentation and an image are shown from their links', async () => {
    await openViewer('doc');
    await expect.poll(() => page.locator('iframe.sheet').contentFrame().locator('body').textContent()).toContain('Quarterly preview report');
    await openViewer('deck');
    await expect.poll(counter).toBe('1 / 2');
    await expect.poll(() => page.locator('iframe.sheet').contentFrame().locator('body').textContent()).toContain('Welcome aboard');
    await openViewer('picture');
    await expect.poll(() => page.locator('img.sheet').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(320);
    await page.locator('#zoom-in').click();
    await expect.poll(() => page.locator('img.sheet').evaluate((image: HTMLImageElement) => image.getBoundingClientRect().width)).toBe(400);
    // wider than the stage: zoomed out to fit it at first
    await openViewer('panorama');
    await expect.poll(zoomLevel).toBe('38%');
    const shown = await page.locator('img.sheet').boundingBox();
    expect(shown!.width).toBeLessThanOrEqual(1200 - 48);
    expect(shown!.width).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
  });
});
