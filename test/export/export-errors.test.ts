import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_USER } from '../support/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService, type CallResult, type TestService } from '../support/service.js';
import { awaitExport, createFile, exportFile, paragraph, startExport, text, writeRichText } from './support.js';

function expectFailure(response: CallResult, http: number, status: number, message?: RegExp): void {
  expect(response.status, response.text).toBe(http);
  expect(response.body.status).toBe(status);
  if (message) expect(response.body.message).toMatch(message);
}

const LINK_TTL_MS = 1500;

for (const database of testDatabases()) {
  // several exports per test, each a worker thread and for pdf/jpg Chromium: slow on a loaded machine
  describe(`export refusals and download links [${database.name}]`, { timeout: 180_000 }, () => {
    let svc: TestService;
    beforeEach(async () => {
      const defaults = (await import('../../src/config.js')).loadConfig({});
      // PATH without LibreOffice: wps must be refused whatever the machine has installed
      svc = await startService(database, { integrator: true, export: { ...defaults.export, linkTtlMs: LINK_TTL_MS }, soffice: undefined });
      await createFile(svc, 'doc', 'document', 'doc');
      await writeRichText(svc, 'doc', [paragraph(text('hello'))]);
    });
    afterEach(async () => {
      await svc.close();
    });

    it('refuses a type the file kind does not offer, or no format at all, with 122002 and the formats it offers', async () => {
      await createFile(svc, 'sheet', 'spreadsheet');
      const wrong = await startExport(svc, 'sheet', 'docx');
      expectFailure(wrong, 400, 122002, /spreadsheet file cannot be exported as docx; it exports as xlsx, csv, pdf/);
      expect(wrong.body.data).toEqual({ available: ['xlsx', 'csv', 'pdf'] });
      expectFailure(await startExport(svc, 'doc', 'exe'), 400, 122002, /not an export format/);
      await createFile(svc, 'base', 'table');
      expectFailure(await startExport(svc, 'base', 'csv'), 400, 122002);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/export/table-sheets/doc'), 400, 122002, /document file cannot be exported as xlsx/);
    });

    it('refuses wps without LibreOffice at once with 122003 naming the component, and starts no task', async () => {
      const response = await startExport(svc, 'doc', 'wps');
      expectFailure(response, 501, 122003, /LibreOffice/);
      expect(response.body.data).toEqual({ component: 'libreoffice' });
      const tasks = await svc.services.storage.db.selectFrom('tasks').select('id').where('app_id', '=', svc.app.id).execute();
      expect(tasks).toEqual([]);
    });

    it('checks the request: body shape 122001, missing file 70013, the exportable permission 40300, a token', async () => {
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/v1/export/doc', { body: {} }), 400, 122001);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/v1/export/doc', { body: { type: 7 } }), 400, 122001);
      expectFailure(await startExport(svc, 'nope', 'docx'), 404, 70013);
      svc.integrator.grant('doc', DEFAULT_USER.id, { exportable: false });
      expectFailure(await startExport(svc, 'doc', 'docx'), 403, 40300);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/v1/export/doc', { body: { type: 'docx' }, token: null }), 401, 30007);
    });

    it('progress: taskId from the body or the query; unknown tasks, import tasks and other apps\' tasks are 404 / 120001', async () => {
      const started = await startExport(svc, 'doc', 'md');
      const taskId = started.body.data.taskId as string;
      const byQuery = await svc.call('POST', '/sdk/v2/api/files/v1/export/progress', { query: { taskId } });
      expect(byQuery.status, byQuery.text).toBe(200);
      expect(byQuery.body.data.progress).toBeGreaterThanOrEqual(0);
      expect(typeof byQuery.body.data.downloadUrl).toBe('string');
      const done = await awaitExport(svc, taskId);
      expect(done.body.data.progress).toBe(100);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/v1/export/progress'), 400, 122001, /taskId is required/);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/v1/export/progress', { body: { taskId: 'no-such-task' } }), 404, 120001);
      const other = await svc.createApp({ name: 'Other', endpointUrl: svc.integrator.url });
      const signature = await svc.sign({}, other);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/v1/export/progress', { body: { taskId }, signature }), 404, 120001);
    });

    it('a failed export answers its code on progress', async () => {
      // a file deleted after the export was accepted: the task fails with the file's code
      const started = await startExport(svc, 'doc', 'docx');
      const deleted = await svc.call('DELETE', '/sdk/v2/api/files/doc');
      expect(deleted.status, deleted.text).toBe(200);
      const done = await awaitExport(svc, started.body.data.taskId as string);
      expectFailure(done, 404, 70013);
      expect(done.body.data.taskId).toBe(started.body.data.taskId);
    });

    it('the download link needs no credentials, refuses alteration (122006), expires (122007) and its file is removed', async () => {
      const { downloadUrl, bytes } = await exportFile(svc, 'doc', 'md');
      expect(bytes.toString('utf8')).toBe('hello\n');
      const url = new URL(downloadUrl);
      expect(url.origin).toBe(svc.url);
      const altered = new URL(url);
      altered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60_000));
      const refused = await fetch(altered);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { status: number }).status).toBe(122006);
      const forged = new URL(url);
      forged.searchParams.set('sig', 'A'.repeat(43));
      expect((await fetch(forged)).status).toBe(403);
      const unknown = new URL(url);
      unknown.pathname = '/sdk/v2/exports/unknown-id';
      expect((await fetch(unknown)).status).toBe(403);

      await new Promise((resolve) => setTimeout(resolve, LINK_TTL_MS + 50));
      const expired = await fetch(url);
      expect(expired.status).toBe(410);
      expect(((await expired.json()) as { status: number }).status).toBe(122007);
      expect(await svc.services.exports.sweep()).toBe(1);
      const rows = await svc.services.storage.db.selectFrom('export_files').select('id').execute();
      expect(rows).toEqual([]);
      const afterSweep = await fetch(url);
      expect(afterSweep.status).toBe(410);
    });
  });
}

describe('wps export through LibreOffice (a stand-in soffice records the call)', { timeout: 180_000 }, () => {
  it('converts the docx with the Word 97 filter in a temporary directory it removes, and serves it as .wps', async () => {
    const { mkdtempSync, writeFileSync, readdirSync, readFileSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    // LibreOffice is an optional component many machines lack (test/import/libreoffice.test.ts runs the real one
    // where it is): this stand-in answers as `soffice --convert-to` does (writes <outdir>/input.doc) and records
    // its arguments, so the plumbing around it is what is tested.
    const bin = mkdtempSync(path.join(os.tmpdir(), 'fake-soffice-'));
    const soffice = path.join(bin, 'soffice');
    writeFileSync(
      soffice,
      `#!/bin/sh\nprintf '%s\\n' "$@" > "${bin}/args"\nwhile [ $# -gt 1 ]; do if [ "$1" = "--outdir" ]; then out="$2"; fi; shift; done\nmkdir -p "$out"\n{ printf 'WORD97:'; cat "$1"; } > "$out/input.doc"\n`,
      { mode: 0o755 },
    );
    const before = readdirSync(os.tmpdir()).filter((name) => name.startsWith('svc-soffice-')).length;
    const [database] = testDatabases();
    const { loadConfig } = await import('../../src/config.js');
    // found on the PATH at start
    expect(loadConfig({ PATH: `/nonexistent${path.delimiter}${bin}` }).soffice).toBe(soffice);
    expect(loadConfig({ PATH: '/nonexistent' }).soffice).toBeUndefined();
    const svc = await startService(database!, { integrator: true, soffice });
    try {
      await createFile(svc, 'letter', 'document', 'Letter 信');
      await writeRichText(svc, 'letter', [paragraph(text('Dear friend'))]);
      const { bytes, response } = await exportFile(svc, 'letter', 'wps');
      expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Letter 信.wps')}`);
      expect(bytes.subarray(0, 7).toString('latin1')).toBe('WORD97:');
      expect(bytes.subarray(7, 9).toString('latin1')).toBe('PK'); // what LibreOffice was given: the docx
      const args = readFileSync(path.join(bin, 'args'), 'utf8').split('\n');
      expect(args).toContain('--headless');
      expect(args[args.indexOf('--convert-to') + 1]).toBe('doc:MS Word 97');
      expect(args.find((arg) => arg.startsWith('-env:UserInstallation=file://'))).toBeDefined();
      expect(readdirSync(os.tmpdir()).filter((name) => name.startsWith('svc-soffice-')).length).toBe(before);
    } finally {
      await svc.close();
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
