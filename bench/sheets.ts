/**
 * Spreadsheet values API benchmark (issue 6): `npm run bench -- sheets [cells] [columns]` (default 100000
 * cells as 1000 rows × 100 columns). With DATABASE_URL=postgres://… the server runs on PostgreSQL,
 * otherwise on embedded SQLite in a temporary folder.
 *
 * Starts the service as its own process (`tsx src/main.ts`) with the reference integrator answering its
 * callbacks, then through real HTTP, one request each:
 *   1. write: POST sheets/values with the whole range (numbers, text, booleans, some formulas);
 *   2. read: GET sheets/values of the same range, three times (first read loads the stored document);
 *   3. rewrite: the same POST again (idempotent: nothing changes, nothing is stored);
 * timing each request end to end and reading the server's resident memory (current, peak) from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { columnLetters } from '../src/domain/sheets/a1.js';

const APP_ID = 'bench-sheets';
const SECRET = 'bench-sheets-secret-bench-sheets-secret';
const TOKEN = 'bench-token';

function cellValue(row: number, column: number): string | number | boolean {
  switch (column % 5) {
    case 0:
      return `Item ${row}-${column}`;
    case 1:
      return row * 1.5 + column;
    case 2:
      return row % 2 === 0;
    case 3:
      return `=${columnLetters(column - 2)}${row + 1}*2`;
    default:
      return row * column;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function serverMemory(pid: number): string {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (key: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return `server RSS ${mib('VmRSS')} MiB (peak ${mib('VmHWM')} MiB)`;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

export default async function sheetsBench(args: string[]): Promise<void> {
  const cells = Number(args[0] ?? 100_000);
  const columns = Number(args[1] ?? 100);
  const rows = Math.ceil(cells / columns);
  const range = `Sheet1!A1:${columnLetters(columns - 1)}${rows}`;
  const databaseUrl = process.env.DATABASE_URL ?? '';
  // a new file each run: on PostgreSQL the database outlives the run
  const FILE = `bench-spreadsheet-${Date.now()}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-sheets-'));
  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: FILE, type: 'spreadsheet', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_APP_ID: APP_ID,
      SVC_APP_SECRET: SECRET,
      SVC_APP_ENDPOINT_URL: integrator.url,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(url, child);
    const signature = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: APP_ID }).setExpirationTime('2h').sign(new TextEncoder().encode(SECRET));
    const credentials = { 'x-svc-signature': signature, 'x-svc-token': TOKEN };
    const headers = { ...credentials, 'content-type': 'application/json' };
    const timed = async (method: string, route: string, body?: string) => {
      const start = performance.now();
      const response = await fetch(`${url}${route}`, { method, headers: body === undefined ? credentials : headers, body });
      const text = await response.text();
      const elapsed = performance.now() - start;
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 500)}`);
      return { elapsed, text, data: (JSON.parse(text) as { data: Record<string, unknown> }).data };
    };
    await timed('POST', '/sdk/v2/api/files', JSON.stringify({ type: 'spreadsheet', fileId: FILE }));

    console.log(`database: ${databaseUrl ? 'PostgreSQL' : 'SQLite'}; range ${range}: ${rows} rows × ${columns} columns = ${rows * columns} cells`);
    console.log(`idle: ${serverMemory(child.pid!)}`);
    // The body is built before the clock starts: the client's JSON work is not the server's.
    const values = Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => cellValue(r, c)));
    const body = JSON.stringify({ range, resource: { values } });
    const valuesPath = `/sdk/v2/api/files/${FILE}/sheets/values`;

    const write = await timed('POST', valuesPath, body);
    console.log(`write (POST, body ${(body.length / 1024 / 1024).toFixed(2)} MiB): ${write.elapsed.toFixed(0)} ms, ${JSON.stringify(write.data)}; ${serverMemory(child.pid!)}`);

    for (let i = 1; i <= 3; i++) {
      const read = await timed('GET', `${valuesPath}?range=${encodeURIComponent(range)}`);
      const answered = (read.data.values as unknown[][]).reduce((sum, row) => sum + row.length, 0);
      if (answered !== rows * columns) throw new Error(`read answered ${answered} cells, expected ${rows * columns}`);
      console.log(`read ${i} (GET, answer ${(read.text.length / 1024 / 1024).toFixed(2)} MiB, ${answered} cells): ${read.elapsed.toFixed(0)} ms; ${serverMemory(child.pid!)}`);
    }

    const rewrite = await timed('POST', valuesPath, body);
    console.log(`rewrite of the same values (POST, changes nothing): ${rewrite.elapsed.toFixed(0)} ms; ${serverMemory(child.pid!)}`);
    await timed('DELETE', `/sdk/v2/api/files/${FILE}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await integrator.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
