/**
 * The export part of `npm run bench -- import-export` (issue 16): a 200-page document (headings, paragraphs
 * with marks and Chinese text, a table every ten pages) written through a collaboration client, then exported
 * through the HTTP API to docx and to pdf, each timed from the export call to the downloaded file (task queue,
 * worker thread, Chromium, storing, the signed link). The pdf's page count is read back to confirm the size.
 * The first pdf includes launching Chromium; the figures reported are of a second, warm run as well.
 */
import * as Y from 'yjs';
import { extractText, getDocumentProxy } from 'unpdf';
import { connect, createFile, disconnect, until } from './_clients.js';
import type { BenchService } from './_service.js';

const PAGES = 200;
const PARAGRAPHS_PER_PAGE = 11;
const SENTENCE = 'The quarterly figures show steady growth across every region, with costs kept in line and new customers arriving each month.';
const CHINESE = '本季度各地区业绩稳步增长，成本控制良好，每月都有新客户加入。';

function textBlock(name: string, runs: Array<[string, Record<string, unknown>?]>, attrs: Record<string, string | number> = {}): Y.XmlElement {
  const element = new Y.XmlElement(name);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value as string);
  const text = new Y.XmlText();
  text.applyDelta(runs.map(([insert, attributes]) => ({ insert, attributes: attributes ?? {} })));
  element.insert(0, [text]);
  return element;
}

function table(page: number): Y.XmlElement {
  const element = new Y.XmlElement('table');
  const rows = Array.from({ length: 6 }, (_, row) => {
    const tableRow = new Y.XmlElement('tableRow');
    tableRow.insert(
      0,
      Array.from({ length: 4 }, (_, column) => {
        const cell = new Y.XmlElement(row === 0 ? 'tableHeader' : 'tableCell');
        cell.insert(0, [textBlock('paragraph', [[row === 0 ? `Column ${column + 1}` : `${page}.${row}.${column}`]])]);
        return cell;
      }),
    );
    return tableRow;
  });
  element.insert(0, rows);
  return element;
}

/** The blocks of page `page`: a heading, paragraphs (a bold run, Chinese in every other one), a table every tenth page. */
function pageBlocks(page: number): Y.XmlElement[] {
  const blocks = [textBlock('heading', [[`Section ${page + 1} 第${page + 1}节`]], { level: 2 })];
  for (let p = 0; p < PARAGRAPHS_PER_PAGE; p++) {
    blocks.push(textBlock('paragraph', [[`${page + 1}.${p + 1} `, { bold: {} }], [`${SENTENCE} ${p % 2 === 0 ? CHINESE : SENTENCE}`]]));
  }
  if (page % 10 === 9) blocks.push(table(page));
  return blocks;
}

async function call(service: BenchService, token: string, path: string, body: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'x-svc-signature': service.signature, 'x-svc-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { status: number; data: Record<string, unknown> };
}

/** One export from the call to the downloaded bytes, polling progress every 100 ms. */
async function timedExport(service: BenchService, token: string, fileId: string, type: string): Promise<{ ms: number; bytes: Uint8Array }> {
  const started = performance.now();
  const created = await call(service, token, `/sdk/v2/api/files/v1/export/${fileId}`, { type });
  if (created.status !== 0) throw new Error(`export ${type}: ${JSON.stringify(created)}`);
  for (;;) {
    const progress = await call(service, token, '/sdk/v2/api/files/v1/export/progress', { taskId: created.data.taskId });
    if (progress.status !== 0) throw new Error(`export ${type} failed: ${JSON.stringify(progress)}`);
    if (progress.data.progress === 100) {
      const bytes = new Uint8Array(await (await fetch(String(progress.data.downloadUrl))).arrayBuffer());
      return { ms: performance.now() - started, bytes };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function exportBench(service: BenchService, token: string): Promise<void> {
  await createFile(service, 'export-200', 'document', token);
  const writer = await connect(service, 'export-200', token);
  const root = writer.doc.getXmlFragment('default');
  writer.doc.transact(() => {
    for (let page = 0; page < PAGES; page++) root.insert(root.length, pageBlocks(page));
  });
  await until(() => !writer.provider.hasUnsyncedChanges, 'document stored', 120_000);
  disconnect(writer);
  console.log(`export: document of ${root.length} blocks (${PAGES} pages of ${PARAGRAPHS_PER_PAGE} paragraphs and a heading, a table every 10 pages)`);

  for (const round of ['first', 'warm']) {
    const docx = await timedExport(service, token, 'export-200', 'docx');
    console.log(`export: docx (${round}) ${(docx.ms / 1000).toFixed(2)} s, ${(docx.bytes.length / 1024).toFixed(0)} KiB`);
    const pdf = await timedExport(service, token, 'export-200', 'pdf');
    const size = pdf.bytes.length;
    // unpdf takes the buffer over: its size is read first
    const pages = (await extractText(await getDocumentProxy(pdf.bytes), { mergePages: true })).totalPages;
    console.log(`export: pdf (${round}) ${(pdf.ms / 1000).toFixed(2)} s, ${pages} pages, ${(size / 1024).toFixed(0)} KiB`);
  }
  const memory = service.memory();
  console.log(`export: server RSS ${memory.rssMiB.toFixed(0)} MiB now, peak ${memory.peakMiB.toFixed(0)} MiB`);
}
