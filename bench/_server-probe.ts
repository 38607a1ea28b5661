/**
 * Loaded into a benchmarked service process (`--import ./bench/_server-probe.ts`, see _service.ts) to say where
 * its time goes during a measured phase:
 * - event loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution): how long a message that arrived had
 *   to wait before the process could look at it;
 * - garbage collection: total and longest pause (PerformanceObserver 'gc');
 * - WebSocket frames sent (ws `send`): how many, and the synchronous time spent in them (framing and the
 *   socket write: the per-socket work of a fan-out);
 * - SQLite statements (better-sqlite3 runs them on the event loop): how many, their time, and the longest ones
 *   with their SQL (a WAL checkpoint runs inside the commit that crosses its threshold);
 * - the process's CPU time (user + system, every thread), and how long its main thread (the event loop) was
 *   ready to run but waiting for a core (/proc/self/schedstat, runqueueWaitMs): a loaded machine's share of the
 *   loop delay.
 * SIGUSR2 writes what was seen since the last SIGUSR2 to BENCH_PROBE_FILE (JSON, ServerProbeReport) and starts
 * over; the bench sends it at the start and at the end of its phase.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { WebSocket } from 'ws';

export interface ServerProbeReport {
  seconds: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  gc: { count: number; totalMs: number; maxMs: number };
  frames: { sent: number; sendMs: number };
  sqlite: { statements: number; totalMs: number; slowest: Array<{ ms: number; sql: string }> };
  cpuMs: number;
  runqueueWaitMs: number;
}

/** Nanoseconds the calling process's main thread has waited on a run queue (ready, no core free), from /proc. */
export function runqueueWaitNs(pid: number | 'self' = 'self'): number {
  return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
}

/** How many of the longest SQLite statements a report names. */
const SLOWEST_KEPT = 5;

const reportFile = process.env.BENCH_PROBE_FILE;
const LOOP_RESOLUTION_MS = 10;
if (reportFile) {
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  let frames = { sent: 0, sendMs: 0 };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, ...args: Parameters<WebSocket['send']>) {
    const started = performance.now();
    try {
      return send.apply(this, args);
    } finally {
      frames.sent += 1;
      frames.sendMs += performance.now() - started;
    }
  } as WebSocket['send'];
  let sqlite: ServerProbeReport['sqlite'] = { statements: 0, totalMs: 0, slowest: [] };
  const scratch = new SQLite(':memory:');
  const statementPrototype = Object.getPrototypeOf(scratch.prepare('select 1')) as Record<'run' | 'get' | 'all', (...args: unknown[]) => unknown>;
  scratch.close();
  for (const method of ['run', 'get', 'all'] as const) {
    const original = statementPrototype[method];
    statementPrototype[method] = function (this: SQLite.Statement, ...args: unknown[]) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = performance.now() - started;
        sqlite.statements += 1;
        sqlite.totalMs += ms;
        if (sqlite.slowest.length < SLOWEST_KEPT || ms > sqlite.slowest.at(-1)!.ms) {
          sqlite.slowest.push({ ms: Math.round(ms * 10) / 10, sql: this.source.slice(0, 80) });
          sqlite.slowest.sort((a, b) => b.ms - a.ms);
          sqlite.slowest.length = Math.min(sqlite.slowest.length, SLOWEST_KEPT);
        }
      }
    };
  }
  let cpuSince = process.cpuUsage();
  let waitSince = runqueueWaitNs();
  let since = performance.now();
  process.on('SIGUSR2', () => {
    // the sampling timer fires every LOOP_RESOLUTION_MS: what it reports beyond that is the delay
    const ms = (nanoseconds: number) => Math.max(0, Math.round((nanoseconds / 1e6 - LOOP_RESOLUTION_MS) * 100) / 100);
    const report: ServerProbeReport = {
      seconds: (performance.now() - since) / 1000,
      loopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
      gc: { count: gc.count, totalMs: Math.round(gc.totalMs), maxMs: Math.round(gc.maxMs * 10) / 10 },
      frames: { sent: frames.sent, sendMs: Math.round(frames.sendMs) },
      sqlite: { ...sqlite, totalMs: Math.round(sqlite.totalMs) },
      cpuMs: Math.round(((cpu) => (cpu.user + cpu.system) / 1000)(process.cpuUsage(cpuSince))),
      runqueueWaitMs: Math.round((runqueueWaitNs() - waitSince) / 1e6),
    };
    fs.writeFileSync(reportFile, JSON.stringify(report));
    loop.reset();
    gc = { count: 0, totalMs: 0, maxMs: 0 };
    frames = { sent: 0, sendMs: 0 };
    sqlite = { statements: 0, totalMs: 0, slowest: [] };
    cpuSince = process.cpuUsage();
    waitSince = runqueueWaitNs();
    since = performance.now();
  });
}
