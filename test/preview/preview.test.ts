import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { PDF_MAX_PAGES } from '../../src/domain/preview/preview-service.js';
import { viewSignature } from '../../src/domain/preview/view-link.js';
import type { ViewerData } from '../../src/model/viewer-data.js';
import { png } from '../attachments/images.js';
import { testDatabases } from '../support/databases.js';
import { pdfFixture } from '../support/pdf-fixtures.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { create, page, part, settledPage, viewerData, xlsxFixture } from './support.js';

const TASKS = { worker: true, concurrency: 2, perAppConcurrency: 2, pollMs: 50, leaseMs: 10_000, maxAttempts: 2, retentionMs: 3_600_000 };

async function docxFixture(): Promise<Buffer> {
  const doc = new Document({
    sections: [{ children: [new Paragraph({ children: [new TextRun('Quarterly preview report')] }), new Paragraph({ children: [new TextRun('<script>alert(1)</script> & more')] })] }],
  });
  return Packer.toBuffer(doc);
}

/** Serves fixtures by path, as an integrator's file store would. */
let fixtures: http.Server;
let fixtureUrl: string;
const served = new Map<string, Buffer>();

beforeAll(async () => {
  served.set('/report.docx', await docxFixture());
  served.set('/picture.png', png(40, 30));
  served.set('/book.xlsx', await xlsxFixture());
  served.set('/archive.zip', Buffer.from('PK not really'));
  served.set('/three.pdf', pdfFixture(['First page', 'Second page', 'Third page']));
  served.set('/locked.pdf', pdfFixture(['Locked away'], { password: 'open sesame' }));
  served.set('/damaged.pdf', pdfFixture(['Cut short', 'Never seen']).subarray(0, 180));
  served.set('/notes.pdf', Buffer.from('%PDF-1.7\nthese are notes, not a pdf'));
  served.set('/endless.pdf', pdfFixture(Array.from({ length: PDF_MAX_PAGES + 1 }, (_, index) => `Page ${index + 1}`)));
  fixtures = http.createServer((request, response) => {
    const body = served.get(request.url ?? '');
    if (!body) response.writeHead(404).end();
    else response.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  fixtureUrl = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => fixtures.close(() => resolve())));

function addPreviewFile(svc: TestService, id: string, name: string, ext: string, downloadUrl: string): void {
  svc.integrator.addFile({ id, name, type: 'file', ext, downloadUrl, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
}

for (const database of testDatabases()) {
  describe(`preview [${database.name}]`, { timeout: 120_000 }, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, tasks: TASKS, imports: { limitBytes: 2 * 1024 * 1024, converterMemoryMb: 256, converterTimeoutMs: 60_000, fetchTimeoutMs: 2000 } });
    });
    afterEach(async () => {
      await svc.close();
    });

    it('a docx is read by the importer and shown as the export HTML, escaped, from its own sandboxed link', async () => {
      addPreviewFile(svc, 'report', 'Report.docx', 'docx', `${fixtureUrl}/report.docx`);
      const created = await svc.call('POST', create('report'));
      expect(created.status, created.text).toBe(200);
      expect(created.body).toEqual({ code: 0, message: 'success' });
      const shown = await settledPage(svc, 'report');
      expect(shown.status, shown.text).toBe(200);
      expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
      const policy = shown.headers.get('content-security-policy') ?? '';
      expect(policy).toContain('frame-ancestors *');
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toContain('unsafe-eval');
      expect(shown.text).toContain('Zoom in');
      expect(shown.text).toMatch(/<script type="module" src="\/sdk\/v2\/editor\/assets\/preview-[\w-]+\.js">/);
      // nothing of the file is in the viewer page itself
      expect(shown.text).not.toContain('Quarterly preview report');
      const data = viewerData(shown);
      expect(data).toMatchObject({ shows: 'pages', layout: 'document' });
      const pages = (data as Extract<ViewerData, { shows: 'pages' }>).pages;
      expect(pages).toHaveLength(1);
      expect(pages[0]).toMatch(/^view\/pages\/1\?app=.+&task=.+&expires=\d+&sig=[\w-]+$/);

      const page1 = await part(svc, 'report', pages[0]!);
      const html = await page1.text();
      expect(page1.status, html).toBe(200);
      expect(page1.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page1.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page1.headers.get('cache-control')).toMatch(/^private, max-age=\d+, immutable$/);
      expect(page1.headers.get('content-security-policy')).toMatch(/^sandbox allow-same-origin; default-src 'none'/);
      expect(page1.headers.get('content-security-policy')).toContain("frame-ancestors 'self' *");
      expect(html).toContain('Quarterly preview report');
      expect(html).not.toContain('<script>alert');
      expect(html).toContain('&lt;script&gt;alert(1)');
      const chinese = await svc.call('GET', page('report'), { query: { lang: 'zh-CN' } });
      expect(chinese.text).toContain('放大');
    });

    it('a workbook is one page per sheet, each at its own link; with a token the read permission is asked again on the page', async () => {
      addPreviewFile(svc, 'book', 'Book.xlsx', 'xlsx', `${fixtureUrl}/book.xlsx`);
      expect((await svc.call('POST', create('book'))).status).toBe(200);
      const shown = await settledPage(svc, 'book');
      expect(shown.status, shown.text).toBe(200);
      expect(shown.text).toContain('id="next"');
      const data = viewerData(shown) as Extract<ViewerData, { shows: 'pages' }>;
      expect(data).toMatchObject({ shows: 'pages', layout: 'sheet' });
      expect(data.pages).toHaveLength(2);
      const [first, second] = await Promise.all(data.pages.map(async (link) => (await part(svc, 'book', link)).text()));
      expect(first).toContain('Revenue');
      expect(first).toContain('North');
      expect(first).not.toContain('Rent');
      expect(second).toContain('Costs');
      expect(second).toContain('Rent');
      const beyond = await part(svc, 'book', data.pages[1]!.replace('view/pages/2', 'view/pages/3'));
      expect(beyond.status).toBe(404);
      expect(await beyond.text()).toContain('<code>123003</code>');

      svc.integrator.grant('book', DEFAULT_USER.id, { readable: false });
      svc.services.access.forget();
      const refused = await svc.call('GET', page('book'), { query: { lang: 'en' } });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('<code>40300</code>');
    });

    it('an image is served from its link with its type, not inlined; without a token the application itself asks the integrator', async () => {
      addPreviewFile(svc, 'picture', 'Picture.png', 'png', `${fixtureUrl}/picture.png`);
      const created = await svc.call('POST', create('picture'), { token: null });
      expect(created.status, created.text).toBe(200);
      const shown = await settledPage(svc, 'picture');
      expect(shown.status, shown.text).toBe(200);
      expect(shown.text).not.toContain('base64');
      expect(shown.text).not.toContain('id="next"');
      const data = viewerData(shown) as Extract<ViewerData, { shows: 'image' }>;
      expect(data.shows).toBe('image');
      const image = await part(svc, 'picture', data.src);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(Buffer.from(await image.arrayBuffer()).equals(png(40, 30))).toBe(true);
    });

    it("the viewer carries the watermark of the user whose token opened it; opened without a token, or for a user without one, none", async () => {
      addPreviewFile(svc, 'marked', 'Marked.png', 'png', `${fixtureUrl}/picture.png`);
      svc.integrator.addUser({ id: 'marked-user', name: 'Marked', token: 'marked-token', watermark: ['Marked', 'Internal only'] });
      svc.integrator.grant('marked', 'marked-user', { readable: true });
      expect((await svc.call('POST', create('marked'))).status).toBe(200);
      expect(viewerData(await settledPage(svc, 'marked')).watermark).toEqual([]);
      const shown = await svc.call('GET', page('marked'), { query: { lang: 'en' }, token: 'marked-token' });
      expect(shown.status, shown.text).toBe(200);
      expect(viewerData(shown).watermark).toEqual(['Marked', 'Internal only']);
      const anonymous = await svc.call('GET', page('marked'), { query: { lang: 'en' }, token: null });
      expect(viewerData(anonymous).watermark).toEqual([]);
    });

    it('a pdf is checked and kept as it is, its page count recorded; the viewer fetches it from its link', async () => {
      addPreviewFile(svc, 'three', 'Three.pdf', 'pdf', `${fixtureUrl}/three.pdf`);
      expect((await svc.call('POST', create('three'))).status).toBe(200);
      const shown = await settledPage(svc, 'three');
      expect(shown.status, shown.text).toBe(200);
      expect(shown.headers.get('content-security-policy')).toContain("worker-src 'self'");
      expect(shown.headers.get('content-security-policy')).toContain("connect-src 'self'");
      const data = viewerData(shown) as Extract<ViewerData, { shows: 'pdf' }>;
      expect(data).toMatchObject({ shows: 'pdf', pageCount: 3 });
      const file = await part(svc, 'three', data.src);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(Buffer.from(await file.arrayBuffer()).equals(served.get('/three.pdf')!)).toBe(true);
    });

    it('a damaged pdf, a pdf that is no pdf, one with a password and one with too many pages give their codes', async () => {
      const cases: Array<[string, string, number]> = [
        ['damaged', '/damaged.pdf', 121005],
        ['notes', '/notes.pdf', 121005],
        ['locked', '/locked.pdf', 121006],
        ['endless', '/endless.pdf', 123004],
      ];
      for (const [id, path] of cases) {
        addPreviewFile(svc, id, `${id}.pdf`, 'pdf', `${fixtureUrl}${path}`);
        expect((await svc.call('POST', create(id))).status).toBe(200);
      }
      for (const [id, , code] of cases) {
        const shown = await settledPage(svc, id);
        expect(shown.status, shown.text).toBe(200);
        expect(shown.text, id).toContain(`<code>${code}</code>`);
        expect(shown.text).not.toContain('svc-preview');
      }
      const locked = await settledPage(svc, 'locked');
      expect(locked.text).toContain('password');
      const endless = await settledPage(svc, 'endless');
      expect(endless.text).toContain(`${PDF_MAX_PAGES + 1} pages`);
    });

    it("a part's link works only as made: altered, for another file, with another app's secret or expired it is refused", async () => {
      addPreviewFile(svc, 'three', 'Three.pdf', 'pdf', `${fixtureUrl}/three.pdf`);
      addPreviewFile(svc, 'picture', 'Picture.png', 'png', `${fixtureUrl}/picture.png`);
      expect((await svc.call('POST', create('three'))).status).toBe(200);
      expect((await svc.call('POST', create('picture'))).status).toBe(200);
      const { src } = viewerData(await settledPage(svc, 'three')) as Extract<ViewerData, { shows: 'pdf' }>;
      await settledPage(svc, 'picture');
      const link = new URLSearchParams(src.slice(src.indexOf('?') + 1));
      const grant = { appId: svc.app.id, fileId: 'three', taskId: link.get('task')!, expiresAt: Number(link.get('expires')) };
      const query = (changes: Record<string, string>) => `view/file?${new URLSearchParams({ ...Object.fromEntries(link), ...changes })}`;

      const expectRefused = async (fileId: string, path: string, status: number, code: number) => {
        const response = await part(svc, fileId, path);
        expect(response.status, path).toBe(status);
        expect(await response.text()).toContain(`<code>${code}</code>`);
      };
      await expectRefused('three', query({ sig: `${link.get('sig')!.slice(0, -2)}AA` }), 403, 123005);
      await expectRefused('picture', query({}), 403, 123005);
      await expectRefused('three', query({ expires: String(grant.expiresAt + 1) }), 403, 123005);
      const other = await svc.createApp();
      await expectRefused('three', query({ app: other.id, sig: viewSignature(other.secret, { ...grant, appId: other.id }) }), 404, 123003);
      const past = { ...grant, expiresAt: Date.now() - 1000 };
      await expectRefused('three', query({ expires: String(past.expiresAt), sig: viewSignature(svc.app.secret, past) }), 410, 123006);
      await expectRefused('three', 'view/file?app=x', 400, 40000);
      expect((await part(svc, 'three', query({}))).status).toBe(200);
    });

    it('an unsupported type and an unreachable downloadUrl give an error page with their codes', async () => {
      addPreviewFile(svc, 'archive', 'Archive.zip', 'zip', `${fixtureUrl}/archive.zip`);
      addPreviewFile(svc, 'gone', 'Gone.docx', 'docx', `${fixtureUrl}/nothing-here.docx`);
      expect((await svc.call('POST', create('archive'))).status).toBe(200);
      expect((await svc.call('POST', create('gone'))).status).toBe(200);
      const archive = await settledPage(svc, 'archive');
      expect(archive.status).toBe(200);
      expect(archive.text).toContain('<code>123001</code>');
      const gone = await settledPage(svc, 'gone');
      expect(gone.text).toContain('<code>121008</code>');
    });

    it("another application's preview does not exist for it; a collaborative file is no preview file; the token's read permission applies", async () => {
      addPreviewFile(svc, 'mine', 'Picture.png', 'png', `${fixtureUrl}/picture.png`);
      expect((await svc.call('POST', create('mine'))).status).toBe(200);
      await settledPage(svc, 'mine');
      const other = await svc.createApp();
      const peek = await svc.call('GET', page('mine'), { signature: await svc.sign({}, other), query: { lang: 'en' } });
      expect(peek.status).toBe(404);
      expect(peek.text).toContain('<code>123003</code>');

      svc.integrator.addFile({ id: 'collab', type: 'document', grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
      const collab = await svc.call('POST', create('collab'));
      expect(collab.status).toBe(400);
      expect(collab.body.status).toBe(123002);

      svc.integrator.addFile({ id: 'secret', name: 'Secret.png', type: 'file', ext: 'png', downloadUrl: `${fixtureUrl}/picture.png`, grants: { [DEFAULT_USER.id]: { readable: false } } });
      const refused = await svc.call('POST', create('secret'));
      expect(refused.status).toBe(403);
      const unsigned = await svc.call('GET', page('mine'), { signature: null, token: null });
      expect(unsigned.status).toBe(401);
      expect(unsigned.headers.get('content-type')).toMatch(/^text\/html/);
    });
  });
}
