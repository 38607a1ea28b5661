/**
 * Spreadsheet editor benchmark (issues 13 and 21 point 3): `npm run bench -- spreadsheet [cells] [columns] [runs]
 * [--xlsx] [--trace]` (default 100000 cells as 10,000 rows × 10 columns, 3 runs). Needs the browser build (`npm run
 * build:browser`).
 *
 * Starts the service as its own process (bench/_service.ts) on embedded SQLite and fills the file: by default by
 * writing the cells through the values API (text, numbers, booleans and a formula in every fifth column,
 * bench/sheets.ts) and adding a second sheet `Second` of a tenth of the rows the same way; with `--xlsx` by
 * importing through `files/v2/import` the workbook bench/import-export.ts writes (its sheet `Data` of those cells,
 * 20 % formulas, and a sheet `Second` of a tenth of its rows), as issue 21's million-cell target reads. Then opens
 * the file in headless Chromium through the SDK from an integrator page on another origin, as a user would, each
 * run in a new browser context (nothing cached but the HTTP cache):
 *   1. first paint: from the SDK's connect() call to the first cells on screen: the first screen drawn from the
 *      service while the document syncs (docs/BROWSER.md "First screen"), or the editor's grid when the sync came
 *      first; and apart, the editor mounted (its first frame) and the formulas in view computed;
 *   2. editable: as soon as the editor's grid is there, a value is typed into A1 as a user types it; the time at
 *      which the grid shows it and at which the values API reads it back from the service;
 *   3. the page's weight then: the JavaScript heap after a garbage collection and the elements in the document;
 *   4. scrolling (last run): the grid scrolled from the top to the last row in 100 steps of one animation frame
 *      each (every frame a screen never drawn), then 240 rows from the middle two rows a frame (as a wheel
 *      scrolls), timing the frames (dropped frames: the 16.7 ms frames a longer one covered past its own) and
 *      counting the cells in the DOM (only what is in view is drawn);
 *   5. a second tab: a new context in which the tab `Second` is clicked as soon as the first screen shows, before
 *      the sync: the time from the click to its cells on screen; then the editor on that tab and an edit there;
 *   6. for comparison, the time to sync the same document into a Node Yjs client (the floor of 1 without the
 *      first screen).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { columnLetters } from '../src/model/sheets/a1.js';
import { launchBrowser } from '../test/browser/support/browser.js';
import { openInHost, startHostPage, type HostPage } from '../test/browser/support/host-page.js';
import { sheetIn } from '../test/browser/support/sheet-page.js';
import { descendantsOf, percentile, startBenchService, type BenchService } from './_service.js';
import { COMPUTED_MARK, FIRST_SCREEN_MARK, PAINTED_MARK, SYNCED_MARK } from '../web/spreadsheet/marks.js';
import { importWorkbook, IMPORT_SERVICE_ENV, writeWorkbook } from './import-export.js';
import { cellValue, connectEditor } from './sheets.js';

const APP_ID = 'bench-spreadsheet';
const SECRET = 'bench-spreadsheet-secret-bench-spreadsheet';
const TOKEN = 'bench-token';
/** the second sheet's name: the tab clicked on the first screen */
const SECOND = 'Second';
/** a frame at 60 frames per second */
const FRAME_MS = 1000 / 60;

/**
 * Scrolls the grid in `steps` frames, one scroll position per animation frame: `to(i)` is the i-th position as a
 * fraction of the scroll range. Answers the frame times and the most cells in the DOM.
 */
function scrollFrames(page: Page, steps: number, from: number, to: number): Promise<{ frames: number[]; cellsInDom: number }> {
  return page.frameLocator('iframe').locator('.svc-grid-viewport').evaluate(
    async (viewport, { steps, from, to }) => {
      const range = viewport.scrollHeight - viewport.clientHeight;
      viewport.scrollTop = range * from;
      const frames: number[] = [];
      let cellsInDom = 0;
      let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      for (let i = 1; i <= steps; i++) {
        viewport.scrollTop = range * (from + ((to - from) * i) / steps);
        const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        frames.push(now - last);
        last = now;
        cellsInDom = Math.max(cellsInDom, viewport.querySelectorAll('[role=gridcell]').length);
      }
      return { frames, cellsInDom };
    },
    { steps, from, to },
  );
}

/** A line of frame times: percentiles, and the frames a 60 Hz display would have shown that these took. */
function frameLine(frames: readonly number[]): string {
  const sorted = [...frames].sort((a, b) => a - b);
  const late = frames.filter((frame) => frame > FRAME_MS * 1.5).length;
  const dropped = frames.reduce((sum, frame) => sum + Math.max(0, Math.round(frame / FRAME_MS) - 1), 0);
  return `frame p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms; ${late} of ${frames.length} frames over one 16.7 ms frame, ${dropped} frames dropped`;
}

/** Trace events (Chrome's JSON trace format) the breakdown below reads. */
interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Where the renderer's main thread spent a traced span, milliseconds by event name (the style, layout, paint and
 * script events Chrome's Performance panel shows; nested events counted in their parents too), and the
 * compositor's raster.
 */
function traceBreakdown(trace: Buffer): string {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const threadName = new Map(events.filter((event) => event.ph === 'M' && event.name === 'thread_name').map((event) => [`${event.pid}:${event.tid}`, event.args?.name ?? '']));
  const shown = ['RunTask', 'FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'HitTest', 'MinorGC', 'MajorGC', 'RasterTask'];
  const totals = new Map<string, number>();
  for (const event of events) {
    if (event.ph !== 'X' || event.dur === undefined || !shown.includes(event.name)) continue;
    const thread = threadName.get(`${event.pid}:${event.tid}`) ?? '';
    if (event.name !== 'RasterTask' && thread !== 'CrRendererMain') continue;
    totals.set(event.name, (totals.get(event.name) ?? 0) + event.dur / 1000);
  }
  return shown.filter((name) => totals.has(name)).map((name) => `${name} ${totals.get(name)!.toFixed(0)} ms`).join(', ');
}

/** A CPU profile's nodes (CDP `Profiler.Profile`), as far as the summary below reads them. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions that took the most samples of a CPU profile (self time), with their share of the samples. */
function profileTop(nodes: readonly ProfileNode[], count: number): string {
  const samples = new Map<string, number>();
  let total = 0;
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url ? `${url.split('/').pop()}:${lineNumber + 1}` : ''}`.trim();
    samples.set(name, (samples.get(name) ?? 0) + hits);
  }
  return [...samples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => `${name} ${((100 * hits) / Math.max(1, total)).toFixed(1)} %`)
    .join('; ');
}

/** The page's marks (marks.ts) on the machine's clock once `until` of them are there, in ms after `start`. */
async function marksAfter(page: Page, start: number, until: readonly string[]): Promise<Record<string, number | undefined>> {
  const names = [FIRST_SCREEN_MARK, SYNCED_MARK, PAINTED_MARK, COMPUTED_MARK];
  const times = await page.frameLocator('iframe').locator('body').evaluate(
    async (_body, { names, until }) => {
      // no named function in here: the bench's transpiler would wrap it in a helper the page lacks
      for (;;) {
        const times = names.map((name) => {
          const mark = performance.getEntriesByName(name)[0];
          return mark ? performance.timeOrigin + mark.startTime : undefined;
        });
        if (until.every((name) => times[names.indexOf(name)] !== undefined)) return times;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    { names, until: [...until] },
  );
  return Object.fromEntries(names.map((name, i) => [name, times[i] === undefined || times[i] === null ? undefined : times[i] - start]));
}

/**
 * Types `text` into A1 of the sheet shown as soon as the editor's grid is there (not the read-only first screen),
 * as a user does; answers when the grid showed it and when the service's values API read it back, in ms after `start`.
 */
async function editAsSoonAsEditable(page: Page, service: BenchService, fileId: string, sheetName: string, text: string, start: number): Promise<{ shown: number; stored: number }> {
  const sheet = sheetIn(page);
  await sheet.frame.locator('.svc-sheet:not(.svc-sheet-first-screen) .svc-grid-viewport').waitFor({ timeout: 120_000 });
  await sheet.type('A1', text);
  await sheet.cell(0, 0).filter({ hasText: text }).waitFor({ timeout: 120_000 });
  const shown = Date.now() - start;
  const range = encodeURIComponent(`${sheetName}!A1`);
  for (;;) {
    const answer = (await (
      await fetch(`${service.url}/sdk/v2/api/files/${fileId}/sheets/values?range=${range}`, { headers: { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN } })
    ).json()) as { data: { values: unknown[][] } | null };
    if (answer.data?.values[0]?.[0] === text) return { shown, stored: Date.now() - start };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The editor page's memory after a garbage collection: the JavaScript heap (V8's used heap, Blink's objects and
 * array buffers, from the renderer's isolate: the host page and the editor's frame share one renderer, as the
 * browser runs without site isolation) and the renderer processes' resident memory, which also holds what the heap
 * figures leave out (strings Blink made, such as the text TextDecoder gives the Yjs decoder, are external to V8's
 * heap); and the elements in the editor's document.
 */
async function pageWeight(page: Page): Promise<{ heapMiB: number; rendererMiB: number; elements: number }> {
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  if (!frame) throw new Error('the editor has no frame');
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.enable');
  await session.send('HeapProfiler.collectGarbage');
  const heap = await session.send('Runtime.getHeapUsage');
  await session.detach();
  const elements = await frame.evaluate(() => document.getElementsByTagName('*').length);
  return { heapMiB: (heap.usedSize + heap.embedderHeapUsedSize + heap.backingStorageSize) / 1024 / 1024, rendererMiB: rendererResidentMiB(), elements };
}

/** Resident memory of this process's Chromium renderers (descendants started with --type=renderer), MiB. */
function rendererResidentMiB(): number {
  let kib = 0;
  for (const pid of descendantsOf(process.pid)) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      kib += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kib / 1024;
}

function ms(value: number | undefined): string {
  return value === undefined ? '—' : `${value.toFixed(0)} ms`;
}

interface OpenFigures {
  firstPaint: number;
  firstScreen: number | undefined;
  synced: number;
  painted: number;
  computed: number;
  editable: { shown: number; stored: number };
}

/** Opens the file in a new context of `host`; `pickTab` clicks that sheet's tab on the first screen before the sync. */
async function openEditor(
  setup: { browser: Awaited<ReturnType<typeof launchBrowser>>; host: HostPage; service: BenchService; fileId: string },
  edit: { sheetName: string; text: string },
  pickTab?: string,
): Promise<{ page: Page; close(): Promise<void>; figures: OpenFigures; tab?: { clickedAt: number; shownAt: number; onFirstScreen: boolean } }> {
  const context = await setup.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(setup.host.url);
  await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
  const start = Date.now();
  // connect() resolves once the editor is ready: not awaited, so that the first screen can be used meanwhile
  const opening = openInHost(page, setup.host.url, { fileId: setup.fileId, token: TOKEN, signature: setup.service.signature, lang: 'en' });
  let tab: { clickedAt: number; shownAt: number; onFirstScreen: boolean } | undefined;
  if (pickTab) {
    const frame = page.frameLocator('iframe');
    // whichever comes first: the first screen's tabs or the editor's
    const tabButton = frame.locator('.svc-sheet [role=tab]', { hasText: pickTab });
    await tabButton.waitFor({ timeout: 120_000 });
    const onFirstScreen = (await frame.locator('.svc-sheet-first-screen').count()) > 0;
    const clickedAt = Date.now() - start;
    await tabButton.click();
    await frame.locator(`.svc-sheet:not([aria-busy=true]) [role=grid][aria-label*="${pickTab}"] [role=gridcell]`, { hasText: 'Item 1-0' }).first().waitFor({ timeout: 120_000 });
    tab = { clickedAt, shownAt: Date.now() - start, onFirstScreen };
  }
  const editable = await editAsSoonAsEditable(page, setup.service, setup.fileId, edit.sheetName, edit.text, start);
  const opened = await opening;
  if (!opened.ok) throw new Error(`the editor did not open: ${opened.code} ${opened.message}`);
  const marks = await marksAfter(page, start, [PAINTED_MARK, COMPUTED_MARK]);
  const firstScreen = marks[FIRST_SCREEN_MARK];
  const painted = marks[PAINTED_MARK]!;
  return {
    page,
    close: () => context.close(),
    figures: { firstPaint: Math.min(firstScreen ?? Infinity, painted), firstScreen, synced: marks[SYNCED_MARK]!, painted, computed: marks[COMPUTED_MARK]!, editable },
    tab,
  };
}

export default async function spreadsheetBench(args: string[]): Promise<void> {
  const fromXlsx = args.includes('--xlsx');
  const traced = args.includes('--trace');
  const [cellsArgument, columnsArgument, runsArgument] = args.filter((argument) => !argument.startsWith('--'));
  const cells = Number(cellsArgument ?? 100_000);
  const columns = Number(columnsArgument ?? 10);
  const runs = Number(runsArgument ?? 3);
  const rows = Math.ceil(cells / columns);
  const secondRows = Math.max(1, Math.ceil(rows / 10));
  const sheetName = fromXlsx ? 'Data' : 'Sheet1';
  const fileId = `bench-spreadsheet-${Date.now()}`;
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: fileId, type: 'spreadsheet', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url, env: fromXlsx ? IMPORT_SERVICE_ENV : {} });
  const browser = await launchBrowser();
  const host = await startHostPage(service.url);
  try {
    if (fromXlsx) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-spreadsheet-'));
      const file = path.join(dir, 'big.xlsx');
      await writeWorkbook(file, rows, columns, { moreSheets: [{ name: SECOND, rows: secondRows }] });
      const seconds = await importWorkbook(service, TOKEN, fileId, fs.readFileSync(file));
      fs.rmSync(dir, { recursive: true, force: true });
      console.log(`imported an xlsx of ${rows} rows × ${columns} columns (sheet Data) and ${secondRows} rows (sheet ${SECOND}) in ${seconds.toFixed(1)} s`);
    } else {
      const call = async (method: string, route: string, body: unknown) => {
        const response = await fetch(`${service.url}${route}`, {
          method,
          headers: { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${(await response.text()).slice(0, 500)}`);
      };
      await call('POST', '/sdk/v2/api/files', { type: 'spreadsheet', fileId });
      await call('POST', `/sdk/v2/api/files/${fileId}/sheets`, { name: SECOND });
      for (const [name, count] of [[sheetName, rows], [SECOND, secondRows]] as const) {
        const values = Array.from({ length: count }, (_, r) => Array.from({ length: columns }, (_, c) => (c === 0 ? `Item ${r + 1}-0` : cellValue(r, c, 0))));
        await call('POST', `/sdk/v2/api/files/${fileId}/sheets/values`, { range: `${name}!A1:${columnLetters(columns - 1)}${count}`, resource: { values } });
      }
      console.log(`spreadsheet of ${rows} rows × ${columns} columns = ${rows * columns} cells (${Math.floor(columns / 5) * rows} formulas), and ${secondRows} rows on sheet ${SECOND}`);
    }
    const setup = { browser, host, service, fileId };

    const paints: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const { page, close, figures } = await openEditor(setup, { sheetName, text: `edited ${run}` });
      paints.push(figures.firstPaint);
      const { heapMiB, rendererMiB, elements } = await pageWeight(page);
      console.log(
        `run ${run}: first paint ${ms(figures.firstPaint)} after connect() (${figures.firstScreen === undefined ? 'no first screen: the editor came first' : 'the first screen'}), ` +
          `document synced at ${ms(figures.synced)}, editor painted at ${ms(figures.painted)}, formulas in view computed at ${ms(figures.computed)}; ` +
          `editable: an edit of A1 typed as soon as the editor's grid was there shown at ${ms(figures.editable.shown)}, read back from the service at ${ms(figures.editable.stored)}; ` +
          `page then: JS heap ${heapMiB.toFixed(1)} MiB after GC, renderer RSS ${rendererMiB.toFixed(0)} MiB, ${elements} elements`,
      );
      if (run === runs) {
        // a jump of a thousand rows per frame (every frame a screen never drawn), then as a wheel scrolls: two rows
        // per frame from the middle of the sheet
        // --trace: a Chrome trace and a CPU profile of the jumps (their frames are slower for it)
        const profiler = traced ? await page.context().newCDPSession(page) : undefined;
        if (profiler) {
          await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
          await profiler.send('Profiler.enable');
          await profiler.send('Profiler.start');
        }
        const jumps = await scrollFrames(page, 100, 0, 1);
        console.log(`scroll top → row ${rows} in 100 frames: ${frameLine(jumps.frames)}; at most ${jumps.cellsInDom} cells in the DOM`);
        if (profiler) {
          const { profile } = await profiler.send('Profiler.stop');
          const trace = await browser.stopTracing();
          const traceFile = path.join(os.tmpdir(), `svc-bench-spreadsheet-jumps-${Date.now()}.trace.json`);
          fs.writeFileSync(traceFile, trace);
          console.log(`  traced, the 100 jumps' main thread: ${traceBreakdown(trace)} (the trace: ${traceFile}, for Chrome's DevTools)`);
          const profileFile = path.join(os.tmpdir(), `svc-bench-spreadsheet-jumps-${Date.now()}.cpuprofile`);
          fs.writeFileSync(profileFile, JSON.stringify(profile));
          console.log(`  profiled, the most samples: ${profileTop(profile.nodes, 25)} (the profile: ${profileFile}, for Chrome's DevTools)`);
          await profiler.detach();
        }
        // the scroll range is about the rows' height (24 px each, no row heights of their own in this workbook)
        const smooth = await scrollFrames(page, 120, 0.5, 0.5 + 240 / rows);
        console.log(`scroll 240 rows from row ${Math.round(rows / 2)} in 120 frames (2 rows a frame): ${frameLine(smooth.frames)}; at most ${smooth.cellsInDom} cells in the DOM`);
      }
      await close();
    }
    const second = await openEditor(setup, { sheetName: SECOND, text: 'edited second' }, SECOND);
    const tab = second.tab!;
    console.log(
      `second tab: its tab clicked ${tab.onFirstScreen ? 'on the first screen' : 'in the editor (the editor came first)'} at ${ms(tab.clickedAt)}, its cells shown ${ms(tab.shownAt - tab.clickedAt)} later (${ms(tab.shownAt)} after connect()); ` +
        `document synced at ${ms(second.figures.synced)}, editor painted at ${ms(second.figures.painted)}, an edit of ${SECOND}!A1 shown at ${ms(second.figures.editable.shown)}, read back from the service at ${ms(second.figures.editable.stored)}`,
    );
    await second.close();
    // what the page cannot go faster than without the first screen: the same document synced into a Node client (server load + transfer + Yjs)
    const syncStart = performance.now();
    const client = await connectEditor(service, fileId);
    console.log(`for comparison, the document synced into a Node Yjs client: ${(performance.now() - syncStart).toFixed(0)} ms`);
    client.close();
    const sorted = [...paints].sort((a, b) => a - b);
    console.log(`first paint: median ${percentile(sorted, 50).toFixed(0)} ms, best ${sorted[0]?.toFixed(0)} ms, worst ${sorted.at(-1)?.toFixed(0)} ms (load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')})`);
  } finally {
    await host.close();
    await browser.close();
    await service.close();
    await integrator.close();
  }
}
