/**
 * Event delivery benchmark (issue 3): `npm run bench -- events [events] [files] [rate] [seconds]`
 * (defaults 5000 events over 100 files; steady phase 200 events/s for 10 s).
 *
 * Runs the service's storage, outbox and delivery worker in this process (embedded SQLite in a temporary
 * folder, or PostgreSQL when DATABASE_URL is set) with default delivery settings, and a loopback HTTP
 * receiver standing in for the integrator's `POST /events` (answers 200 at once). Each event is written
 * in its own transaction, as a feature would write it with its change (8 writers at once in the burst).
 *   1. burst: all events written as fast as possible → sustained delivery rate (events/s, first write to
 *      last receipt) and lag (receipt − commit) p50/p99;
 *   2. steady: `rate` events/s for `seconds` → lag p50/p99 when the worker keeps up.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { fileContentEvent } from '../src/events/builders.js';
import { createServices } from '../src/services.js';
import { openStorage } from '../src/storage/database.js';

/** Concurrent writers in the burst phase. */
const WRITERS = 8;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export default async function bench(args: string[]): Promise<void> {
  const [total = 5000, files = 100, rate = 200, seconds = 10] = args.map(Number);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-events-'));
  const config = loadConfig({ ...process.env, SVC_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const pgSchema = config.databaseUrl ? `bench_events_${process.pid}` : undefined;
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir, pgSchema });
  const services = createServices(config, storage);

  const committedAt = new Map<string, number>();
  const lags: number[] = [];
  let received = 0;
  let lastReceipt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-svc-event-id']);
      const now = performance.now();
      const committed = committedAt.get(id);
      if (committed !== undefined) {
        committedAt.delete(id);
        lags.push(now - committed);
        received++;
        lastReceipt = now;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const app = await services.apps.create({ name: 'bench', endpointUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}` });
  services.delivery.start({ warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) });

  const emit = async (i: number) => {
    const [id] = await storage.db
      .transaction()
      .execute((trx) => services.outbox.add(trx, fileContentEvent({ appId: app.id, fileId: `file-${i % files}`, userId: 'bench', version: i })));
    committedAt.set(id!, performance.now());
  };
  const waitFor = async (count: number) => {
    const deadline = Date.now() + 300_000;
    while (received < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const report = (phase: string, count: number, started: number) => {
    const sorted = [...lags].sort((a, b) => a - b);
    const elapsed = (lastReceipt - started) / 1000;
    console.log(
      `${phase}: ${count} events over ${files} files on ${storage.engine}: ${(count / elapsed).toFixed(0)} events/s delivered; ` +
        `lag p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
    );
  };

  try {
    let started = performance.now();
    // Several writers, as concurrent requests of a service would write.
    let next = 0;
    await Promise.all(Array.from({ length: WRITERS }, async () => {
      while (next < total) await emit(next++);
    }));
    const written = (performance.now() - started) / 1000;
    await waitFor(total);
    report('burst', total, started);
    console.log(`  (writing the ${total} events took ${written.toFixed(2)} s: ${(total / written).toFixed(0)} transactions/s)`);

    lags.length = 0;
    received = 0;
    const steadyCount = rate * seconds;
    const writes: Promise<void>[] = [];
    started = performance.now();
    for (let i = 0; i < steadyCount; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      writes.push(emit(total + i));
    }
    await Promise.all(writes);
    await waitFor(steadyCount);
    report(`steady ${rate}/s`, steadyCount, started);
  } finally {
    await services.delivery.close();
    await services.callbacks.close();
    receiver.close();
    if (pgSchema) await sql`drop schema ${sql.id(pgSchema)} cascade`.execute(storage.db);
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
