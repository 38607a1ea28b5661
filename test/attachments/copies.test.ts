import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachmentGuidOf } from '../../src/domain/attachments/attachment-service.js';
import { imageReferencesOf } from '../../src/domain/content/image-references.js';
import { newImageBox, newTextBox, richTextOf, slideMaps, type ContentKind } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { createFile } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { png } from './images.js';
import { fetchAttachment, storedCount, ticketFor, upload } from './support.js';

const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };
const imageNode = (src: string): ProseMirrorNode => ({ type: 'image', attrs: { src, alt: 'chart' } });

for (const database of testDatabases()) {
  describe(`a copy owns its images [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterEach(async () => {
      await svc.close();
    });

    /** Uploads `image` as an attachment of `fileId` and answers its content path. */
    const uploadTo = async (fileId: string, image: Uint8Array): Promise<string> => {
      const ticket = await ticketFor(svc, { fileGuid: fileId });
      expect((await upload(svc, { accessToken: ticket.accessToken, file: image })).status).toBe(200);
      return ticket.url;
    };
    const imagesOf = async (fileId: string, kind: ContentKind) =>
      imageReferencesOf(await svc.services.content.read(svc.app.id, fileId), kind).map((reference) => reference.src);
    const bytesAt = async (path: string) => {
      const response = await fetchAttachment(svc, path);
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
    };

    it('a document copy shows its own copies of the images, still there after the original is deleted', async () => {
      await createFile(svc, 'doc', 'document');
      const chart = png(7, 3);
      const photo = png(2, 9);
      const chartPath = await uploadTo('doc', chart);
      const photoPath = await uploadTo('doc', photo);
      const external = 'https://example.com/logo.png';
      await svc.services.content.change(svc.app.id, 'doc', author, (doc) => {
        richTextOf(doc).insert(0, toYNodes(parseFragment([
          { type: 'paragraph', content: [{ type: 'text', text: 'Figures' }] },
          imageNode(chartPath),
          imageNode(photoPath),
          imageNode(chartPath),
          imageNode(external),
        ])));
      });

      const copied = await svc.call('POST', '/sdk/v2/collab-files/doc/copy', { body: { fileId: 'doc-copy' } });
      expect(copied.status, copied.text).toBe(200);
      const inCopy = await imagesOf('doc-copy', 'document');
      expect(inCopy).toHaveLength(4);
      expect(inCopy[3]).toBe(external);
      // the same picture shown twice is copied once and both places show the copy
      expect(inCopy[0]).toBe(inCopy[2]);
      expect(new Set([inCopy[0], inCopy[1]]).size).toBe(2);
      for (const path of inCopy.slice(0, 3)) {
        expect(attachmentGuidOf(path)).toBeDefined();
        expect([chartPath, photoPath]).not.toContain(path);
      }
      // the original is untouched
      expect(await imagesOf('doc', 'document')).toEqual([chartPath, photoPath, chartPath, external]);
      expect(await storedCount(svc)).toBe(4);

      expect((await svc.call('DELETE', '/sdk/v2/api/files/doc')).status).toBe(200);
      expect((await bytesAt(chartPath)).status).toBe(404);
      const copiedChart = await bytesAt(inCopy[0]!);
      expect(copiedChart.status).toBe(200);
      expect(copiedChart.bytes.equals(Buffer.from(chart))).toBe(true);
      expect((await bytesAt(inCopy[1]!)).bytes.equals(Buffer.from(photo))).toBe(true);
    });

    it('a presentation copy owns the pictures of image boxes and of text boxes', async () => {
      await createFile(svc, 'deck', 'presentation');
      const boxPicture = png(4, 4);
      const inlinePicture = png(3, 5);
      const boxPath = await uploadTo('deck', boxPicture);
      const inlinePath = await uploadTo('deck', inlinePicture);
      await svc.services.content.change(svc.app.id, 'deck', author, (doc) => {
        const boxes = slideMaps(doc)[0]!.get('boxes') as Y.Array<Y.Map<unknown>>;
        const text = newTextBox({ x: 10, y: 10, width: 300, height: 200 });
        boxes.push([newImageBox({ x: 400, y: 10, width: 200, height: 200 }, { src: boxPath, alt: 'box' }), text]);
        (text.get('content') as Y.XmlFragment).insert(0, toYNodes(parseFragment([imageNode(inlinePath)])));
      });
      expect((await svc.call('POST', '/sdk/v2/collab-files/deck/copy', { body: { fileId: 'deck-copy' } })).status).toBe(200);
      const inCopy = await imagesOf('deck-copy', 'presentation');
      expect(inCopy).toHaveLength(2);
      expect(inCopy).not.toContain(boxPath);
      expect(inCopy).not.toContain(inlinePath);
      expect((await svc.call('DELETE', '/sdk/v2/api/files/deck')).status).toBe(200);
      expect((await bytesAt(inCopy[0]!)).bytes.equals(Buffer.from(boxPicture))).toBe(true);
      expect((await bytesAt(inCopy[1]!)).bytes.equals(Buffer.from(inlinePicture))).toBe(true);
    });

    it("a path naming no attachment of the application is left as it is, and a refused copy stores no image", async () => {
      await createFile(svc, 'doc', 'document');
      const chartPath = await uploadTo('doc', png(3, 3));
      const unknown = '/sdk/v2/attachments/00000000-0000-4000-8000-000000000000';
      await svc.services.content.change(svc.app.id, 'doc', author, (doc) => {
        richTextOf(doc).insert(0, toYNodes(parseFragment([imageNode(unknown), imageNode(chartPath)])));
      });
      await createFile(svc, 'taken', 'document');
      const refused = await svc.call('POST', '/sdk/v2/collab-files/doc/copy', { body: { fileId: 'taken' } });
      expect(refused.status).toBe(409);
      expect(await storedCount(svc)).toBe(1);
      expect((await svc.call('POST', '/sdk/v2/collab-files/doc/copy', { body: { fileId: 'doc-copy' } })).status).toBe(200);
      const inCopy = await imagesOf('doc-copy', 'document');
      expect(inCopy[0]).toBe(unknown);
      expect(inCopy[1]).not.toBe(chartPath);
      expect(await storedCount(svc)).toBe(2);
    });
  });
}
