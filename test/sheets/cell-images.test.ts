import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCellPositions } from '../../src/domain/sheets/cell-positions.js';
import { ApiError } from '../../src/errors.js';
import { columnLetters } from '../../src/model/sheets/a1.js';
import { fetchAttachment, storedCount } from '../attachments/support.js';
import { png } from '../attachments/images.js';
import { addPeople, createFile, data, expectFailure, SECOND_USER } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

const LIMIT = 4096;
const IMAGE = png(8, 6);

/** A small web server answering an image, a text file and an oversized image. */
let images: http.Server;
let imagesUrl = '';
beforeAll(async () => {
  images = http.createServer((request, response) => {
    if (request.url === '/photo.png') response.writeHead(200, { 'content-type': 'image/png' }).end(IMAGE);
    else if (request.url === '/notes.txt') response.writeHead(200, { 'content-type': 'image/png' }).end('not an image at all');
    else if (request.url === '/big.png') response.writeHead(200).end(Buffer.concat([png(2, 2), Buffer.alloc(LIMIT)]));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(() => {
  images.close();
});

describe('cellsPosition (parseCellPositions)', () => {
  it('reads {row, col} and A1 cells in order, and names the first bad item', () => {
    expect(parseCellPositions('[{"row":0,"col":1},"C3","$A$1"]')).toEqual([
      { row: 0, column: 1 },
      { row: 2, column: 2 },
      { row: 0, column: 0 },
    ]);
    for (const bad of ['', 'B2', '[]', '{}', '[{"row":-1,"col":0}]', '[{"row":0}]', '["A1:B2"]', '["Sheet1!A1"]', '[1]', `[${'"A1",'.repeat(1000)}"A1"]`]) {
      expect(() => parseCellPositions(bad), bad).toThrow(ApiError);
    }
  });

  it('any list of cells, written either way, reads back as those cells (property)', () => {
    const cell = fc.record({ row: fc.integer({ min: 0, max: 1_048_575 }), column: fc.integer({ min: 0, max: 16_383 }), asA1: fc.boolean() });
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 50 }), (cells) => {
        const text = JSON.stringify(cells.map(({ row, column, asA1 }) => (asA1 ? `${columnLetters(column)}${row + 1}` : { row, col: column })));
        expect(parseCellPositions(text)).toEqual(cells.map(({ row, column }) => ({ row, column })));
      }),
    );
  });

  it('never throws anything but a documented ApiError on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        try {
          parseCellPositions(text);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
        }
      }),
    );
  });
});

for (const database of testDatabases()) {
  describe(`images in cells (upload-cell-image, cells-image) [${database.name}]`, () => {
    let svc: TestService;
    const put = (fileId: string, body: Record<string, unknown>, token?: string) =>
      svc.call('POST', `/sdk/v2/api/files/${fileId}/sheets/upload-cell-image`, { body, ...(token ? { token } : {}) });
    const imagesOf = (fileId: string, sheetName: string, cellsPosition: string, token?: string) =>
      svc.call('GET', `/sdk/v2/api/files/${fileId}/sheets/${encodeURIComponent(sheetName)}/cells-image?cellsPosition=${encodeURIComponent(cellsPosition)}`, token ? { token } : {});

    beforeEach(async () => {
      svc = await startService(database, { integrator: true, uploadLimitBytes: LIMIT });
      addPeople(svc);
      await createFile(svc, 'sheet-1', 'spreadsheet');
    });
    afterEach(async () => {
      await svc.close();
    });

    it('stores a base64 image in a cell, keeps the cell\'s value, and answers its URL per requested cell', async () => {
      const written = await svc.call('POST', '/sdk/v2/api/files/sheet-1/sheets/values', { body: { range: 'Sheet1!B2', resource: { values: [['Logo']] } } });
      expect(written.status, written.text).toBe(200);
      const { url } = data<{ url: string }>(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', base64: IMAGE.toString('base64') }));
      expect(url).toMatch(/^\/sdk\/v2\/attachments\/[0-9a-f-]{36}$/);
      const answer = data<{ images: Array<string | null> }>(await imagesOf('sheet-1', 'Sheet1', '[{"row":1,"col":1},"A1","B2"]'));
      expect(answer.images).toEqual([url, null, url]);
      const served = await fetchAttachment(svc, url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(IMAGE);
      const stored = await svc.services.storage.db.selectFrom('attachments').select(['bucket', 'file_id', 'user_id', 'width']).executeTakeFirstOrThrow();
      expect(stored).toEqual({ bucket: 'images', file_id: 'sheet-1', user_id: 'user-1', width: 8 });
      const values = data<{ values: unknown[][] }>(await svc.call('GET', `/sdk/v2/api/files/sheet-1/sheets/values?range=${encodeURIComponent('Sheet1!B2')}`));
      expect(values.values).toEqual([['Logo']]);

      // the image belongs to the cell: clearing the value keeps it, deleting a row above moves it with the cell
      expect((await svc.call('POST', '/sdk/v2/api/files/sheet-1/sheets/values', { body: { range: 'Sheet1!B2', resource: { values: [[null]] } } })).status).toBe(200);
      expect(data(await imagesOf('sheet-1', 'Sheet1', '["B2"]')).images).toEqual([url]);
      expect((await svc.call('DELETE', '/sdk/v2/api/files/sheet-1/sheets/Sheet1/rows/0')).status).toBe(200);
      expect(data(await imagesOf('sheet-1', 'Sheet1', '["B1","B2"]')).images).toEqual([url, null]);
    });

    it('fetches a srcUrl through the outbound policy; a data: prefix and URL-safe base64 are taken; a new image replaces the old', async () => {
      const first = data<{ url: string }>(await put('sheet-1', { sheetName: 'sheet1', cell: 'c3', srcUrl: `${imagesUrl}/photo.png` }));
      const second = data<{ url: string }>(await put('sheet-1', { sheetName: 'Sheet1', cell: 'D4', base64: `data:image/png;base64,${IMAGE.toString('base64url')}` }));
      expect(data(await imagesOf('sheet-1', 'Sheet1', '["C3","D4"]')).images).toEqual([first.url, second.url]);
      const third = data<{ url: string }>(await put('sheet-1', { sheetName: 'Sheet1', cell: 'C3', base64: png(3, 3).toString('base64') }));
      expect(data(await imagesOf('sheet-1', 'Sheet1', '["C3"]')).images).toEqual([third.url]);
    });

    it('refuses bad input with its documented code, and writes nothing', async () => {
      await createFile(svc, 'doc-1', 'document');
      const base64 = IMAGE.toString('base64');
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', base64: Buffer.from('plain text, no picture').toString('base64') }), 415, 75002);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', base64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') }), 415, 75002);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', base64: Buffer.concat([png(2, 2), Buffer.alloc(LIMIT)]).toString('base64') }), 413, 75001);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', base64: 'not*base64!' }), 400, 126200);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2' }), 400, 126200);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', base64, srcUrl: `${imagesUrl}/photo.png` }), 400, 126200);
      for (const cell of ['A1:B2', 'Sheet1!B2', 'B0', 'nonsense', 'XFE1']) expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell, base64 }), 400, 126200);
      expectFailure(await put('sheet-1', { sheetName: 'Nope', cell: 'B2', base64 }), 404, 72002);
      expectFailure(await put('doc-1', { sheetName: 'Sheet1', cell: 'B2', base64 }), 400, 72010);
      expectFailure(await put('missing', { sheetName: 'Sheet1', cell: 'B2', base64 }), 404, 70013);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', srcUrl: 'http://169.254.169.254/latest/meta-data' }), 400, 126201);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', srcUrl: 'file:///etc/passwd' }), 400, 126201);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', srcUrl: `${imagesUrl}/missing.png` }), 502, 126202);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', srcUrl: `${imagesUrl}/notes.txt` }), 415, 75002);
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', srcUrl: `${imagesUrl}/big.png` }), 413, 75001);
      svc.integrator.grant('sheet-1', SECOND_USER.id, { readable: true, editable: false });
      expectFailure(await put('sheet-1', { sheetName: 'Sheet1', cell: 'B2', base64 }, SECOND_USER.token), 403, 40300);
      expect(await storedCount(svc)).toBe(0);
      expect(data(await imagesOf('sheet-1', 'Sheet1', '["B2"]')).images).toEqual([null]);

      expectFailure(await imagesOf('sheet-1', 'Sheet1', 'B2'), 400, 126200);
      expectFailure(await imagesOf('sheet-1', 'Sheet1', '[{"row":0,"col":-1}]'), 400, 126200);
      expectFailure(await imagesOf('sheet-1', 'Nope', '["A1"]'), 404, 72002);
      expect(data(await imagesOf('sheet-1', 'Sheet1', '["A1"]', SECOND_USER.token)).images).toEqual([null]);
    });

    it('another application cannot put images in or read them from this app\'s file', async () => {
      const { url } = data<{ url: string }>(await put('sheet-1', { sheetName: 'Sheet1', cell: 'A1', base64: IMAGE.toString('base64') }));
      expect(url).not.toBe('');
      const other = await svc.createApp();
      const signature = await svc.sign({}, other);
      expectFailure(await svc.call('GET', `/sdk/v2/api/files/sheet-1/sheets/Sheet1/cells-image?cellsPosition=${encodeURIComponent('["A1"]')}`, { signature }), 404, 70013);
      expectFailure(await svc.call('POST', '/sdk/v2/api/files/sheet-1/sheets/upload-cell-image', { signature, body: { sheetName: 'Sheet1', cell: 'A1', base64: IMAGE.toString('base64') } }), 404, 70013);
      expect(await storedCount(svc)).toBe(1);
    });
  });
}
