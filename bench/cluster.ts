/**
 * Cluster benchmark (issue 14): `npm run bench -- cluster [clients] [seconds] [editsPerSecond] [processes]`
 * (defaults 150 clients, 10 s, 50 edits/s in total, 3 processes).
 *
 * Starts `processes` service processes on one PostgreSQL database (a fresh one, dropped at the end;
 * BENCH_DATABASE_URL names the server, default postgres://postgres@127.0.0.1:5432/test) and Redis (REDIS_URL,
 * default redis://127.0.0.1:6379), with the reference integrator. `clients` Hocuspocus clients open one
 * document, spread evenly over the processes; every 1000/editsPerSecond ms a random client appends a
 * paragraph; each other client records when it sees it → latency p50/p99 for receivers on the writer's
 * process and on the other processes (the fan-out through Redis), plus each process's CPU.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import * as Y from 'yjs';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { connect, createFile, disconnect, paragraph, until, type Client } from './_clients.js';
import { loadLine, percentile, probeLine, startBenchService, type BenchService } from './_service.js';

const APP_ID = 'bench';
const SECRET = 'bench-secret-bench-secret-bench-secret';
const TOKEN = 'bench-token';

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export default async function clusterBench(args: string[]): Promise<void> {
  const clientCount = Number(args[0] ?? 150);
  const seconds = Number(args[1] ?? 10);
  const editsPerSecond = Number(args[2] ?? 50);
  const processCount = Number(args[3] ?? 3);
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const database = `svc_bench_${crypto.randomBytes(4).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();
  await admin(serverUrl, `create database ${database}`);

  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined), autoFiles: true });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: 'fanout', type: 'document', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, SVC_REDIS_PREFIX: database };
  const services: BenchService[] = [];
  const clients: Array<Client & { node: number }> = [];
  try {
    // the first process migrates the database; the others find it migrated
    services.push(await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url, env }));
    services.push(...(await Promise.all(Array.from({ length: processCount - 1 }, () => startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url, env })))));
    await createFile(services[0]!, 'fanout', 'document', TOKEN);
    for (let i = 0; i < clientCount; i++) {
      const node = i % processCount;
      clients.push({ ...(await connect(services[node]!, 'fanout', TOKEN)), node });
    }
    const sentAt: number[] = [];
    const writerOf: number[] = [];
    const local: number[] = [];
    const remote: number[] = [];
    clients.forEach((client, index) => {
      client.doc.getXmlFragment('default').observe((event) => {
        if (event.transaction.local) return;
        const now = performance.now();
        for (const item of event.changes.added) {
          for (const probe of item.content.getContent() as Y.XmlElement[]) {
            const [writer, probeIndex] = (probe.get(0) as Y.XmlText).toString().split(':').map(Number);
            if (writer === index || sentAt[probeIndex!] === undefined) continue;
            (clients[writerOf[probeIndex!]!]!.node === client.node ? local : remote).push(now - sentAt[probeIndex!]!);
          }
        }
      });
    });
    await Promise.all(services.map((service) => service.probe()));
    const loadBefore = os.loadavg();
    const cpuBefore = services.map((service) => service.cpuSeconds());
    const started = performance.now();
    const total = Math.round(seconds * editsPerSecond);
    for (let probe = 0; probe < total; probe++) {
      const due = started + (probe * 1000) / editsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const writer = Math.floor(Math.random() * clientCount);
      const root = clients[writer]!.doc.getXmlFragment('default');
      sentAt[probe] = performance.now();
      writerOf[probe] = writer;
      root.insert(root.length, [paragraph(`${writer}:${probe}`)]);
    }
    const expected = total * (clientCount - 1);
    await until(() => local.length + remote.length >= expected, () => `all ${expected} deliveries (got ${local.length + remote.length})`, 180_000);
    const elapsed = (performance.now() - started) / 1000;
    const probes = await Promise.all(services.map((service) => service.probe()));
    const sorted = (values: number[]) => values.sort((a, b) => a - b);
    const line = (name: string, values: number[]) =>
      values.length === 0
        ? `  ${name}: none`
        : `  ${name}: ${values.length} deliveries, p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${values.at(-1)!.toFixed(1)} ms`;
    console.log(`cluster fan-out: ${processCount} processes (PostgreSQL + Redis), ${clientCount} clients on one document, ${total} edits in ${elapsed.toFixed(1)} s`);
    console.log(line('receiver on the writer’s process', sorted(local)));
    console.log(line('receiver on another process (through Redis)', sorted(remote)));
    console.log(line('all', sorted([...local, ...remote])));
    console.log(`  server CPU per process: ${services.map((service, i) => `${(((service.cpuSeconds() - cpuBefore[i]!) / elapsed) * 100).toFixed(0)}%`).join(', ')} of one core`);
    probes.forEach((probe, i) => console.log(`  process ${i + 1}: ${probeLine(probe)}`));
    console.log(`  ${loadLine(loadBefore)}`);
  } finally {
    for (const client of clients) disconnect(client);
    await Promise.all(services.map((service) => service.close()));
    await integrator.close();
    await admin(serverUrl, `drop database if exists ${database} with (force)`);
  }
}
