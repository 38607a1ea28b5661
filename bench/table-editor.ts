/**
 * Table editor benchmark (issue 13): `npm run bench -- table-editor [rows] [runs]` (default 100000 rows, 5 runs).
 *
 * Starts the service as its own process (embedded SQLite) with the reference integrator, fills a table of
 * the `tables` benchmark's 10 mixed columns with `rows` rows through the table API, then opens the table
 * editor in headless Chromium through the SDK from an integrator page on another origin, `runs` times,
 * each in a fresh browser context (no cache):
 *   - first paint: from loading the integrator's page (which imports the SDK and calls `connect()`) until the
 *     first row's cells show their values;
 *   - jump: from scrolling to the middle of the table until the rows there show their values;
 *   - row-window answers (5 each) in creation order, sorted and filtered.
 * Target (issue 13): first paint under 1.5 s.
 */
import os from 'node:os';
import { launchBrowser } from '../test/browser/support/browser.js';
import { openInHost, startHostPage } from '../test/browser/support/host-page.js';
import ensureBrowserBuild from '../test/support/browser-build.js';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { percentile, startBenchService } from './_service.js';
import { COLUMNS, rowValues } from './tables.js';

const API = '/sdk/v2/api/table-api/openapi/v1';
const APP_ID = 'bench';
const SECRET = 'bench-secret-bench-secret-bench-secret';
const TOKEN = 'bench-token';
const BASE = 'bench-base';
const ROWS_PER_REQUEST = 2000;

function summary(label: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${label}: median ${percentile(sorted, 50).toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (${values.map((v) => v.toFixed(0)).join(', ')})`;
}

export default async function tableEditorBench(args: string[]): Promise<void> {
  const totalRows = Number(args[0] ?? 100_000);
  const runs = Number(args[1] ?? 5);
  ensureBrowserBuild();
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: BASE, type: 'table', name: 'Bench base', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url });
  const host = await startHostPage(service.url);
  const browser = await launchBrowser();
  try {
    const headers = { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN, 'content-type': 'application/json' };
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${service.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await response.json()) as { data: { guid: string; columns: { guid: string; name: string }[] } };
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    await call('POST', '/sdk/v2/api/files', { type: 'table', fileId: BASE });
    const table = await call('POST', `${API}/tables`, { baseGuid: BASE, name: 'Bench', withoutInitRows: true, cols: COLUMNS });
    const fillStart = performance.now();
    for (let start = 0; start < totalRows; start += ROWS_PER_REQUEST) {
      const count = Math.min(ROWS_PER_REQUEST, totalRows - start);
      await call('POST', `${API}/tables/${table.guid}/rows`, { rows: Array.from({ length: count }, (_, k) => rowValues(start + k)) });
    }
    console.log(`table of ${totalRows} rows × ${COLUMNS.length} columns filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);

    const firstPaint: number[] = [];
    const jump: number[] = [];
    const middle = Math.floor(totalRows / 2);
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const frame = page.frameLocator('iframe');
      const started = performance.now();
      const opened = openInHost(page, host.url, { fileId: BASE, token: TOKEN, signature: service.signature, lang: 'en' });
      const firstCell = frame.locator('[role=row][aria-rowindex="2"] [role=gridcell][aria-colindex="2"]', { hasText: 'Item 0' });
      await firstCell.waitFor({ timeout: 30_000 });
      firstPaint.push(performance.now() - started);
      const result = await opened;
      if (!result.ok) throw new Error(`the editor did not open: ${JSON.stringify(result)}`);
      const jumpStart = performance.now();
      await frame.locator('.svc-grid-viewport').evaluate((viewport, row) => {
        viewport.scrollTop = row * 32;
      }, middle);
      await frame.locator(`[role=gridcell][aria-colindex="2"]`, { hasText: new RegExp(`^Item ${middle}$`) }).waitFor({ timeout: 30_000 });
      jump.push(performance.now() - jumpStart);
      if (run === 0) await page.screenshot({ path: '/tmp/table-editor-bench.png' });
      await context.close();
    }
    console.log(summary(`first paint, ${totalRows} rows`, firstPaint));
    console.log(summary(`jump to row ${middle + 1}`, jump));
    // what a sorted or filtered view costs the server: every row is read once per window
    const columnGuid = (name: string) => table.columns.find((column) => column.name === name)!.guid;
    const views: [string, Record<string, string>][] = [
      ['creation order, start 50000', { start: String(middle) }],
      ['sorted by Amount desc, start 50000', { start: String(middle), sortColumn: columnGuid('Amount'), sortOrder: 'desc' }],
      ['filtered Name contains "99"', { filterColumn: columnGuid('Name'), filterValue: '99' }],
    ];
    for (const [label, query] of views) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const began = performance.now();
        await call('GET', `${API}/tables/${table.guid}/row-window?${new URLSearchParams({ count: '100', ...query })}`);
        times.push(performance.now() - began);
      }
      console.log(summary(`row-window, ${label}`, times));
    }
    console.log(`load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);
  } finally {
    await browser.close();
    await host.close();
    await service.close();
    await integrator.close();
  }
}
