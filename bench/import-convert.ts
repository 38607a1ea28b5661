/**
 * The xlsx import's conversion alone (issue 21): `npm run bench -- import-convert [rows] [columns] [runs]
 * [--styled [--row-styled]]` (default 100,000 × 10, 3 runs; --styled: every cell in theme-coloured bands, two styled empty cells a row; --row-styled: each band a whole row's style, `<row s customFormat="1">`, its cells carrying it too). Writes the workbook bench/import-export.ts imports, then converts it `runs` times as the
 * import task does, each run in a process of its own (bench/_convert-once.ts): per run the wall time, the CPU time
 * (the converter thread's included: the steadier figure on a shared machine), the resident memory the conversion
 * added at its highest, and the load average. No service, no database: what the conversion costs, apart from the
 * request, the task and the storing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeWorkbook } from './import-export.js';

interface ConversionRun {
  wallSeconds: number;
  cpuSeconds: number;
  rssBeforeMiB: number;
  rssHighestMiB: number;
  stateMiB: number;
}

export default async function importConvert(args: string[]): Promise<void> {
  const styled = args.includes('--styled');
  const rowStyled = args.includes('--row-styled');
  const [rowsArgument, columnsArgument, runsArgument] = args.filter((argument) => !argument.startsWith('--'));
  const rows = Number(rowsArgument ?? 100_000);
  const columns = Number(columnsArgument ?? 10);
  const runs = Number(runsArgument ?? 3);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-convert-'));
  try {
    const file = path.join(dir, 'big.xlsx');
    await writeWorkbook(file, rows, columns, { styled, rowStyled });
    console.log(`xlsx: ${rows} rows × ${columns} columns${styled ? (rowStyled ? ', row-styled' : ', styled') : ''}, ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MiB; ${os.cpus().length} cores`);
    for (let run = 1; run <= runs; run++) {
      const load = os.loadavg()[0]!;
      const output = execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '_convert-once.ts'), file], { encoding: 'utf8' });
      const result = JSON.parse(output.trim().split('\n').at(-1)!) as ConversionRun;
      console.log(
        `run ${run}: ${result.wallSeconds.toFixed(2)} s wall, ${result.cpuSeconds.toFixed(2)} s CPU, RSS +${(result.rssHighestMiB - result.rssBeforeMiB).toFixed(0)} MiB ` +
          `at its highest (from ${result.rssBeforeMiB.toFixed(0)} MiB), state ${result.stateMiB.toFixed(1)} MiB, load ${load.toFixed(1)}`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
