/**
 * Table data API benchmark (issue 4): `npm run bench -- tables [rows] [phases]` (default 100000 rows, phases
 * `get,patch`; the insert always runs).
 *
 * Starts the service as its own process (`tsx src/main.ts`, embedded SQLite in a temporary folder) with the
 * reference integrator answering its callbacks, then through real HTTP:
 *   1. bulk insert: `rows` rows into a table of 10 columns of mixed types, 2000 rows a request, two requests
 *      in flight → rows/s;
 *   2. GET rows: pages of 100 starting at random rows of the second half of the table, 10 s each with 1, 4
 *      and 10 connections (autocannon) → latency p50/p99 and requests/s;
 *   3. single-row PATCH: two cells of a random row, 10 connections for 10 s → requests/s;
 *   4. links (phase `links`): a Link column to a second table of 1000 rows; 2000 PATCHes each link a random row to
 *      three targets, then 200 target rows are deleted one by one (each delete takes its guid out of every Link
 *      cell that names it) → latency p50/p99 and server CPU per request of both.
 * The server's resident memory (current and peak) is read from /proc after each phase, and its CPU time per
 * request: on a shared machine, wall-clock figures move with the neighbours' load, CPU time much less.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { startBenchService, type BenchService } from './_service.js';

const API = '/sdk/v2/api/table-api/openapi/v1';
const APP_ID = 'bench';
const SECRET = 'bench-secret-bench-secret-bench-secret';
const TOKEN = 'bench-token';
const BASE = 'bench-base';
const ROWS_PER_REQUEST = 2000;

export const COLUMNS = [
  { name: 'Name', type: 'SingleLineText' },
  { name: 'Notes', type: 'LongText' },
  { name: 'Amount', type: 'Number', props: { precision: 2 } },
  { name: 'Share', type: 'Percent' },
  { name: 'Due', type: 'Date' },
  { name: 'Status', type: 'SingleChoice', props: { options: [{ name: 'Open' }, { name: 'Doing' }, { name: 'Done' }] } },
  { name: 'Tags', type: 'MultipleChoice', props: { options: [{ name: 'red' }, { name: 'green' }, { name: 'blue' }] } },
  { name: 'Checked', type: 'CheckBox' },
  { name: 'Score', type: 'Rate', props: { count: 5 } },
  {
    name: 'Region',
    type: 'Cascade',
    props: { options: [{ name: 'Europe', children: [{ name: 'France' }, { name: 'Spain' }] }, { name: 'Asia', children: [{ name: 'Japan' }] }] },
  },
];
const STATUSES = ['Open', 'Doing', 'Done'];

export function rowValues(i: number): Record<string, unknown> {
  return {
    Name: `Item ${i}`,
    Notes: `Row ${i}: a few words of free text, as a note typically holds.`,
    Amount: (i * 1.25) % 10_000,
    Share: (i % 100) / 100,
    Due: 1_700_000_000_000 + i * 60_000,
    Status: STATUSES[i % 3],
    Tags: i % 2 ? ['red', 'blue'] : ['green'],
    Checked: i % 2 === 0,
    Score: i % 6,
    Region: i % 3 ? ['Europe', 'France'] : ['Asia', 'Japan'],
  };
}

function load(): string {
  return os.loadavg().map((value) => value.toFixed(1)).join(' ');
}

function printMemory(service: BenchService): void {
  const { rssMiB, peakMiB } = service.memory();
  console.log(`  server RSS ${rssMiB} MiB (peak ${peakMiB} MiB)`);
}

function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

export default async function tablesBench(args: string[]): Promise<void> {
  const totalRows = Number(args[0] ?? 100_000);
  const phases = new Set((args[1] ?? 'get,patch').split(','));
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: BASE, type: 'table', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });

  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server process.
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url });
  const { url, signature } = service;
  const cpuMs = () => service.cpuSeconds() * 1000;
  try {
    const headers = { 'x-svc-signature': signature, 'x-svc-token': TOKEN, 'content-type': 'application/json' };
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await response.json()) as { code?: number; status?: number; data: any; message?: string };
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
      return json.data;
    };

    await call('POST', '/sdk/v2/api/files', { type: 'table', fileId: BASE });
    const table = await call('POST', `${API}/tables`, { baseGuid: BASE, name: 'Bench', withoutInitRows: true, cols: COLUMNS });
    console.log(`table ${table.guid}: ${COLUMNS.length} columns (${COLUMNS.map((c) => c.type).join(', ')})`);

    // 1. Bulk insert. Bodies are built before the clock starts: the client's JSON work is not the server's.
    const bodies: string[] = [];
    for (let start = 0; start < totalRows; start += ROWS_PER_REQUEST) {
      const count = Math.min(ROWS_PER_REQUEST, totalRows - start);
      bodies.push(JSON.stringify({ rows: Array.from({ length: count }, (_, k) => rowValues(start + k)) }));
    }
    // Two requests in flight, as a bulk loader would pipeline them: the client's JSON work on one answer
    // overlaps the server's work on the next request. Row guids are kept in request order.
    const guidsByRequest: string[][] = [];
    const latencies: number[] = [];
    let nextBody = 0;
    const insertStart = performance.now();
    const insertCpuStart = cpuMs();
    const loader = async () => {
      while (nextBody < bodies.length) {
        const index = nextBody++;
        const requestStart = performance.now();
        const response = await fetch(`${url}${API}/tables/${table.guid}/rows`, { method: 'POST', headers, body: bodies[index] });
        const json = (await response.json()) as { data: { rows: { guid: string }[] } };
        if (!response.ok) throw new Error(`insert failed: ${response.status} ${JSON.stringify(json)}`);
        guidsByRequest[index] = json.data.rows.map((row) => row.guid);
        latencies.push(performance.now() - requestStart);
      }
    };
    await Promise.all([loader(), loader()]);
    const insertSeconds = (performance.now() - insertStart) / 1000;
    const insertCpuMs = cpuMs() - insertCpuStart;
    const rowGuids = guidsByRequest.flat();
    latencies.sort((a, b) => a - b);
    console.log(
      `insert: ${totalRows} rows in ${bodies.length} requests of ${ROWS_PER_REQUEST} (2 in flight): ${insertSeconds.toFixed(2)} s, ` +
        `${Math.round(totalRows / insertSeconds)} rows/s; request p50 ${ms(latencies[Math.floor(latencies.length / 2)]!)}, ` +
        `max ${ms(latencies[latencies.length - 1]!)}; body ${Math.round(bodies[0]!.length / 1024)} KiB`,
    );
    console.log(
      `  server CPU ${ms(insertCpuMs / bodies.length)} per request: ${Math.round((totalRows / insertCpuMs) * 1000)} rows per CPU-second ` +
        `(load average ${load()})`,
    );
    printMemory(service);

    // 2. GET rows, 100 a page, starting at random rows of the second half of the table.
    if (phases.has('get')) {
      const deep = rowGuids.slice(Math.floor(rowGuids.length / 2), rowGuids.length - 100);
      const rowsPath = `${API}/tables/${table.guid}/rows`;
      const pageRequest = {
        method: 'GET' as const,
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          path: `${rowsPath}?pageSize=100&offset=${deep[Math.floor(Math.random() * deep.length)]}`,
        }),
      };
      for (const connections of [1, 4, 10]) {
        const cpuStart = cpuMs();
        const pages = await autocannon({ url, connections, duration: 10, headers, requests: [pageRequest] });
        const pageCpuMs = cpuMs() - cpuStart;
        if (pages.non2xx > 0 || pages.errors > 0) throw new Error(`GET rows: ${pages.non2xx} non-2xx, ${pages.errors} errors`);
        console.log(
          `GET rows (pageSize 100, offset at random in rows ${Math.floor(rowGuids.length / 2)}-${rowGuids.length - 100}; ` +
            `${connections} connection(s), 10 s): p50 ${ms(pages.latency.p50)}, p99 ${ms(pages.latency.p99)}, ` +
            `${Math.round(pages.requests.average)} requests/s (${pages.requests.total} requests); ` +
            `server CPU ${ms(pageCpuMs / pages.requests.total)} per request (load average ${load()})`,
        );
      }
      printMemory(service);
    }

    // 3. Single-row PATCH of two cells of a random row.
    if (phases.has('patch')) {
      let n = 0;
      const cpuStart = cpuMs();
      const patches = await autocannon({
        url,
        connections: 10,
        duration: 10,
        headers,
        requests: [
          {
            method: 'PATCH',
            setupRequest: (request) => {
              n++;
              return {
                ...request,
                path: `${API}/tables/${table.guid}/rows/${rowGuids[Math.floor(Math.random() * rowGuids.length)]}`,
                body: JSON.stringify({ valueMap: { Amount: n % 1000, Status: STATUSES[n % 3] } }),
              };
            },
          },
        ],
      });
      if (patches.non2xx > 0 || patches.errors > 0) throw new Error(`PATCH row: ${patches.non2xx} non-2xx, ${patches.errors} errors`);
      console.log(
        `PATCH row (2 cells; 10 connections, 10 s): p50 ${ms(patches.latency.p50)}, p99 ${ms(patches.latency.p99)}, ` +
          `${Math.round(patches.requests.average)} requests/s (${patches.requests.total} requests); ` +
          `server CPU ${ms((cpuMs() - cpuStart) / patches.requests.total)} per request (load average ${load()})`,
      );
      printMemory(service);
    }

    // 4. Link cells: writing them, and deleting the rows they name.
    if (phases.has('links')) await linksPhase(call, table, rowGuids, cpuMs);
  } finally {
    await service.close();
    await integrator.close();
  }
}

type Call = (method: string, route: string, body?: unknown) => Promise<any>;

const LINK_TARGETS = 1000;
const LINK_WRITES = 2000;
const TARGET_DELETES = 200;

async function timed(count: number, cpuMs: () => number, one: (index: number) => Promise<unknown>): Promise<string> {
  const latencies: number[] = [];
  const cpuStart = cpuMs();
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await one(index);
    latencies.push(performance.now() - start);
  }
  const cpu = (cpuMs() - cpuStart) / count;
  latencies.sort((a, b) => a - b);
  return `p50 ${ms(latencies[Math.floor(count / 2)]!)}, p99 ${ms(latencies[Math.floor(count * 0.99)]!)}; server CPU ${ms(cpu)} per request (load average ${load()})`;
}

async function linksPhase(call: Call, table: { guid: string; defaultViewGuid: string }, rowGuids: readonly string[], cpuMs: () => number): Promise<void> {
  const tableGuid = table.guid;
  const targets = await call('POST', `${API}/tables`, { baseGuid: BASE, name: 'Targets', withoutInitRows: true, cols: [{ name: 'Name', type: 'SingleLineText' }] });
  const created = await call('POST', `${API}/tables/${targets.guid}/rows`, { rows: Array.from({ length: LINK_TARGETS }, (_, i) => ({ Name: `Target ${i}` })) });
  const targetGuids: string[] = created.rows.map((row: { guid: string }) => row.guid);
  await call('POST', `${API}/tables/${tableGuid}/columns`, { name: 'Targets', type: 'Link', props: { tableGuid: targets.guid }, viewGuid: table.defaultViewGuid });
  const pick = (index: number, salt: number) => targetGuids[(index * 7919 + salt * 104_729) % LINK_TARGETS]!;
  const writes = await timed(LINK_WRITES, cpuMs, (index) =>
    call('PATCH', `${API}/tables/${tableGuid}/rows/${rowGuids[(index * 48_271) % rowGuids.length]}`, { valueMap: { Targets: [pick(index, 0), pick(index, 1), pick(index, 2)] } }),
  );
  console.log(`PATCH a Link cell (3 targets; ${LINK_WRITES} requests, one at a time, table of ${rowGuids.length} rows): ${writes}`);
  const deletes = await timed(TARGET_DELETES, cpuMs, (index) => call('DELETE', `${API}/tables/${targets.guid}/rows/${targetGuids[index]}`));
  console.log(`DELETE a linked row (${TARGET_DELETES} requests, one at a time; its guid taken out of the Link cells that name it): ${deletes}`);
}
