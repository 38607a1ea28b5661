import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachmentGuidOf } from '../../src/domain/attachments/attachment-service.js';
import { imageReferencesOf } from '../../src/domain/content/image-references.js';
import { newImageBox, richTextOf, slideMaps, type ContentKind } from '../../src/model/content.js';
import { parseFragment, toYNodes } from '../../src/model/rich-text/schema.js';
import { connectEditor } from '../content/support.js';
import { FAST_CONTENT } from '../conversations/support.js';
import { author, awaitExport, createFile, startExport } from '../export/support.js';
import { importAndWait } from '../import/support.js';
import { testDatabases } from '../support/databases.js';
import { startHitCounter, TINY_PNG, type HitCounter } from '../support/hit-counter.js';
import { eventually } from '../support/integrator.js';
import { startService, type StartOptions, type TestService } from '../support/service.js';
import { fetchAttachment } from './support.js';

/**
 * Images only from the service (issue 27 point 1, docs/ATTACHMENTS.md "Outside images"): an outside image address
 * written into content is fetched once by the service and stored as an attachment, the pdf export never connects
 * to it, and an address the outbound policy refuses is never connected to at all. The outside address is a
 * listening socket that counts its connections.
 */
for (const database of testDatabases()) {
  describe(`outside images [${database.name}]`, { timeout: 180_000 }, () => {
    let svc: TestService;
    let outside: HitCounter;
    const start = async (options: StartOptions = {}) => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT, ...options });
    };
    beforeEach(async () => {
      outside = await startHitCounter();
    });
    afterEach(async () => {
      await svc?.close();
      await outside.close();
    });

    const imagesOf = async (fileId: string, kind: ContentKind) =>
      imageReferencesOf(await svc.services.content.read(svc.app.id, fileId), kind).map((reference) => reference.src);
    /** Waits until the file's edits are recorded (a version past `version`) and the background fetches they started ended. */
    const recorded = async (fileId: string, version = 0) => {
      const versionOf = async () =>
        Number((await svc.services.storage.db.selectFrom('files').select('version').where('app_id', '=', svc.app.id).where('file_id', '=', fileId).executeTakeFirstOrThrow()).version);
      await eventually(async () => (await versionOf()) > version, `${fileId} recorded`);
      await svc.services.outsideImages.settled();
    };
    const exportPdf = async (fileId: string) => {
      const started = await startExport(svc, fileId, 'pdf');
      expect(started.status, started.text).toBe(200);
      const done = await awaitExport(svc, started.body.data.taskId as string);
      expect(done.status, done.text).toBe(200);
      return done.body.data as { downloadUrl: string; refusedRequests: number };
    };

    it('an image written over the collaboration socket is fetched once and stored; editors get the attachment; the pdf export connects to nothing', async () => {
      await start();
      await createFile(svc, 'doc', 'document', 'Pixel');
      const editor = await connectEditor(svc, 'doc');
      const address = `${outside.origin}/pixel.png?reader=tracking`;
      editor.doc.transact(() => richTextOf(editor.doc).insert(0, toYNodes(parseFragment([{ type: 'image', attrs: { src: address, alt: 'pixel' } }]))));
      await editor.saved();

      await eventually(async () => (await imagesOf('doc', 'document')).every((src) => attachmentGuidOf(src) !== undefined), 'image stored as an attachment');
      const [stored] = await imagesOf('doc', 'document');
      expect(outside.requests()).toEqual(['/pixel.png?reader=tracking']);
      // the editor that wrote it is told, as any change
      await eventually(() => imageReferencesOf(editor.doc, 'document')[0]?.src === stored, 'editor sees the attachment');
      const served = await fetchAttachment(svc, stored!);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(TINY_PNG);
      await editor.close();

      const pdf = await exportPdf('doc');
      expect(pdf.refusedRequests).toBe(0);
      expect(outside.connections()).toBe(1);
    });

    it('an address that answers no image stays in the content, is not asked again, and the pdf export does not reach it', async () => {
      await outside.close();
      outside = await startHitCounter({ type: 'image/png', body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
      await start();
      await createFile(svc, 'doc', 'document', 'Pixel');
      const editor = await connectEditor(svc, 'doc');
      const address = `${outside.origin}/pixel.png`;
      editor.doc.transact(() => richTextOf(editor.doc).insert(0, toYNodes(parseFragment([{ type: 'image', attrs: { src: address } }]))));
      await editor.saved();
      await recorded('doc');
      expect(outside.connections()).toBe(1);
      editor.doc.transact(() => richTextOf(editor.doc).insert(0, toYNodes(parseFragment([{ type: 'paragraph', content: [{ type: 'text', text: 'more' }] }]))));
      await editor.saved();
      await editor.close();
      await recorded('doc', 1);

      expect(await imagesOf('doc', 'document')).toEqual([address]);
      const pdf = await exportPdf('doc');
      expect(pdf.refusedRequests).toBe(0);
      expect(outside.connections()).toBe(1);
    });

    it("a slide's image box written through the content API and an html import's outside image become attachments", async () => {
      await start();
      await createFile(svc, 'deck', 'presentation', 'Deck');
      await svc.services.content.change(svc.app.id, 'deck', author, (doc) => {
        const boxes = slideMaps(doc)[0]!.get('boxes') as import('yjs').Array<unknown>;
        boxes.push([newImageBox({ x: 10, y: 10, width: 100, height: 100 }, { src: `${outside.origin}/box.png`, alt: 'box' })]);
      });
      await recorded('deck');
      const deckImages = await imagesOf('deck', 'presentation');
      expect(deckImages).toHaveLength(1);
      expect(attachmentGuidOf(deckImages[0]!)).toBeDefined();

      const html = `<h1>Report</h1><p><img src="${outside.origin}/figure.png" alt="figure"></p>`;
      const done = await importAndWait(svc, { fileId: 'imported', type: 'document' }, { name: 'report.html', data: new TextEncoder().encode(html) });
      expect(done.body.status, done.text).toBe(0);
      const imported = await imagesOf('imported', 'document');
      expect(imported).toHaveLength(1);
      expect(Buffer.from(await (await fetchAttachment(svc, imported[0]!)).arrayBuffer())).toEqual(TINY_PNG);
      expect(outside.requests()).toEqual(['/box.png', '/figure.png']);
    });

    it('SVC_OUTSIDE_IMAGES=allow leaves outside addresses as they are, and the editor page lets browsers load them; by default it allows the service alone', async () => {
      await start();
      await createFile(svc, 'doc', 'document', 'Doc');
      const page = async () => fetch(`${svc.url}/sdk/v2/collab-files/doc?${new URLSearchParams({ signature: await svc.sign(), token: 'user-token' })}`);
      const strict = (await page()).headers.get('content-security-policy') ?? '';
      expect(strict).toContain("img-src 'self' data: blob:;");
      await svc.close();

      await start({ outsideImages: 'allow' });
      await createFile(svc, 'doc', 'document', 'Doc');
      expect((await page()).headers.get('content-security-policy')).toContain("img-src 'self' data: blob: https: http:;");
      const address = `${outside.origin}/kept.png`;
      await svc.services.content.change(svc.app.id, 'doc', author, (doc) => richTextOf(doc).insert(0, toYNodes(parseFragment([{ type: 'image', attrs: { src: address } }]))));
      await recorded('doc');
      expect(await imagesOf('doc', 'document')).toEqual([address]);
      expect(outside.connections()).toBe(0);
    });
  });
}
