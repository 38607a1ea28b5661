/**
 * Editor benchmark (issue 12): `npm run bench -- editor [runs=10] [keystrokes=200] [clients=50]`.
 *
 * Builds the browser side (`npm run build:browser`), starts the service as its own process (SQLite) with the
 * reference integrator, serves an integrator's host page from `localhost` (test/browser/support/host-page.ts)
 * and drives headless Chromium (test/browser/support/browser.ts). Then:
 *   1. bundle sizes: every chunk of dist/public/editor, raw and gzip, and what the page of each kind loads
 *      (the server's pageAssets: entry, styles, preloaded modules; font files are left out: the browser
 *      fetches only the unicode ranges a page shows);
 *   2. connect() → editable: time from calling `connect()` in the host page to the promise resolving (the
 *      editor reports ready once it is mounted on the synced document; the bench then checks that it takes
 *      input). Cold: each run in a fresh browser context (empty HTTP cache). Warm: a new page in a context that
 *      opened the editor before. p50/p95 over `runs`;
 *   3. keystroke latency: two browser contexts (two users) on one document, plus `clients` headless
 *      collaboration clients (Hocuspocus provider in Node) on it, each appending a paragraph about every
 *      5 s. A types `keystrokes` characters one at a time; the time from A's keydown to the character showing
 *      in B's editor (both read on the machine's clock: performance.timeOrigin + now) → p50/p95/p99; beside it
 *      where the machine's time went: the service's probe (bench/_server-probe.ts), the CPU of the browsers'
 *      processes, this process's CPU and loop delay (the headless clients live here), the editors' long tasks.
 * The browsers render in software (`--disable-gpu`); BENCH_BROWSER_GL=swiftshader keeps @sparticuz/chromium's
 * emulated GL, as the browser tests run, which on this machine costs about a core while typing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import zlib from 'node:zlib';
import type { Browser, Frame, Page } from 'playwright-core';
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { FILE_TYPES } from '../src/model/file-types.js';
import { PROJECT_ROOT, PUBLIC_DIR } from '../src/paths.js';
import { EDITOR_ASSETS_PATH, hasEditor, pageAssets } from '../src/routes/editor-page/assets.js';
import { launchBrowser } from '../test/browser/support/browser.js';
import { startHostPage, type HostPage } from '../test/browser/support/host-page.js';
import { runqueueWaitNs } from './_server-probe.js';
import { connect, createFile, disconnect, paragraph, until, type Client } from './_clients.js';
import { descendantsCpuSeconds, loadLine, percentile, probeLine, startBenchService, type BenchService } from './_service.js';

const APP_ID = 'bench';
const SECRET = 'bench-secret-bench-secret-bench-secret';
const USERS = ['writer', 'reader'] as const;
const tokenOf = (user: string) => `${user}-token`;
/** Each headless client is its own user, as on a real shared document: one user may hold only SVC_COLLAB_SOCKETS_PER_USER (50) sockets. */
const headlessUser = (index: number) => `client-${index}`;

interface ManifestChunk {
  file: string;
  css?: string[];
}

/** How long the browsers' CPU is sampled before the typing starts. */
const IDLE_SAMPLE_MS = 5000;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

function gzipSize(file: string): { raw: number; gzip: number } {
  const bytes = fs.readFileSync(path.join(PUBLIC_DIR, 'editor', file));
  return { raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
}

function bundleSizes(): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(PUBLIC_DIR, 'editor', '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  console.log('bundle sizes (dist/public/editor, gzip -9):');
  const listed = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    for (const file of [chunk.file, ...(chunk.css ?? [])]) {
      if (!/\.(js|css)$/.test(file) || listed.has(file)) continue;
      listed.add(file);
      const size = gzipSize(file);
      console.log(`  ${file.padEnd(40)} ${kib(size.raw).padStart(11)} raw, ${kib(size.gzip).padStart(10)} gzip   (${key})`);
    }
  }
  // what the editor page of each kind loads: the server's own list (script, styles, preloads)
  for (const kind of FILE_TYPES) {
    const assets = hasEditor(kind) ? pageAssets(kind) : undefined;
    if (!assets) continue;
    const files = [assets.entry, ...assets.styles, ...assets.preloads].map((url) => url.slice(EDITOR_ASSETS_PATH.length));
    let raw = 0;
    let gzip = 0;
    for (const file of new Set(files)) {
      const size = gzipSize(file);
      raw += size.raw;
      gzip += size.gzip;
    }
    console.log(`  a ${kind} page loads ${new Set(files).size} files: ${kib(raw)} raw, ${kib(gzip)} gzip`);
  }
}

/** Calls connect() in the host page; resolves with the milliseconds until it resolved. */
async function timeConnect(page: Page, host: HostPage, service: BenchService, fileId: string, user: string): Promise<number> {
  await page.goto(host.url);
  await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
  const elapsed = await page.evaluate(
    async ({ endpoint, fileId, token, signature }) => {
      const { SDK } = window as unknown as { SDK: { connect(options: Record<string, unknown>): Promise<unknown> } };
      const started = performance.now();
      await SDK.connect({ container: document.getElementById('editor'), endpoint, fileId, token, signature, lang: 'en' });
      return performance.now() - started;
    },
    { endpoint: `${service.url}/sdk/v2`, fileId, token: tokenOf(user), signature: service.signature },
  );
  await editorFrame(page).locator('.ProseMirror[contenteditable=true]').waitFor({ timeout: 5000 });
  return elapsed;
}

function editorFrame(page: Page) {
  return page.frameLocator('iframe');
}

function frameOf(page: Page): Frame {
  const frame = page.frames().find((candidate) => candidate.url().includes('/collab-files/'));
  if (!frame) throw new Error('no editor frame');
  return frame;
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, min ${ms(sorted[0]!)}, max ${ms(sorted.at(-1)!)}`;
}

async function openTimes(browser: Browser, host: HostPage, service: BenchService, runs: number): Promise<void> {
  const cold: number[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    cold.push(await timeConnect(await context.newPage(), host, service, 'open-time', 'writer'));
    await context.close();
  }
  const warm: number[] = [];
  const context = await browser.newContext();
  await timeConnect(await context.newPage(), host, service, 'open-time', 'writer');
  for (let run = 0; run < runs; run++) {
    const page = await context.newPage();
    warm.push(await timeConnect(page, host, service, 'open-time', 'writer'));
    await page.close();
  }
  await context.close();
  console.log(`connect() → editable document, ${runs} runs each:`);
  console.log(`  cold (fresh browser context): ${summary(cold)}`);
  console.log(`  warm (assets cached):         ${summary(warm)}`);
}

async function keystrokeLatency(browser: Browser, host: HostPage, service: BenchService, keystrokes: number, clientCount: number): Promise<void> {
  const fileId = 'keystrokes';
  const clients: Client[] = [];
  const contexts = [await browser.newContext(), await browser.newContext()];
  let background: NodeJS.Timeout | undefined;
  try {
    for (let i = 0; i < clientCount; i++) clients.push(await connect(service, fileId, tokenOf(headlessUser(i))));
    const [writer, reader] = await Promise.all(contexts.map((context) => context.newPage()));
    await timeConnect(writer!, host, service, fileId, 'writer');
    await timeConnect(reader!, host, service, fileId, 'reader');
    // background: the headless clients append paragraphs at the end, together about clientCount / 5 a second
    if (clientCount > 0) {
      background = setInterval(() => {
        const client = clients[Math.floor(Math.random() * clients.length)]!;
        const root = client.doc.getXmlFragment('default');
        root.insert(root.length, [paragraph(`background ${Date.now()}`)]);
      }, 5000 / clientCount);
    }

    const writerFrame = frameOf(writer!);
    const readerFrame = frameOf(reader!);
    await writerFrame.evaluate(() => {
      const state = window as unknown as { keyTimes: number[] };
      state.keyTimes = [];
      // characters only: the keys that place the caret are not probes
      document.addEventListener('keydown', (event) => void (event.key.length === 1 && state.keyTimes.push(performance.timeOrigin + performance.now())), true);
    });
    await editorFrame(writer!).locator('.ProseMirror').click();
    await writer!.keyboard.press('Control+Home');
    await writer!.keyboard.press('End');
    // the reader records each length of the first paragraph (where the writer types) as it changes
    // (no named functions inside evaluated code: tsx would wrap them in a helper the page does not have)
    const startLength = await readerFrame.evaluate(() => {
      const state = window as unknown as { seen: Map<number, number>; textLength: () => number };
      const root = document.querySelector('.ProseMirror')!;
      state.seen = new Map();
      // the document's characters only: collaborators' carets are widgets whose labels are text too
      state.textLength = () => {
        const first = root.firstElementChild;
        let widgets = 0;
        for (const widget of first?.querySelectorAll('.ProseMirror-widget') ?? []) widgets += widget.textContent?.length ?? 0;
        return (first?.textContent?.length ?? 0) - widgets;
      };
      new MutationObserver(() => {
        const now = state.textLength();
        if (!state.seen.has(now)) state.seen.set(now, performance.timeOrigin + performance.now());
      }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
      return state.textLength();
    });
    const latencies: number[] = [];
    const readerLength = () => readerFrame.evaluate(() => (window as unknown as { textLength: () => number }).textLength());
    const writerLength = () =>
      writerFrame.evaluate(() => {
        const first = document.querySelector('.ProseMirror')?.firstElementChild;
        let widgets = 0;
        for (const widget of first?.querySelectorAll('.ProseMirror-widget') ?? []) widgets += widget.textContent?.length ?? 0;
        return (first?.textContent?.length ?? 0) - widgets;
      });
    // where the machine's time goes during the phase besides the service: the browsers' main threads (long
    // tasks: 50 ms or more), their processes' CPU, and this process's (the headless clients', Playwright's)
    for (const frame of [writerFrame, readerFrame]) {
      await frame.evaluate(() => {
        const state = window as unknown as { longTasks: number[] };
        state.longTasks = [];
        new PerformanceObserver((list) => void state.longTasks.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: 'longtask' });
      });
    }
    const otherCpu = () => {
      const cpu = descendantsCpuSeconds(process.pid);
      cpu.delete(service.pid);
      return cpu;
    };
    // the browsers' CPU before any typing (with the background clients' paragraphs arriving), as a reference
    const idleBefore = otherCpu();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
    let idleCpu = 0;
    for (const [pid, seconds] of otherCpu()) idleCpu += seconds - (idleBefore.get(pid) ?? 0);
    console.log(`  browsers before typing: CPU ${idleCpu.toFixed(1)} s in ${IDLE_SAMPLE_MS / 1000} s`);
    const browserCpuBefore = otherCpu();
    const benchCpuBefore = process.cpuUsage();
    const benchWaitBefore = runqueueWaitNs();
    const benchLoop = monitorEventLoopDelay({ resolution: 10 });
    benchLoop.enable();
    await service.probe();
    const loadBefore = os.loadavg();
    let base = startLength;
    let unseen = 0;
    for (let i = 0; i < keystrokes; i++) {
      await writer!.keyboard.type(String.fromCharCode(97 + (i % 26)));
      const expected = base + i + 1;
      const seen = await readerFrame
        .waitForFunction((length) => (window as unknown as { seen: Map<number, number> }).seen.has(length), expected, { timeout: 10_000, polling: 5 })
        .then(
          () => true,
          () => false,
        );
      if (!seen) {
        // a keystroke the other browser did not show within 10 s: counted, then measuring goes on from what it shows
        unseen += 1;
        const status = await writerFrame.evaluate(() => document.querySelector('.svc-status')?.textContent);
        const target = await writerLength();
        console.log(`  keystroke ${i} not seen in 10 s: writer shows ${target} characters (status "${status}"), reader ${await readerLength()}`);
        await readerFrame.waitForFunction((length) => (window as unknown as { textLength: () => number }).textLength() >= length, target, { timeout: 60_000, polling: 50 });
        base = (await readerLength()) - (i + 1);
        continue;
      }
      const [typedAt, seenAt] = await Promise.all([
        writerFrame.evaluate((index) => (window as unknown as { keyTimes: number[] }).keyTimes[index]!, i),
        readerFrame.evaluate((length) => (window as unknown as { seen: Map<number, number> }).seen.get(length)!, expected),
      ]);
      latencies.push(seenAt - typedAt);
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 60));
    }
    const probe = await service.probe();
    benchLoop.disable();
    const benchCpu = process.cpuUsage(benchCpuBefore);
    // by kind of Chromium process (its --type: renderer, gpu-process, utility; none: the browser process)
    const browserCpu = new Map<string, number>();
    for (const [pid, seconds] of otherCpu()) {
      const kind = /--type=([\w-]+)/.exec(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      browserCpu.set(kind, (browserCpu.get(kind) ?? 0) + seconds - (browserCpuBefore.get(pid) ?? 0));
    }
    const browserTotal = [...browserCpu.values()].reduce((sum, seconds) => sum + seconds, 0);
    const browserKinds = [...browserCpu].map(([kind, seconds]) => `${kind} ${seconds.toFixed(1)} s`).join(', ');
    const longTasks = await Promise.all([writerFrame, readerFrame].map((frame) => frame.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks)));
    if (unseen > 0) console.log(`  ${unseen} keystrokes were not seen within 10 s (left out of the figures below)`);
    latencies.sort((a, b) => a - b);
    console.log(`keystroke → other browser, 2 browsers + ${clientCount} headless clients on the document, ${keystrokes} keystrokes:`);
    console.log(`  p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`);
    console.log(`  server: ${probeLine(probe)}`);
    const delay = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - 10).toFixed(1);
    console.log(
      `  headless clients' and Playwright's process: CPU ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s, ${((runqueueWaitNs() - benchWaitBefore) / 1e9).toFixed(1)} s waiting for a core; ` +
        `event loop delay p50 ${delay(benchLoop.percentile(50))} ms, p99 ${delay(benchLoop.percentile(99))} ms, max ${delay(benchLoop.max)} ms`,
    );
    const longTaskLine = (durations: number[]) =>
      `${durations.length} long tasks, ${durations.reduce((sum, duration) => sum + duration, 0).toFixed(0)} ms (longest ${Math.max(0, ...durations).toFixed(0)} ms)`;
    console.log(`  browsers: CPU ${browserTotal.toFixed(1)} s (${browserKinds}); writer's editor ${longTaskLine(longTasks[0]!)}; reader's editor ${longTaskLine(longTasks[1]!)}`);
    console.log(`  ${loadLine(loadBefore)}`);
  } finally {
    clearInterval(background);
    for (const context of contexts) await context.close();
    for (const client of clients) disconnect(client);
  }
}

export default async function editorBench(args: string[]): Promise<void> {
  const runs = Number(args[0] ?? 10);
  const keystrokes = Number(args[1] ?? 200);
  const clientCount = Number(args[2] ?? 50);

  execFileSync('npm', ['run', '--silent', 'build:browser'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  bundleSizes();

  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  const users = [...USERS, ...Array.from({ length: clientCount }, (_, index) => headlessUser(index))];
  for (const user of users) integrator.addUser({ id: user, name: user, token: tokenOf(user) });
  const grants = Object.fromEntries(users.map((user) => [user, { ...ALL_PERMISSIONS }]));
  for (const fileId of ['open-time', 'keystrokes']) integrator.addFile({ id: fileId, type: 'document', grants });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url });
  const host = await startHostPage(service.url);
  // BENCH_BROWSER_GL=swiftshader: the browsers as the tests run them, with emulated GL (about a core of this
  // machine while typing; docs/PERFORMANCE.md "The keystroke tail with 50 clients")
  const emulatedGl = process.env.BENCH_BROWSER_GL === 'swiftshader';
  console.log(`browsers: ${emulatedGl ? 'emulated GL (SwiftShader in the browser process)' : 'software rendering (--disable-gpu)'}`);
  const browser = await launchBrowser({ softwareRendering: !emulatedGl });
  try {
    for (const fileId of ['open-time', 'keystrokes']) await createFile(service, fileId, 'document', tokenOf('writer'));
    // a document of some substance to open: 200 paragraphs
    const seed = await connect(service, 'open-time', tokenOf('writer'));
    seed.doc.getXmlFragment('default').insert(0, Array.from({ length: 200 }, (_, i) => paragraph(`Paragraph ${i}: the quick brown fox jumps over the lazy dog.`)));
    await until(() => !seed.provider.hasUnsyncedChanges, 'seed document stored');
    disconnect(seed);
    await openTimes(browser, host, service, runs);
    await keystrokeLatency(browser, host, service, keystrokes, clientCount);
  } finally {
    await browser.close();
    await host.close();
    await service.close();
    await integrator.close();
  }
}
