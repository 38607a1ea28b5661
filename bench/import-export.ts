/**
 * Import and export benchmark (issue 16): `npm run bench -- import-export [rows] [columns] [--import-only] [--styled]`
 * (default 100,000 rows × 10 columns; --import-only skips the export part; --styled: the workbook of import-convert --styled). Import: Writes an xlsx of that size here (exceljs streaming writer: numbers, text, booleans, a formula in
 * every fifth column), starts the service as its own process (bench/_service.ts, SQLite; DATABASE_URL=postgres://…
 * for PostgreSQL) with the reference integrator, imports the file as a spreadsheet through POST files/v2/import,
 * polls the progress every 100 ms, and reports the time from the request to progress 100, the server's peak
 * resident memory (VmHWM: main thread and converter thread together) and a read of the last row through the
 * values API. Export (bench/_export.ts): a 200-page document to docx and to pdf, on the same service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { columnLetters } from '../src/model/sheets/a1.js';
import { exportBench } from './_export.js';
import { startBenchService, type BenchService } from './_service.js';

const APP_ID = 'bench-import';
const SECRET = 'bench-import-secret-bench-import-secret';
const TOKEN = 'bench-token';

/** Excel's banded look: rows filled with accent 1 lighter 80 % and 40 % in turn, a bottom border in accent 1. */
const BANDS: ReadonlyArray<Partial<ExcelJS.Style>> = [0.7999816888943144, 0.3999755851924192].map((tint) => ({
  fill: { type: 'pattern', pattern: 'solid', fgColor: { theme: 4, tint } as unknown as ExcelJS.Color },
  border: { bottom: { style: 'thin', color: { theme: 4 } as unknown as ExcelJS.Color } },
}));

export interface WorkbookOptions {
  /** every cell in a band of theme colours, and two more empty cells per row with the band's look (what Excel writes for a formatted table wider than its data) */
  styled?: boolean;
  /** with `styled`: each band given to its whole row (`<row s customFormat="1">`, as Excel writes a formatted row: each of its cells carries the row's style too) */
  rowStyled?: boolean;
  /** sheets of the same pattern after `Data` (bench/spreadsheet.ts opens one) */
  moreSheets?: ReadonlyArray<{ name: string; rows: number }>;
}

/**
 * The benchmark's workbook: text, numbers, booleans, a formula `=B(n)*2` in every fifth column (bench/import-convert.ts
 * too), on the sheet `Data`, with the options' look and sheets.
 */
export async function writeWorkbook(file: string, rows: number, columns: number, { styled = false, rowStyled = false, moreSheets = [] }: WorkbookOptions = {}): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: styled });
  for (const spec of [{ name: 'Data', rows }, ...moreSheets]) {
    const sheet = workbook.addWorksheet(spec.name);
    for (let row = 1; row <= spec.rows; row++) {
      const values: ExcelJS.CellValue[] = [];
      for (let column = 0; column < columns; column++) {
        switch (column % 5) {
          case 0:
            values.push(`Item ${row}-${column}`);
            break;
          case 1:
            values.push(row * 1.5 + column);
            break;
          case 2:
            values.push(row % 2 === 0);
            break;
          case 3:
            values.push({ formula: `${columnLetters(column - 2)}${row}*2`, result: (row * 1.5 + column - 2) * 2 });
            break;
          default:
            values.push(row * column);
        }
      }
      const added = sheet.addRow(styled ? [...values, null, null] : values);
      // a row's style setters give the style to the row and to each of its cells
      if (styled && rowStyled) Object.assign(added, BANDS[row % 2]!);
      else if (styled) for (let column = 1; column <= columns + 2; column++) added.getCell(column).style = BANDS[row % 2]!;
      added.commit();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/**
 * Imports `bytes` (an xlsx) as the spreadsheet `fileId` through POST files/v2/import, as an integrator does, and polls
 * the task's progress every 100 ms until it reaches 100; `onPoll` sees each progress answered. Answers the seconds
 * from the request to progress 100.
 */
export async function importWorkbook(service: BenchService, token: string, fileId: string, bytes: Buffer, onPoll: (progress: number) => void = () => undefined): Promise<number> {
  const headers = { 'x-svc-signature': service.signature, 'x-svc-token': token };
  const form = new FormData();
  form.append('fileId', fileId);
  form.append('type', 'spreadsheet');
  // a copy over an ArrayBuffer of its own: the DOM's Blob types take no Buffer (which may lie over a SharedArrayBuffer)
  form.append('file', new Blob([new Uint8Array(bytes)]), `${fileId}.xlsx`);
  const started = performance.now();
  const accepted = (await (await fetch(`${service.url}/sdk/v2/api/files/v2/import`, { method: 'POST', headers, body: form })).json()) as { status: number; data: { taskId: string } };
  if (accepted.status !== 0) throw new Error(`import refused: ${JSON.stringify(accepted)}`);
  for (;;) {
    const answer = (await (
      await fetch(`${service.url}/sdk/v2/api/files/v2/import/progress`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ taskId: accepted.data.taskId }),
      })
    ).json()) as { status: number; message: string; data: { progress: number } };
    if (answer.status !== 0) throw new Error(`import failed: ${answer.status} ${answer.message}`);
    onPoll(answer.data.progress);
    if (answer.data.progress === 100) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The service's settings for importing the benchmark's workbook (its size passes the default import limit). */
export const IMPORT_SERVICE_ENV = { SVC_IMPORT_LIMIT: String(256 * 1024 * 1024), SVC_TASK_POLL_MS: '50' };

export default async function importExport(args: string[]): Promise<void> {
  const importOnly = args.includes('--import-only');
  const styled = args.includes('--styled');
  const [rowsArgument, columnsArgument] = args.filter((argument) => !argument.startsWith('--'));
  const rows = Number(rowsArgument ?? 100_000);
  const columns = Number(columnsArgument ?? 10);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-import-'));
  const file = path.join(dir, 'big.xlsx');
  const written = Date.now();
  await writeWorkbook(file, rows, columns, { styled });
  const bytes = fs.readFileSync(file);
  console.log(`xlsx: ${rows} rows × ${columns} columns, ${(bytes.length / 1024 / 1024).toFixed(1)} MiB, written in ${Date.now() - written} ms`);

  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined), autoFiles: true });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: 'big', type: 'spreadsheet', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  integrator.addFile({ id: 'export-200', name: 'Annual report', type: 'document', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({
    appId: APP_ID,
    secret: SECRET,
    endpointUrl: integrator.url,
    env: { DATABASE_URL: process.env.DATABASE_URL ?? '', ...IMPORT_SERVICE_ENV },
  });
  try {
    const headers = { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN };
    const before = service.memory();
    const cpuBefore = service.cpuSeconds();
    const progressSeen: number[] = [];
    // RSS as the polls see it: which phase (progress) the peak falls in
    const rssTimeline: Array<{ second: string; progress: number; rssMiB: number }> = [];
    const started = performance.now();
    const seconds = await importWorkbook(service, TOKEN, 'big', bytes, (progress) => {
      if (progressSeen.at(-1) !== progress) progressSeen.push(progress);
      const { rssMiB } = service.memory();
      const second = ((performance.now() - started) / 1000).toFixed(1);
      if (rssTimeline.at(-1)?.progress !== progress || rssMiB > (rssTimeline.at(-1)?.rssMiB ?? 0) + 16) rssTimeline.push({ second, progress, rssMiB });
    });
    const after = service.memory();
    const cpuSeconds = service.cpuSeconds() - cpuBefore;
    const last = `Data!A${rows}:${columnLetters(columns - 1)}${rows}`;
    // the issue's "first values read of 100,000 cells" (21 point 2): the last 10,000 rows, the document loaded from storage
    const band = `Data!A${Math.max(1, rows - 9_999)}:${columnLetters(columns - 1)}${rows}`;
    const bandStarted = performance.now();
    const bandCpuBefore = service.cpuSeconds();
    const bandRead = (await (await fetch(`${service.url}/sdk/v2/api/files/big/sheets/values?range=${encodeURIComponent(band)}`, { headers })).json()) as { message: string; data: { values: unknown[][] } | null };
    const bandMs = performance.now() - bandStarted;
    // the server's CPU time for that read (10 ms ticks): steadier than its wall time on a shared machine
    const bandCpuMs = (service.cpuSeconds() - bandCpuBefore) * 1000;
    const afterBand = service.memory();
    const readStarted = performance.now();
    const read = (await (await fetch(`${service.url}/sdk/v2/api/files/big/sheets/values?range=${encodeURIComponent(last)}`, { headers })).json()) as { message: string; data: { values: unknown[][] } | null };
    const readMs = performance.now() - readStarted;
    console.log(`import: ${seconds.toFixed(2)} s from request to progress 100, server CPU ${cpuSeconds.toFixed(2)} s (progress seen: ${progressSeen.join(', ')})`);
    console.log(`server RSS: ${before.rssMiB} MiB before, ${after.rssMiB} MiB after, peak ${after.peakMiB} MiB (load average ${os.loadavg()[0]!.toFixed(1)})`);
    console.log(`server RSS while importing (s, progress, MiB): ${rssTimeline.map((point) => `${point.second} ${point.progress}% ${point.rssMiB}`).join('; ')}`);
    console.log(`first values read of ${band} (document loaded from storage): ${bandMs.toFixed(0)} ms, server CPU ${bandCpuMs.toFixed(0)} ms, ${bandRead.data ? bandRead.data.values.length : bandRead.message} rows; server RSS then ${afterBand.rssMiB} MiB (peak ${afterBand.peakMiB} MiB)`);
    console.log(`then the last row (${last}): ${readMs.toFixed(0)} ms → ${read.data ? JSON.stringify(read.data.values[0]) : read.message}`);
    if (!importOnly) await exportBench(service, TOKEN);
  } finally {
    await service.close();
    await integrator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
