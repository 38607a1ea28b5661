/**
 * Collaboration benchmark (issue 5): `npm run bench -- collab [clients] [seconds] [editsPerSecond] [megabytes]`
 * (defaults 50 clients, 10 s, 50 edits/s in total (each client about one a second), 1 MB).
 *
 * Starts the service as its own process (SQLite) with the reference integrator, then:
 *   1. fan-out: `clients` Hocuspocus clients open one document; every 1000/editsPerSecond ms a random client
 *      appends a paragraph; each other client records when it sees it → latency p50/p99 (send → seen, over
 *      every receiver), plus the server's CPU use and memory over the phase;
 *   2. plain text of a document of `megabytes` MB (10,000-character paragraphs, written by one client):
 *      GET plain-text 20 times while the document is open (live) and 20 times after every client left
 *      (built from storage each call) → p50/max.
 */
import os from 'node:os';
import * as Y from 'yjs';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { connect, createFile, disconnect, paragraph, until, type Client } from './_clients.js';
import { loadLine, percentile, probeLine, startBenchService, type BenchService } from './_service.js';

const APP_ID = 'bench';
const SECRET = 'bench-secret-bench-secret-bench-secret';
const TOKEN = 'bench-token';

async function timePlainText(service: BenchService, fileId: string, runs: number): Promise<{ p50: number; max: number; length: number }> {
  const times: number[] = [];
  let length = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const response = await fetch(`${service.url}/sdk/v2/collab-files/${fileId}/plain-text`, { headers: { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN } });
    const body = (await response.json()) as { data: { content: string } };
    times.push(performance.now() - started);
    length = body.data.content.length;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), max: times.at(-1)!, length };
}

export default async function collabBench(args: string[]): Promise<void> {
  const clientCount = Number(args[0] ?? 50);
  const seconds = Number(args[1] ?? 10);
  const editsPerSecond = Number(args[2] ?? 50);
  const megabytes = Number(args[3] ?? 1);

  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined), autoFiles: true });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  integrator.addFile({ id: 'fanout', type: 'document', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  integrator.addFile({ id: 'big', type: 'document', grants: { 'bench-user': { ...ALL_PERMISSIONS } } });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url });
  const clients: Client[] = [];
  try {
    await createFile(service, 'fanout', 'document', TOKEN);
    await createFile(service, 'big', 'document', TOKEN);

    // 1. fan-out
    for (let i = 0; i < clientCount; i++) clients.push(await connect(service, 'fanout', TOKEN));
    const sentAt: number[] = [];
    const latencies: number[] = [];
    clients.forEach((client, index) => {
      client.doc.getXmlFragment('default').observe((event) => {
        if (event.transaction.local) return;
        const now = performance.now();
        for (const item of event.changes.added) {
          for (const probe of item.content.getContent() as Y.XmlElement[]) {
            const [writer, probeIndex] = (probe.get(0) as Y.XmlText).toString().split(':').map(Number);
            if (writer !== index && sentAt[probeIndex!] !== undefined) latencies.push(now - sentAt[probeIndex!]!);
          }
        }
      });
    });
    await service.probe();
    const loadBefore = os.loadavg();
    const cpuBefore = service.cpuSeconds();
    const clientCpuBefore = process.cpuUsage();
    const started = performance.now();
    const total = Math.round(seconds * editsPerSecond);
    for (let probe = 0; probe < total; probe++) {
      const due = started + (probe * 1000) / editsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const writer = Math.floor(Math.random() * clientCount);
      const root = clients[writer]!.doc.getXmlFragment('default');
      sentAt[probe] = performance.now();
      root.insert(root.length, [paragraph(`${writer}:${probe}`)]);
    }
    const expected = total * (clientCount - 1);
    await until(() => latencies.length >= expected, () => `all ${expected} deliveries (got ${latencies.length})`, 120_000);
    const elapsed = (performance.now() - started) / 1000;
    const probe = await service.probe();
    const cpu = service.cpuSeconds() - cpuBefore;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const clientSeconds = (clientCpu.user + clientCpu.system) / 1e6;
    latencies.sort((a, b) => a - b);
    const memory = service.memory();
    console.log(`fan-out: ${clientCount} clients, ${total} edits in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)} edits/s), ${latencies.length} deliveries`);
    console.log(`  latency send → seen by another client: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`);
    console.log(`  server CPU ${((cpu / elapsed) * 100).toFixed(0)}% of one core; RSS ${memory.rssMiB} MiB (peak ${memory.peakMiB} MiB)`);
    // the clients share one process (and the machine) with each other: when it is saturated, latency is theirs
    console.log(`  client process CPU ${((clientSeconds / elapsed) * 100).toFixed(0)}% of one core`);
    console.log(`  server: ${probeLine(probe)}`);
    console.log(`  ${loadLine(loadBefore)}`);
    for (const client of clients.splice(0)) disconnect(client);

    // 2. plain text of a large document
    const writer = await connect(service, 'big', TOKEN);
    const line = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. '.repeat(100).slice(0, 10_000);
    const paragraphs = Math.round((megabytes * 1024 * 1024) / line.length);
    writer.doc.transact(() => {
      const root = writer.doc.getXmlFragment('default');
      root.insert(0, Array.from({ length: paragraphs }, () => paragraph(line)));
    });
    await until(() => !writer.provider.hasUnsyncedChanges, 'large document stored');
    const live = await timePlainText(service, 'big', 20);
    disconnect(writer);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stored = await timePlainText(service, 'big', 20);
    const after = service.memory();
    console.log(`plain text of a ${(live.length / 1024 / 1024).toFixed(2)} MB document (${paragraphs} paragraphs):`);
    console.log(`  open in an editor: p50 ${live.p50.toFixed(1)} ms, max ${live.max.toFixed(1)} ms; from storage: p50 ${stored.p50.toFixed(1)} ms, max ${stored.max.toFixed(1)} ms`);
    console.log(`  server RSS ${after.rssMiB} MiB (peak ${after.peakMiB} MiB)`);
  } finally {
    for (const client of clients) disconnect(client);
    await service.close();
    await integrator.close();
  }
}
