/**
 * Shared by benchmarks: starts the service as its own process (`tsx src/main.ts`, embedded SQLite in a
 * temporary folder, one application bootstrapped) and reads its CPU time and memory from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { unusedPort } from '../test/support/ports.js';
import type { ServerProbeReport } from './_server-probe.js';

export interface BenchService {
  url: string;
  pid: number;
  signature: string;
  /** user CPU + system CPU of the server process so far, in seconds */
  cpuSeconds(): number;
  memory(): { rssMiB: number; peakMiB: number };
  /** what the process's probe (_server-probe.ts) saw since the previous call (or its start) */
  probe(): Promise<ServerProbeReport>;
  close(): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  // two minutes: several processes starting at once on a loaded 2-core machine take that long
  for (let i = 0; i < 1200; i++) {
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

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export async function startBenchService(options: { appId: string; secret: string; endpointUrl: string; env?: Record<string, string> }): Promise<BenchService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const port = await unusedPort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const probeFile = path.join(dataDir, 'probe.json');
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', '--import', './bench/_server-probe.ts', 'src/main.ts'], {
    env: {
      ...process.env,
      BENCH_PROBE_FILE: probeFile,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_APP_ID: options.appId,
      SVC_APP_SECRET: options.secret,
      SVC_APP_ENDPOINT_URL: options.endpointUrl,
      SVC_APP_QPS: '1000000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // a bench that fails leaves no service behind (it would hold the bench's output open)
  const stop = () => child.kill('SIGKILL');
  process.once('exit', stop);
  await waitForHealth(url, child);
  const pid = child.pid!;
  const signature = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', kid: options.appId })
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(options.secret));
  return {
    url,
    pid,
    signature,
    cpuSeconds: () => processCpuSeconds(pid),
    memory() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { rssMiB: Math.round(kib('VmRSS') / 1024), peakMiB: Math.round(kib('VmHWM') / 1024) };
    },
    async probe() {
      fs.rmSync(probeFile, { force: true });
      child.kill('SIGUSR2');
      for (let i = 0; i < 500 && !fs.existsSync(probeFile); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return JSON.parse(fs.readFileSync(probeFile, 'utf8')) as ServerProbeReport;
    },
    async close() {
      process.off('exit', stop);
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fields of /proc/<pid>/stat after the command's name: [0] state, [1] parent pid, [11] user ticks, [12] system ticks. */
function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

/** User + system CPU time of a process so far, in seconds. */
export function processCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The living descendants of `ancestor` (children, their children…), by pid. */
export function descendantsOf(ancestor: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parentOf.set(Number(entry), Number(statFields(Number(entry))[1]));
    } catch {
      // gone meanwhile
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let parent = parentOf.get(pid); parent !== undefined && parent > 1; parent = parentOf.get(parent)) if (parent === ancestor) return true;
    return false;
  };
  return [...parentOf.keys()].filter(isDescendant);
}

/**
 * CPU seconds so far of each living descendant of `ancestor`, by pid: what a bench's browser processes used (a
 * process that has exited is no longer counted).
 */
export function descendantsCpuSeconds(ancestor: number): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of descendantsOf(ancestor)) {
    try {
      cpu.set(pid, processCpuSeconds(pid));
    } catch {
      // gone meanwhile
    }
  }
  return cpu;
}

/** The machine's load average at a phase's start and now (1-minute figures), for a benchmark's output. */
export function loadLine(before: number[]): string {
  return `load average ${before[0]!.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end (${os.cpus().length} cores)`;
}

/** One line of a probe's report for a benchmark's output. */
export function probeLine(report: ServerProbeReport): string {
  const { loopDelayMs: loop, gc, frames, sqlite } = report;
  const slowest = sqlite.slowest.map(({ ms, sql }) => `${ms} ms ${sql}`).join('; ');
  return (
    `CPU ${(report.cpuMs / 1000).toFixed(1)} s in ${report.seconds.toFixed(1)} s, ${(report.runqueueWaitMs / 1000).toFixed(1)} s waiting for a core; event loop delay p50 ${loop.p50} ms, p99 ${loop.p99} ms, max ${loop.max} ms; ` +
    `GC ${gc.count}× ${gc.totalMs} ms (longest ${gc.maxMs} ms); ${frames.sent} WebSocket frames sent (${(frames.sent / report.seconds).toFixed(0)}/s, ${frames.sendMs} ms in send); ` +
    `${sqlite.statements} SQLite statements, ${sqlite.totalMs} ms (slowest: ${slowest})`
  );
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
