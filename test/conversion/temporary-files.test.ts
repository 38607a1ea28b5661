import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import chromium from '@sparticuz/chromium';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Scratch } from '../../src/domain/conversion/scratch.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { crashTestApp, killed, startServiceProcess } from '../support/processes.js';
import { sign } from '../support/signing.js';
import { startService, type TestService } from '../support/service.js';
import { createFile, exportFile, paragraph, text, writeRichText } from '../export/support.js';
import { importAndWait } from '../import/support.js';

/**
 * Converters write nothing to TMPDIR and leave nothing in the data dir (docs/IMPORT-EXPORT.md "Temporary files"):
 * TMPDIR is a fresh folder for the test, listed with the data dir before and after imports and exports that used
 * to write there (an xlsx whose worksheets come before its shared strings, or that has none: exceljs copied each
 * sheet to a temporary file; a pdf export: Chromium's profile and Playwright's artifacts folders), and after a
 * service process killed outright is followed by a new one.
 */

/**
 * Every file and folder under `dir`, relative, sorted; but for the cache of tsx, which runs the service's
 * TypeScript in tests (its worker threads, the service processes), not in production (dist/).
 */
function listing(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((entry) => !/^tsx-\d+(\/|$)/.test(entry))
    .sort();
}

/**
 * A workbook as Excel orders its zip (worksheets before the shared strings), which exceljs' stream reader
 * cannot read as it streams; `inlineStrings` drops the shared strings part altogether (text inline in the cells).
 */
async function excelOrderedWorkbook(inlineStrings: boolean): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Budget');
  sheet.addRow(['Item', 'Cost']);
  for (let row = 2; row <= 200; row++) sheet.addRow([`Line ${row}`, row * 10]);
  sheet.addRow(['Total', { formula: 'SUM(B2:B200)', result: 0 }]);
  const written = await JSZip.loadAsync(await book.xlsx.writeBuffer());
  const names = Object.keys(written.files).filter((name) => !written.files[name]!.dir);
  const worksheetsFirst = [...names.filter((name) => name.startsWith('xl/worksheets/')), ...names.filter((name) => !name.startsWith('xl/worksheets/'))];
  const reordered = new JSZip();
  for (const name of worksheetsFirst) {
    if (inlineStrings && name === 'xl/sharedStrings.xml') continue;
    let content = await written.file(name)!.async('string');
    if (inlineStrings && name === 'xl/worksheets/sheet1.xml') content = inlined(content, await written.file('xl/sharedStrings.xml')!.async('string'));
    if (inlineStrings) content = content.replace(/<Override PartName="\/xl\/sharedStrings\.xml"[^>]*\/>/, '').replace(/<Relationship [^>]*Target="sharedStrings\.xml"[^>]*\/>/, '');
    reordered.file(name, content);
  }
  return reordered.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** The worksheet with each shared string cell (`t="s"`) written as an inline string. */
function inlined(sheetXml: string, sharedStringsXml: string): string {
  const strings = [...sharedStringsXml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((match) => match[1]!);
  return sheetXml.replace(/<c ([^>]*?)t="s"([^>]*)><v>(\d+)<\/v><\/c>/g, (_cell, before: string, after: string, index: string) => `<c ${before}t="inlineStr"${after}><is>${strings[Number(index)]}</is></c>`);
}

let executablePath: string;
let watchedTmp: string;
/** what was created in TMPDIR while watched, even if removed since (exceljs removed its copy after a success) */
let createdInTmp: string[];
let watcher: fs.FSWatcher | undefined;
const originalTmp = process.env.TMPDIR;

beforeAll(async () => {
  // Chromium's binary is unpacked once into the system's temporary folder, like an installed program (docs/IMPORT-EXPORT.md): done before the watch starts
  executablePath = process.env.CHROMIUM_PATH || (await chromium.executablePath());
});

function watchTmpdir(): void {
  const tsxCache = path.join(os.tmpdir(), `tsx-${os.userInfo().uid}`);
  watchedTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-watched-tmp-'));
  // a service process compiles the whole server without tsx's cache: longer than a process start may take
  if (fs.existsSync(tsxCache)) fs.symlinkSync(tsxCache, path.join(watchedTmp, path.basename(tsxCache)));
  createdInTmp = [];
  watcher = fs.watch(watchedTmp, (_event, name) => {
    if (name && !/^tsx-\d+$/.test(name) && !createdInTmp.includes(name)) createdInTmp.push(name);
  });
  process.env.TMPDIR = watchedTmp;
}

function restoreTmpdir(): void {
  watcher?.close();
  if (originalTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmp;
  fs.rmSync(watchedTmp, { recursive: true, force: true });
}

for (const database of testDatabases()) {
  describe(`no temporary files [${database.name}]`, { timeout: 180_000 }, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true, export: { ...loadConfig({}).export, chromiumPath: executablePath } });
      watchTmpdir();
    });
    afterAll(async () => {
      await svc?.close();
      restoreTmpdir();
    });

    it('xlsx imports and pdf, docx and xlsx exports leave TMPDIR and the data dir as they found them', async () => {
      const dataDir = svc.services.config.dataDir;
      const dataBefore = listing(dataDir);
      expect(listing(watchedTmp)).toEqual([]);

      for (const inlineStrings of [false, true]) {
        const imported = await importAndWait(svc, { fileId: `budget-${inlineStrings}`, type: 'spreadsheet' }, { name: 'budget.xlsx', data: await excelOrderedWorkbook(inlineStrings) });
        expect(imported.body, imported.text).toMatchObject({ status: 0, data: { progress: 100 } });
        const cells = await svc.call('GET', `/sdk/v2/collab-files/budget-${inlineStrings}/plain-text`);
        expect(cells.text).toContain('Line 200');
        expect(createdInTmp, 'written to TMPDIR while importing an xlsx').toEqual([]);
      }
      const { bytes: workbook } = await exportFile(svc, 'budget-false', 'xlsx');
      expect(workbook.subarray(0, 2).toString()).toBe('PK');

      await createFile(svc, 'note', 'document', 'Note');
      await writeRichText(svc, 'note', [paragraph(text('A short note'))]);
      for (const type of ['pdf', 'docx']) {
        const { bytes } = await exportFile(svc, 'note', type);
        expect(bytes.length).toBeGreaterThan(100);
        expect(createdInTmp, `written to TMPDIR during a ${type} export`).toEqual([]);
      }

      // the one folder of this process under scratch/, with the running browser's folder in it
      const scratch = listing(dataDir).filter((entry) => !dataBefore.includes(entry));
      expect(scratch.every((entry) => entry.startsWith(path.relative(dataDir, svc.services.scratch.dir)))).toBe(true);
      await svc.services.exports.stop(); // the browser closes: its folder goes
      expect(listing(dataDir)).toEqual(dataBefore);
      expect(listing(watchedTmp)).toEqual([]);
      expect(createdInTmp).toEqual([]);
    });
  });

  describe(`a killed process's scratch folders [${database.name}]`, { timeout: 240_000 }, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });
    afterAll(restoreTmpdir);

    it('a process killed during a pdf export leaves its Chromium folder in scratch/, not TMPDIR; the next process removes it at start', async () => {
      const fresh = await database.fresh();
      cleanup.push(() => fresh.dispose());
      watchTmpdir();
      const env = { TMPDIR: watchedTmp, CHROMIUM_PATH: executablePath };
      const first = await startServiceProcess(fresh.options, env);
      cleanup.push(async () => first.exitCode === null && first.signalCode === null && killed(first));
      const scratchRoot = path.join(fresh.options.dataDir, 'scratch');
      const [processFolder] = fs.readdirSync(scratchRoot);
      expect(processFolder).toBe(`p${first.pid}-${processFolder!.split('-')[1]}`);

      const { app } = await crashTestApp(fresh.options, cleanup);
      const headers = { 'content-type': 'application/json', 'x-svc-signature': await sign(app.id, app.secret), 'x-svc-token': DEFAULT_USER.token };
      expect((await fetch(`${first.url}/sdk/v2/api/files`, { method: 'POST', headers, body: JSON.stringify({ type: 'document', fileId: 'doc' }) })).status).toBe(200);
      const started = await fetch(`${first.url}/sdk/v2/api/files/v1/export/doc`, { method: 'POST', headers, body: JSON.stringify({ type: 'pdf' }) });
      expect(started.status).toBe(200);
      await eventually(() => fs.readdirSync(path.join(scratchRoot, processFolder!)).some((entry) => entry.startsWith('chromium-')), 'Chromium launched with its folder in scratch/', 120_000);
      await killed(first);
      expect(fs.readdirSync(path.join(scratchRoot, processFolder!)).length).toBeGreaterThan(0);

      const second = await startServiceProcess(fresh.options, env);
      cleanup.push(async () => second.exitCode === null && second.signalCode === null && killed(second));
      expect(fs.readdirSync(scratchRoot)).toEqual([expect.stringMatching(new RegExp(`^p${second.pid}-`))]);
      expect(listing(watchedTmp)).toEqual([]);
      expect(createdInTmp).toEqual([]);
    });
  });
}

describe('Scratch', () => {
  it('at start removes the folders of processes that no longer run, keeps those of running ones', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-scratch-'));
    try {
      const gone = await new Promise<number>((resolve) => {
        const child = spawn(process.execPath, ['-e', '']);
        child.on('exit', () => resolve(child.pid!));
      });
      const parentPid = process.ppid;
      for (const folder of [`p${gone}-old/chromium-x/profile`, `p${parentPid}-live/soffice-y`, 'stray']) fs.mkdirSync(path.join(dataDir, 'scratch', folder), { recursive: true });
      const scratch = Scratch.open(dataDir);
      expect(fs.readdirSync(path.join(dataDir, 'scratch')).sort()).toEqual([path.basename(scratch.dir), `p${parentPid}-live`].sort());
      const folder = await scratch.folder('task');
      fs.writeFileSync(path.join(folder.path, 'part'), 'x');
      await expect(scratch.within('failing', async (dir) => Promise.reject(new Error(`failed in ${path.basename(dir)}`)))).rejects.toThrow(/failed in failing-/);
      await folder.release();
      expect(fs.readdirSync(scratch.dir)).toEqual([]);
      scratch.close();
      expect(fs.readdirSync(path.join(dataDir, 'scratch'))).toEqual([`p${parentPid}-live`]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
