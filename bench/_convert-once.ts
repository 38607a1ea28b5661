/**
 * One conversion of bench/import-convert.ts, in a process of its own (so that each run starts from the same
 * resident memory): `node --import tsx bench/_convert-once.ts <file.xlsx>` converts the file as the import task does
 * (a converter thread of a WorkerPool, the state joined here) and prints one line of JSON: wall and CPU seconds
 * (this process's, the converter thread's included), resident MiB before and at its highest (VmRSS sampled every
 * 20 ms), the state's MiB.
 */
import fs from 'node:fs';
import { WorkerPool } from '../src/domain/conversion/worker-pool.js';
import { CONVERTER_WORKER, joinParts, type ConverterAnswer, type ConverterJob } from '../src/domain/import/conversion.js';
import { DEFAULT_ZIP_LIMITS } from '../src/domain/import/zip-guard.js';

/** The service's default converter heap (SVC_CONVERTER_MEMORY_MB) and the import pool's keep limit (import-service.ts). */
const CONVERTER_MEMORY_MB = 512;
const KEEP_CONVERTER_MB = 64;

function residentMiB(): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
}

const bytes = fs.readFileSync(process.argv[2]!);
const pool = new WorkerPool<ConverterJob, ConverterAnswer>(CONVERTER_WORKER, { memoryMb: CONVERTER_MEMORY_MB, keepHeapMb: KEEP_CONVERTER_MB });
const before = residentMiB();
let highest = before;
const sampler = setInterval(() => (highest = Math.max(highest, residentMiB())), 20);
const cpu = process.cpuUsage();
const started = performance.now();
const job: ConverterJob = { format: 'xlsx', target: 'spreadsheet', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), zipLimits: DEFAULT_ZIP_LIMITS };
const answer = await pool.run(job, { signal: new AbortController().signal, deadlineMs: 10 * 60_000 });
if (!('output' in answer) || answer.output.target !== 'content') throw new Error(`the conversion answered ${JSON.stringify(answer).slice(0, 200)}`);
const state = joinParts(answer.output.stateParts);
clearInterval(sampler);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ wallSeconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, rssBeforeMiB: before, rssHighestMiB: highest, stateMiB: state.length / 1024 / 1024 }));
await pool.close();
