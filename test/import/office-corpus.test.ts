import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles, countDocxFile, countPptxFile, DOCX_FEATURES, officeCorpusDirectory, PPTX_FEATURES, share, type Counts } from '../../scripts/office-fidelity.js';
import { exportFile } from '../export/support.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait } from './support.js';

/**
 * Real Word and PowerPoint files (issue 25 point 8, issue 26 point 2) through the real HTTP server: the files of
 * the office corpus (test/fixtures/office-corpus/README.md) named below import without a 5xx, export back to their
 * format as a well-formed package, and the re-export keeps at least the share of each feature it kept when the
 * floors were set (`npm run fidelity` measures the whole corpus in-process: docs/IMPORT-EXPORT.md "Fidelity over
 * real files"). The floors only go up. Without the corpus (it is not in git) the suite is skipped, and says so.
 */

/**
 * Small files that together carry every feature the corpus holds (chosen from the fidelity script's per-file
 * counts, `npm run fidelity -- --files`): a whole-corpus run through the server takes minutes, these take seconds.
 */
const SERVER_SET = [
  'mammoth__footnotes.docx',
  'python-docx__sct-first-page-hdrftr.docx',
  'mammoth__tiny-picture-target-base-relative.docx',
  'python-docx__par-hlink-frags.docx',
  'python-docx__tbl-cell-props.docx',
  'docx4j__conventions.docx',
  'docx4j__hyperlinks-internal.docx',
  'python-pptx__shp-connector-props.pptx',
  'python-pptx__ph-inherit-props.pptx',
  'python-pptx__tbl-cell.pptx',
  'python-pptx__txt-font-props.pptx',
];
/** Shares of each feature these files hold that the re-export keeps (headers, footers and footnotes: none yet). */
const DOCX_FLOORS: Partial<Record<(typeof DOCX_FEATURES)[number], number>> = {
  text: 0.93,
  headings: 1,
  listItems: 1,
  nestedListItems: 1,
  tables: 1,
  mergedCells: 1,
  images: 1,
  links: 0.9,
  pageBreaks: 1,
  bold: 1,
  italic: 1,
  underline: 1,
  fonts: 0.9,
  colours: 1,
};
const PPTX_FLOORS: Partial<Record<(typeof PPTX_FEATURES)[number], number>> = { text: 0.99, slides: 1, textBoxes: 1, placeholders: 1, tables: 1, images: 1 };

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 20, leaseMs: 10_000, maxAttempts: 1, retentionMs: 3_600_000 };
const directory = officeCorpusDirectory();
const sqlite = testDatabases()[0]!;

function add<F extends string>(total: Counts<F>, counts: Counts<F>, cap?: Counts<F>): void {
  for (const feature of Object.keys(counts) as F[]) total[feature] = (total[feature] ?? 0) + (cap ? Math.min(counts[feature], cap[feature]) : counts[feature]);
}

describe.skipIf(directory === undefined)('office corpus through the server', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(sqlite, { integrator: true, tasks: TASKS, imports: { limitBytes: 4 * 1024 * 1024, converterMemoryMb: 256, converterTimeoutMs: 60_000, fetchTimeoutMs: 2000 } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('imports every file, exports it back and keeps each feature at least as well as before', { timeout: 300_000 }, async () => {
    const files = corpusFiles(directory!).filter((file) => SERVER_SET.includes(path.basename(file)));
    expect(files.map((file) => path.basename(file)).sort()).toEqual([...SERVER_SET].sort());
    const held = { docx: {} as Counts<(typeof DOCX_FEATURES)[number]>, pptx: {} as Counts<(typeof PPTX_FEATURES)[number]> };
    const kept = { docx: {} as Counts<(typeof DOCX_FEATURES)[number]>, pptx: {} as Counts<(typeof PPTX_FEATURES)[number]> };
    const failures: string[] = [];
    // one at a time: the import's converter thread stays warm from one file to the next
    for (const [index, file] of files.entries()) {
      const name = path.basename(file);
      const format = name.endsWith('.pptx') ? 'pptx' : 'docx';
      const fileId = `corpus-${index}`;
      const bytes = new Uint8Array(fs.readFileSync(file));
      const done = await importAndWait(svc, { fileId, type: format === 'pptx' ? 'presentation' : 'document' }, { name, data: bytes });
      if (done.status >= 500 || done.body.status !== 0) {
        failures.push(`${name}: ${done.status} ${done.text.slice(0, 200)}`);
        continue;
      }
      const exported = new Uint8Array((await exportFile(svc, fileId, format)).bytes);
      if (format === 'docx') {
        const source = await countDocxFile(bytes);
        add(held.docx, source);
        add(kept.docx, await countDocxFile(exported), source);
      } else {
        const source = await countPptxFile(bytes);
        add(held.pptx, source);
        add(kept.pptx, await countPptxFile(exported), source);
      }
    }
    expect(failures).toEqual([]);
    const shares = (floors: Partial<Record<string, number>>, heldCounts: Record<string, number>, keptCounts: Record<string, number>) =>
      Object.fromEntries(Object.keys(floors).map((feature) => [feature, Math.round(share(keptCounts[feature] ?? 0, heldCounts[feature] ?? 0) * 1000) / 1000]));
    const docxShares = shares(DOCX_FLOORS, held.docx, kept.docx);
    const pptxShares = shares(PPTX_FLOORS, held.pptx, kept.pptx);
    console.log('office corpus, kept on export:', JSON.stringify({ docx: docxShares, pptx: pptxShares }));
    for (const [feature, floor] of Object.entries(DOCX_FLOORS)) expect(docxShares[feature], `docx ${feature}`).toBeGreaterThanOrEqual(floor!);
    for (const [feature, floor] of Object.entries(PPTX_FLOORS)) expect(pptxShares[feature], `pptx ${feature}`).toBeGreaterThanOrEqual(floor!);
  });
});
