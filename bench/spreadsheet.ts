/**
 * Spreadsheet editor benchmark (issue 13): `npm run bench -- spreadsheet [cells] [columns] [runs]` (default
 * 100000 cells as 10,000 rows × 10 columns, 3 runs). Needs the browser build (`npm run build:browser`).
 *
 * Starts the service as its own process (bench/_service.ts) on embedded SQLite, writes the cells through the
 * values API (text, numbers, booleans and a formula in every fifth column, bench/sheets.ts), then opens the
 * file in headless Chromium through the SDK from an integrator page on another origin, as a user would:
 *   1. first paint: from the SDK's connect() call to the first cells on screen, each run in a new browser
 *      context (nothing cached but the HTTP cache): the first screen drawn from the service while the document
 *      syncs (docs/BROWSER.md "First screen"), or the editor's grid when the sync came first; and apart, the
 *      editor mounted (its first frame) and every formula computed;
 *   2. for comparison, the time to sync the same document into a Node Yjs client (the floor of 1);
 *   3. scrolling: the grid scrolled from the top to the last row in 100 steps of one animation frame each,
 *      timing the frames, and counting the cells in the DOM (only what is in view is drawn).
 */
import type { Page } from 'playwright-core';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { columnLetters } from '../src/model/sheets/a1.js';
import { launchBrowser } from '../test/browser/support/browser.js';
import { openInHost, startHostPage } from '../test/browser/support/host-page.js';
import { percentile, startBenchService } from './_service.js';
import { COMPUTED_MARK, FIRST_SCREEN_MARK, PAINTED_MARK } from '../web/spreadsheet/marks.js';
import { cellValue, connectEditor } from './sheets.js';

const APP_ID = 'bench-spreadsheet';
const SECRET = 'bench-spreadsheet-secret-bench-spreadsheet';
const TOKEN = 'bench-token';

/** Scrolls the grid to the bottom in `steps` frames; answers the frame times and the most cells in the DOM. */
function scrollThrough(page: Page, steps: number): Promise<{ frames: number[]; cellsInDom: number }> {
  return page.frameLocator('iframe').locator('.svc-grid-viewport').evaluate(async (viewport, count) => {
    const frames: number[] = [];
    let cellsInDom = 0;
    let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
    for (let i = 1; i <= count; i++) {
      viewport.scrollTop = ((viewport.scrollHeight - viewport.clientHeight) * i) / count;
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      frames.push(now - last);
      last = now;
      cellsInDom = Math.max(cellsInDom, viewport.querySelectorAll('[role=gridcell]').length);
    }
    return { frames, cellsInDom };
  }, steps);
}

export default async function spreadsheetBench(args: string[]): Promise<void> {
  const cells = Number(args[0] ?? 100_000);
  const columns = Number(args[1] ?? 10);
  const runs = Number(args[2] ?? 3);
  const rows = Math.ceil(cells / columns);
  const fileId = `bench-spreadsheet-${Date.now()}`;
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: fileId, type: 'spreadsheet', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url });
  const browser = await launchBrowser();
  const host = await startHostPage(service.url);
  try {
    const call = async (method: string, route: string, body: unknown) => {
      const response = await fetch(`${service.url}${route}`, {
        method,
        headers: { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${(await response.text()).slice(0, 500)}`);
    };
    await call('POST', '/sdk/v2/api/files', { type: 'spreadsheet', fileId });
    const values = Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => cellValue(r, c, 0)));
    await call('POST', `/sdk/v2/api/files/${fileId}/sheets/values`, { range: `Sheet1!A1:${columnLetters(columns - 1)}${rows}`, resource: { values } });
    console.log(`spreadsheet of ${rows} rows × ${columns} columns = ${rows * columns} cells (${Math.floor(columns / 5) * rows} formulas)`);

    const paints: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(host.url);
      await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
      const start = Date.now();
      const opened = await openInHost(page, host.url, { fileId, token: TOKEN, signature: service.signature, lang: 'en' });
      if (!opened.ok) throw new Error(`the editor did not open: ${opened.code} ${opened.message}`);
      const frame = page.frameLocator('iframe');
      // the page marks its first screen (when drawn), the editor's first painted frame and the end of its first
      // computation of every formula
      const marks = await frame.locator('body').evaluate(async (_body, names) => {
        // no named function in here: the bench's transpiler would wrap it in a helper the page lacks
        for (;;) {
          const [firstScreen, painted, computed] = names.map((name) => {
            const mark = performance.getEntriesByName(name)[0];
            return mark ? performance.timeOrigin + mark.startTime : undefined;
          });
          if (painted !== undefined && computed !== undefined) return { firstScreen, painted, computed };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }, [FIRST_SCREEN_MARK, PAINTED_MARK, COMPUTED_MARK]);
      const editorPainted = marks.painted - start;
      const firstScreen = marks.firstScreen === undefined ? undefined : marks.firstScreen - start;
      const paint = Math.min(firstScreen ?? Infinity, editorPainted);
      paints.push(paint);
      console.log(
        `run ${run}: first paint ${paint.toFixed(0)} ms after connect() (${firstScreen === undefined ? 'no first screen: the editor came first' : 'the first screen'}), ` +
          `editor painted at ${editorPainted.toFixed(0)} ms, every formula computed at ${(marks.computed - start).toFixed(0)} ms`,
      );
      if (run === runs) {
        const { frames, cellsInDom } = await scrollThrough(page, 100);
        const sorted = [...frames].sort((a, b) => a - b);
        console.log(
          `scroll top → row ${rows} in 100 frames: frame p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms; at most ${cellsInDom} cells in the DOM`,
        );
      }
      await context.close();
    }
    // what the page cannot go faster than: the same document synced into a Node client (server load + transfer + Yjs)
    const syncStart = performance.now();
    const client = await connectEditor(service, fileId);
    console.log(`for comparison, the document synced into a Node Yjs client: ${(performance.now() - syncStart).toFixed(0)} ms`);
    client.close();
    const sorted = [...paints].sort((a, b) => a - b);
    console.log(`first paint: median ${percentile(sorted, 50).toFixed(0)} ms, best ${sorted[0]?.toFixed(0)} ms, worst ${sorted.at(-1)?.toFixed(0)} ms`);
  } finally {
    await host.close();
    await browser.close();
    await service.close();
    await integrator.close();
  }
}
