/**
 * Spreadsheet values API benchmark (issue 6): `npm run bench -- sheets [cells] [columns]` (default 100000
 * cells as 1000 rows × 100 columns). With DATABASE_URL=postgres://… the server runs on that PostgreSQL
 * database, otherwise on embedded SQLite in a temporary folder.
 *
 * Starts the service as its own process (bench/_service.ts) with the reference integrator answering its
 * callbacks, then through real HTTP, one request at a time:
 *   1. write: POST sheets/values with the whole range (numbers, text, booleans, formulas);
 *   2. read: GET sheets/values of the same range, three times, no editor connected (each read loads the
 *      document from storage);
 *   3. rewrite: the same POST again (idempotent: nothing changes, nothing is stored);
 *   4. with one editor connected (the document is live in the server): three reads and one write of new
 *      values, the editor seeing the write;
 *   5. formulas: a sheet "Chain" with A1 = 1 and 10,000 formulas A(n) = A(n-1)+1 below it; after the
 *      editor left, change A1 (POST) and read the chain's last cell (GET: the cached document applies the
 *      change and recomputes the chain), five times;
 * timing each request end to end and reading the server's resident memory (current, peak) from /proc.
 * Then, in this process, the formula engine alone: recompute after one change at the head of the chain; and the
 * write's floor: writeValues against bare Yjs setting as many map entries.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { columnLetters, parseA1 } from '../src/model/sheets/a1.js';
import { axisKey } from '../src/model/sheets/axis.js';
import { initialContent } from '../src/model/content.js';
import { formulaRelative } from '../src/model/sheets/formulas/relative.js';
import { writeValues } from '../src/domain/sheets/workbook.js';
import { Workbook, type CellInput } from '../src/model/sheets/formulas/index.js';
import { startBenchService, type BenchService } from './_service.js';

const APP_ID = 'bench-sheets';
const SECRET = 'bench-sheets-secret-bench-sheets-secret';
const TOKEN = 'bench-token';

/** The benchmark sheets' cell at (row, column): text, numbers, booleans and a formula in every fifth column. */
export function cellValue(row: number, column: number, round: number): string | number | boolean {
  switch (column % 5) {
    case 0:
      return `Item ${row}-${column}`;
    case 1:
      return row * 1.5 + column + round;
    case 2:
      return row % 2 === 0;
    case 3:
      return `=${columnLetters(column - 2)}${row + 1}*2`;
    default:
      return row * column;
  }
}

/** Formulas depending on one another in a chain: A1 = 1, A(n) = A(n-1)+1. */
const CHAIN = 10_000;

function chainColumn(head: number): CellInput[][] {
  return [[head], ...Array.from({ length: CHAIN }, (_, row) => [`=A${row + 1}+1`])];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The engine alone, in this process: build the chain, then time recomputes after one change at its head. */
function engineRecompute(): void {
  const cells = chainColumn(1).map((line, row) => [row, 0, line[0] ?? null] as const);
  let start = performance.now();
  const workbook = new Workbook([{ id: 'chain', name: 'Chain', cells }]);
  // the engine computes a formula when it is read (docs/FORMULAS.md): read the chain's end, as a view showing it would
  if (workbook.value('chain', CHAIN, 0) !== 1 + CHAIN) throw new Error('the chain did not compute');
  const build = performance.now() - start;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let round = 2; round <= 11; round++) {
    start = performance.now();
    const cpu = process.cpuUsage();
    const changed = workbook.setCell('chain', 0, 0, round);
    const used = process.cpuUsage(cpu);
    times.push(performance.now() - start);
    cpuTimes.push((used.user + used.system) / 1000);
    if (changed.length !== CHAIN + 1 || workbook.value('chain', CHAIN, 0) !== round + CHAIN) throw new Error('the chain did not recompute');
  }
  console.log(
    `engine alone: build and first read of the ${CHAIN}-formula chain ${build.toFixed(0)} ms; recompute after one change: median ${median(times).toFixed(1)} ms ` +
      `(CPU ${median(cpuTimes).toFixed(1)} ms), max ${Math.max(...times).toFixed(1)} ms (10 runs)`,
  );
}

/**
 * The write's floor, in this process: one fresh spreadsheet written through the values API's domain function
 * (writeValues: checks, the sheet model, one transaction, its update encoded), against bare Yjs setting the same
 * number of map entries (keys and cells of the grid model's form) in one transaction and encoding its update; five
 * rounds each, alternated, medians of CPU time.
 */
function writeFloor(rows: number, columns: number): void {
  const range = parseA1(`Sheet1!A1:${columnLetters(columns - 1)}${rows}`);
  const values = Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => cellValue(r, c, 0)));
  const cpuOf = (run: (doc: Y.Doc) => void) => {
    const doc = new Y.Doc();
    Y.applyUpdate(doc, initialContent('spreadsheet'));
    let encoded = 0;
    doc.on('update', (update: Uint8Array) => (encoded = update.byteLength));
    const before = process.cpuUsage();
    doc.transact(() => run(doc));
    const used = process.cpuUsage(before);
    if (encoded === 0) throw new Error('nothing written');
    return (used.user + used.system) / 1000;
  };
  const api: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < 5; round++) {
    api.push(cpuOf((doc) => writeValues(doc, range, values)));
    bare.push(
      cpuOf((doc) => {
        const grid = doc.getMap('bench-grid');
        for (let r = 0; r < rows; r++) {
          const rowKey = axisKey(doc.clientID, r);
          for (let c = 0; c < columns; c++) {
            const value = values[r]![c]!;
            grid.set(`${rowKey}/${axisKey(doc.clientID, rows + c)}`, typeof value === 'string' && value.startsWith('=') ? { f: formulaRelative(value, r, c) } : { v: value });
          }
        }
      }),
    );
  }
  console.log(
    `write floor, in process (CPU, median of 5): writeValues ${median(api).toFixed(0)} ms, bare Yjs setting the same ${rows * columns} map entries ${median(bare).toFixed(0)} ms ` +
      `(ratio ${(median(api) / median(bare)).toFixed(2)}; each with its update encoded)`,
  );
}

function memory(service: BenchService): string {
  const { rssMiB, peakMiB } = service.memory();
  return `server RSS ${rssMiB} MiB (peak ${peakMiB} MiB)`;
}

/** A collaboration client on the file (as the user bench-token), in sync, as a browser editor would be. */
export async function connectEditor(service: BenchService, fileId: string): Promise<{ doc: Y.Doc; close(): void }> {
  const query = `signature=${service.signature}&token=${TOKEN}`;
  const socket = new HocuspocusProviderWebsocket({ url: `${service.url.replace('http', 'ws')}/sdk/v2/collab-files/${fileId}/collaboration?${query}`, WebSocketPolyfill: WebSocket });
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: fileId, document: doc });
  provider.attach();
  await new Promise<void>((resolve) => provider.on('synced', () => resolve()));
  return {
    doc,
    close() {
      provider.destroy();
      socket.destroy();
    },
  };
}

export default async function sheetsBench(args: string[]): Promise<void> {
  const cells = Number(args[0] ?? 100_000);
  const columns = Number(args[1] ?? 100);
  const rows = Math.ceil(cells / columns);
  const range = `Sheet1!A1:${columnLetters(columns - 1)}${rows}`;
  const databaseUrl = process.env.DATABASE_URL ?? '';
  // a new file each run: a PostgreSQL database outlives the run
  const fileId = `bench-spreadsheet-${Date.now()}`;
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: fileId, type: 'spreadsheet', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url, env: { DATABASE_URL: databaseUrl } });
  try {
    const credentials = { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN };
    const timed = async (method: string, route: string, body?: string) => {
      const start = performance.now();
      const cpuBefore = service.cpuSeconds();
      const headers = body === undefined ? credentials : { ...credentials, 'content-type': 'application/json' };
      const response = await fetch(`${service.url}${route}`, { method, headers, body });
      const text = await response.text();
      const elapsed = performance.now() - start;
      // the server's CPU time for the request (10 ms ticks): far less dependent on the machine's load than wall time
      const cpuMs = (service.cpuSeconds() - cpuBefore) * 1000;
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 500)}`);
      return { elapsed, cpuMs, text, data: (JSON.parse(text) as { data: Record<string, unknown> }).data };
    };
    await timed('POST', '/sdk/v2/api/files', JSON.stringify({ type: 'spreadsheet', fileId }));
    const valuesPath = `/sdk/v2/api/files/${fileId}/sheets/values`;
    // Bodies are built before the clock starts: the client's JSON work is not the server's.
    const bodyOf = (round: number) =>
      JSON.stringify({ range, resource: { values: Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => cellValue(r, c, round))) } });
    const body = bodyOf(0);
    const readAll = async (label: string) => {
      const read = await timed('GET', `${valuesPath}?range=${encodeURIComponent(range)}`);
      const answered = (read.data.values as unknown[][]).reduce((sum, row) => sum + row.length, 0);
      if (answered !== rows * columns) throw new Error(`read answered ${answered} cells, expected ${rows * columns}`);
      console.log(`${label} (GET, answer ${(read.text.length / 1024 / 1024).toFixed(2)} MiB): ${read.elapsed.toFixed(0)} ms, server CPU ${read.cpuMs.toFixed(0)} ms; ${memory(service)}`);
    };

    console.log(`database: ${databaseUrl ? 'PostgreSQL' : 'SQLite'}; range ${range}: ${rows} rows × ${columns} columns = ${rows * columns} cells`);
    console.log(`idle: ${memory(service)}`);
    const write = await timed('POST', valuesPath, body);
    console.log(`write (POST, body ${(body.length / 1024 / 1024).toFixed(2)} MiB): ${write.elapsed.toFixed(0)} ms, server CPU ${write.cpuMs.toFixed(0)} ms, ${write.data.updatedCells} cells; ${memory(service)}`);
    for (let i = 1; i <= 3; i++) await readAll(`read ${i}, no editor`);
    const rewrite = await timed('POST', valuesPath, body);
    console.log(`rewrite of the same values (POST, changes nothing): ${rewrite.elapsed.toFixed(0)} ms, server CPU ${rewrite.cpuMs.toFixed(0)} ms; ${memory(service)}`);

    const editor = await connectEditor(service, fileId);
    try {
      for (let i = 1; i <= 3; i++) await readAll(`read ${i}, editor connected`);
      const changed = bodyOf(1);
      const seen = new Promise<void>((resolve) => editor.doc.on('update', () => resolve()));
      const live = await timed('POST', valuesPath, changed);
      const start = performance.now();
      await seen;
      console.log(
        `write of new values, editor connected (POST): ${live.elapsed.toFixed(0)} ms, server CPU ${live.cpuMs.toFixed(0)} ms, editor updated ${(performance.now() - start).toFixed(0)} ms after the answer; ${memory(service)}`,
      );
    } finally {
      editor.close();
    }
    // editors gone: the file is read without a live document again (the first read after them loads it)
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reads: number[] = [];
    const readCpu: number[] = [];
    for (let i = 0; i < 5; i++) {
      const read = await timed('GET', `${valuesPath}?range=${encodeURIComponent(range)}`);
      reads.push(read.elapsed);
      readCpu.push(read.cpuMs);
    }
    console.log(
      `read after the editor left, 5 times: ${reads.map((ms) => ms.toFixed(0)).join(' / ')} ms (median ${median(reads).toFixed(0)}), ` +
        `server CPU ${readCpu.map((ms) => ms.toFixed(0)).join(' / ')} ms; ${memory(service)}`,
    );

    await timed('POST', `/sdk/v2/api/files/${fileId}/sheets`, JSON.stringify({ name: 'Chain' }));
    const chain = await timed('POST', valuesPath, JSON.stringify({ range: `Chain!A1:A${CHAIN + 1}`, resource: { values: chainColumn(1) } }));
    const last = `${valuesPath}?range=${encodeURIComponent(`Chain!A${CHAIN + 1}`)}`;
    const first = await timed('GET', last);
    console.log(`chain of ${CHAIN} formulas: write ${chain.elapsed.toFixed(0)} ms; first read of its last cell ${first.elapsed.toFixed(0)} ms`);
    const writes: number[] = [];
    const recomputedReads: number[] = [];
    const recomputeCpu: number[] = [];
    for (let round = 2; round <= 6; round++) {
      writes.push((await timed('POST', valuesPath, JSON.stringify({ range: 'Chain!A1', resource: { values: [[round]] } }))).elapsed);
      const read = await timed('GET', last);
      recomputedReads.push(read.elapsed);
      recomputeCpu.push(read.cpuMs);
      const value = (read.data.values as unknown[][])[0]?.[0];
      if (value !== round + CHAIN) throw new Error(`the chain's last cell reads ${String(value)}, expected ${round + CHAIN}`);
    }
    console.log(
      `change the chain's head (POST) then read its last cell (GET, recomputes 10,000 formulas): write median ${median(writes).toFixed(0)} ms, read median ${median(recomputedReads).toFixed(0)} ms (${recomputedReads.map((ms) => ms.toFixed(0)).join(' / ')}), ` +
        `server CPU of the read median ${median(recomputeCpu).toFixed(0)} ms; ${memory(service)}`,
    );
    await timed('DELETE', `/sdk/v2/api/files/${fileId}`);
  } finally {
    await service.close();
    await integrator.close();
  }
  engineRecompute();
  writeFloor(rows, columns);
}
