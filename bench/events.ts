/**
 * Event delivery benchmark (issues 3, 14): `npm run bench -- events [events] [files] [rate] [seconds]`
 * (defaults 10000 events over 100 files; steady phase 1000 events/s for 10 s).
 *
 * Runs the service's storage, outbox and delivery worker in this process (embedded SQLite in a temporary
 * folder, or PostgreSQL when DATABASE_URL is set) with default delivery settings, and a loopback HTTP
 * receiver in a process of its own standing in for the integrator's `POST /events` (bench/_events-receiver.ts,
 * answers 200 at once).
 *   1. backlog: `events` written while the worker is stopped (transactions of 100), then the worker starts
 *      → the sustained delivery rate (events/s, worker start to last receipt), what delivery alone can do;
 *   2. burst: `events` more written as fast as possible, each in its own transaction as a feature writes
 *      it with its change (8 writers at once), while the worker delivers → delivery rate (first write to
 *      last receipt, bounded by the writers) and lag (receipt − commit) p50/p99;
 *   3. steady: `rate` events/s for `seconds`, each in its own transaction → lag p50/p99 at that rate.
 */
import fs from 'node:fs';
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { fileContentEvent } from '../src/events/builders.js';
import { createServices } from '../src/services.js';
import { openStorage } from '../src/storage/database.js';

/** Milliseconds on a clock shared with the receiver's process. */
const clock = () => performance.timeOrigin + performance.now();

/** Concurrent writers in the burst phase. */
const WRITERS = 8;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export default async function bench(args: string[]): Promise<void> {
  const [total = 10_000, files = 100, rate = 1000, seconds = 10] = args.map(Number);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-events-'));
  const config = loadConfig({ ...process.env, SVC_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const pgSchema = config.databaseUrl ? `bench_events_${process.pid}` : undefined;
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir, pgSchema });
  // On PostgreSQL the writers have connections of their own, as the requests of several processes would:
  // writes queued for the worker's pool would measure the pool's queue, not delivery. SQLite has one
  // connection per process, shared.
  const writes = pgSchema ? await openStorage({ databaseUrl: config.databaseUrl, dataDir, pgSchema }) : storage;
  const services = createServices(config, storage);

  const committedAt = new Map<string, number>();
  const lags: number[] = [];
  let received = 0;
  let lastReceipt = 0;
  const receiver = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), '_events-receiver.ts'), { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve) => receiver.once('message', (message: { port: number }) => resolve(message.port)));
  receiver.on('message', (message: { receipts?: Array<[string, number]> }) => {
    for (const [id, at] of message.receipts ?? []) {
      const committed = committedAt.get(id);
      if (committed === undefined) continue;
      committedAt.delete(id);
      lags.push(at - committed);
      received++;
      lastReceipt = Math.max(lastReceipt, at);
    }
  });
  const app = await services.apps.create({ name: 'bench', endpointUrl: `http://127.0.0.1:${port}` });
  const startDelivery = () => services.delivery.start({ warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) });

  const emitMany = async (from: number, count: number) => {
    const ids = await writes.db.transaction().execute(async (trx) => {
      const written: string[] = [];
      for (let i = from; i < from + count; i++) {
        written.push(...(await services.outbox.add(trx, fileContentEvent({ appId: app.id, fileId: `file-${i % files}`, userId: 'bench', version: i }))));
      }
      return written;
    });
    const now = clock();
    for (const id of ids) committedAt.set(id, now);
  };
  const emit = async (i: number) => {
    const [id] = await writes.db
      .transaction()
      .execute((trx) => services.outbox.add(trx, fileContentEvent({ appId: app.id, fileId: `file-${i % files}`, userId: 'bench', version: i })));
    committedAt.set(id!, clock());
  };
  const waitFor = async (count: number) => {
    const deadline = Date.now() + 300_000;
    while (received < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const report = (phase: string, count: number, started: number, withLag = true) => {
    const sorted = [...lags].sort((a, b) => a - b);
    const elapsed = (lastReceipt - started) / 1000;
    const lag = withLag ? `; lag p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms` : '';
    console.log(`${phase}: ${received} of ${count} events over ${files} files on ${storage.engine}: ${(received / elapsed).toFixed(0)} events/s delivered${lag}`);
  };
  const reset = () => {
    lags.length = 0;
    received = 0;
  };

  try {
    for (let from = 0; from < total; from += 100) await emitMany(from, Math.min(100, total - from));
    let started = clock();
    startDelivery();
    await waitFor(total);
    report('backlog', total, started, false);

    reset();
    started = clock();
    // Several writers, as concurrent requests of a service would write.
    let next = total;
    await Promise.all(Array.from({ length: WRITERS }, async () => {
      while (next < 2 * total) await emit(next++);
    }));
    const written = (clock() - started) / 1000;
    await waitFor(total);
    report('burst', total, started);
    console.log(`  (writing the ${total} events took ${written.toFixed(2)} s: ${(total / written).toFixed(0)} transactions/s)`);

    reset();
    const steadyCount = rate * seconds;
    const writes: Promise<void>[] = [];
    started = clock();
    for (let i = 0; i < steadyCount; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - clock();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      writes.push(emit(2 * total + i));
    }
    await Promise.all(writes);
    const writing = (clock() - started) / 1000;
    await waitFor(steadyCount);
    report(`steady ${rate}/s`, steadyCount, started);
    console.log(`  (the writes took ${writing.toFixed(2)} s: ${(steadyCount / writing).toFixed(0)} transactions/s)`);
  } finally {
    await services.delivery.close();
    await services.callbacks.close();
    receiver.disconnect();
    if (writes !== storage) await writes.close();
    if (pgSchema) await sql`drop schema ${sql.id(pgSchema)} cascade`.execute(storage.db);
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
