import { imageSize } from 'image-size';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watermarkLines, MAX_WATERMARK_LINES, MAX_WATERMARK_LINE_LENGTH } from '../../src/model/watermark.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { awaitExport, createFile, paragraph, text, writeRichText } from './support.js';

/** A user whose integrator asks for a watermark (examples/integrator answers `watermark` per user). */
const MARKED = { id: 'marked-user', name: 'Marked Reader', token: 'marked-token', watermark: ['Marked Reader 审阅', 'CONFIDENTIAL-7Q'] };

async function exportWith(svc: TestService, fileId: string, type: string, token: string): Promise<Buffer> {
  const started = await svc.call('POST', `/sdk/v2/api/files/v1/export/${encodeURIComponent(fileId)}`, { body: { type }, token });
  expect(started.status, started.text).toBe(200);
  const done = await awaitExport(svc, started.body.data.taskId as string);
  expect(done.status, done.text).toBe(200);
  const response = await fetch(done.body.data.downloadUrl as string);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const { text: pages } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return pages as string[];
}

describe('watermark lines from an integrator answer', () => {
  it('drops control characters and empty lines, cuts long lines and keeps at most four', () => {
    expect(watermarkLines([' a\u0000b ', '', '   ', 'c\nd'])).toEqual(['a b', 'c d']);
    const long = 'x'.repeat(200);
    expect(watermarkLines([long])[0]).toHaveLength(MAX_WATERMARK_LINE_LENGTH);
    expect(watermarkLines([long])[0]!.endsWith('…')).toBe(true);
    expect(watermarkLines(['1', '2', '3', '4', '5', '6'])).toHaveLength(MAX_WATERMARK_LINES);
  });
});

for (const database of testDatabases()) {
  describe(`exports carry the exporting user's watermark [${database.name}]`, { timeout: 240_000 }, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: true });
      svc.integrator.addUser(MARKED);
      await createFile(svc, 'memo', 'document', 'Memo');
      svc.integrator.grant('memo', MARKED.id, { readable: true, exportable: true });
      // three pages of text: every page must carry the watermark, not only the first
      await writeRichText(svc, 'memo', Array.from({ length: 120 }, (_, index) => paragraph(text(`Line ${index + 1} of the memo`))));
    });
    afterAll(async () => {
      await svc.close();
    });

    it('a pdf exported by a user with a watermark has its lines on every page; another user\'s pdf has none', async () => {
      const marked = await pdfPages(await exportWith(svc, 'memo', 'pdf', MARKED.token));
      expect(marked.length).toBeGreaterThanOrEqual(3);
      for (const page of marked) {
        expect(page).toContain('CONFIDENTIAL-7Q');
        expect(page).toContain('Marked Reader 审阅');
      }
      expect(marked.join('\n')).toContain('Line 120 of the memo');

      const plain = await pdfPages(await exportWith(svc, 'memo', 'pdf', DEFAULT_USER.token));
      expect(plain.length).toBe(marked.length);
      expect(plain.join('\n')).not.toContain('CONFIDENTIAL-7Q');
    });

    it('a jpg carries it as pixels: the marked image differs from the plain one, at the same size', async () => {
      const marked = await exportWith(svc, 'memo', 'jpg', MARKED.token);
      const plain = await exportWith(svc, 'memo', 'jpg', DEFAULT_USER.token);
      expect(imageSize(marked)).toEqual(imageSize(plain));
      expect(marked.equals(plain)).toBe(false);
    });

    it('a watermark callback that fails or answers nonsense gives an export without watermark, not an error', async () => {
      svc.services.access.forget();
      svc.integrator.intercept = (call) => (call.path.endsWith('/watermark') ? { status: 500, body: 'down' } : undefined);
      try {
        const failed = await pdfPages(await exportWith(svc, 'memo', 'pdf', MARKED.token));
        expect(failed.join('\n')).toContain('Line 1 of the memo');
        expect(failed.join('\n')).not.toContain('CONFIDENTIAL-7Q');
        svc.integrator.intercept = (call) => (call.path.endsWith('/watermark') ? { status: 200, body: '{"watermarks": "not a list"}' } : undefined);
        const malformed = await pdfPages(await exportWith(svc, 'memo', 'pdf', MARKED.token));
        expect(malformed.join('\n')).not.toContain('CONFIDENTIAL-7Q');
      } finally {
        svc.integrator.intercept = undefined;
      }
    });
  });
}
