/**
 * Preview benchmark (issue 16 point 4): `npm run bench -- preview [pages] [imageMiB]` (default 2,000 pages, the
 * viewer's limit, and a 40 MiB image). Starts the service as its own process (bench/_service.ts, SQLite) with the
 * reference integrator serving the files at /download/{id}, asks `cloud-files/{id}/create` for a pdf of that many
 * pages and a PNG of random pixels (it does not compress), polls the viewer page every 100 ms until it is ready, and
 * reports the time from create to ready, the viewer page's size, the time to fetch the part its link names, and the
 * server's memory.
 */
import { ALL_PERMISSIONS, startIntegrator } from '../examples/integrator/integrator.js';
import { noisyPng } from '../test/attachments/images.js';
import { pdfFixture } from '../test/support/pdf-fixtures.js';
import { startBenchService, type BenchService } from './_service.js';

const APP_ID = 'bench-preview';
const SECRET = 'bench-preview-secret-bench-preview-secret';
const TOKEN = 'bench-token';

/** Creates the preview and opens its page until it is the viewer; answers the seconds taken and the page. */
async function previewOf(service: BenchService, fileId: string): Promise<{ seconds: number; page: string }> {
  const headers = { 'x-svc-signature': service.signature, 'x-svc-token': TOKEN };
  const started = performance.now();
  const created = await fetch(`${service.url}/sdk/v2/api/cloud-files/${fileId}/create`, { method: 'POST', headers });
  if (!created.ok) throw new Error(`create ${fileId}: ${created.status} ${await created.text()}`);
  for (;;) {
    const page = await (await fetch(`${service.url}/sdk/v2/api/cloud-files/${fileId}/page?lang=en`, { headers })).text();
    if (page.includes('role="alert"')) throw new Error(`preview of ${fileId} failed: ${page.slice(page.indexOf('<code>'), page.indexOf('<code>') + 300)}`);
    if (page.includes('id="svc-preview"')) return { seconds: (performance.now() - started) / 1000, page };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Fetches the part the page's data links first (the file, or page 1); answers its size and the time taken. */
async function firstPart(service: BenchService, fileId: string, page: string): Promise<{ bytes: number; ms: number }> {
  const data = JSON.parse(page.match(/id="svc-preview">(.*?)<\/script>/)![1]!) as { src?: string; pages?: string[] };
  const link = data.src ?? data.pages![0]!;
  const started = performance.now();
  const response = await fetch(`${service.url}/sdk/v2/api/cloud-files/${fileId}/${link}`);
  const bytes = (await response.arrayBuffer()).byteLength;
  if (!response.ok) throw new Error(`part of ${fileId}: ${response.status}`);
  return { bytes, ms: performance.now() - started };
}

export default async function preview(args: string[]): Promise<void> {
  const pages = Number(args[0] ?? 2000);
  const imageMiB = Number(args[1] ?? 40);
  const side = Math.round(Math.sqrt((imageMiB * 1024 * 1024) / 3));
  const pdf = pdfFixture(Array.from({ length: pages }, (_, index) => `Page ${index + 1} of the benchmark`));
  const image = noisyPng(side, side);
  console.log(`pdf: ${pages} pages, ${(pdf.length / 1024 / 1024).toFixed(1)} MiB; png: ${side} × ${side}, ${(image.length / 1024 / 1024).toFixed(1)} MiB`);

  const integrator = await startIntegrator({ secretOf: (id) => (id === APP_ID ? SECRET : undefined) });
  integrator.addUser({ id: 'bench-user', name: 'Bench', token: TOKEN });
  const grants = { 'bench-user': { ...ALL_PERMISSIONS } };
  integrator.addFile({ id: 'long-pdf', name: 'long.pdf', type: 'file', ext: 'pdf', content: pdf, grants });
  integrator.addFile({ id: 'big-image', name: 'big.png', type: 'file', ext: 'png', content: image, grants });
  const service = await startBenchService({ appId: APP_ID, secret: SECRET, endpointUrl: integrator.url, env: { SVC_IMPORT_LIMIT: String(256 * 1024 * 1024), SVC_TASK_POLL_MS: '50' } });
  try {
    const before = service.memory();
    for (const [fileId, label] of [
      ['long-pdf', `pdf of ${pages} pages`],
      ['big-image', `png of ${(image.length / 1024 / 1024).toFixed(1)} MiB`],
    ] as const) {
      const built = await previewOf(service, fileId);
      const part = await firstPart(service, fileId, built.page);
      console.log(`${label}: create → viewer ready ${built.seconds.toFixed(2)} s; viewer page ${(Buffer.byteLength(built.page) / 1024).toFixed(1)} KiB; its file ${(part.bytes / 1024 / 1024).toFixed(1)} MiB fetched in ${part.ms.toFixed(0)} ms`);
    }
    const after = service.memory();
    console.log(`server RSS: ${before.rssMiB} MiB before, ${after.rssMiB} MiB after, peak ${after.peakMiB} MiB`);
  } finally {
    await service.close();
    await integrator.close();
  }
}
