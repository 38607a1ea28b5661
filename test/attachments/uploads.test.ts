import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from '../../src/domain/attachments/access-token.js';
import { ACCESS_TOKEN_TYPE } from '../../src/auth/signature.js';
import { createFile, expectFailure } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { gif, jpeg, png, pngHeader, SVG, webpLossless } from './images.js';
import { fetchAttachment, requestTokens, send, storedCount, ticketFor, TOKEN_PATH, upload, uploadRequest } from './support.js';

const LIMIT = 64 * 1024;
const READER = { id: 'reader', name: 'Reader', token: 'reader-token' } as const;

for (const database of testDatabases()) {
  describe(`attachment uploads [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, uploadLimitBytes: LIMIT });
      svc.integrator.addUser({ ...READER });
      await createFile(svc, 'doc-1', 'document');
    });
    afterEach(async () => {
      await svc.close();
    });

    it('token, upload, read back: the bytes, the sniffed type and the pixel size', async () => {
      const ticket = await ticketFor(svc, { filename: 'holiday.png', fileSize: 0 });
      expect(ticket).toEqual({
        accessToken: expect.any(String),
        directory: 'images',
        download: false,
        guid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        images: true,
        fileFieldKey: 'file',
        key: `images/${ticket.guid}`,
        serverUrl: `${svc.url}/uploader/upload`,
        url: `/sdk/v2/attachments/${ticket.guid}`,
      });
      expect(decodeProtectedHeader(ticket.accessToken)).toEqual({ alg: 'HS256', kid: svc.app.id, typ: ACCESS_TOKEN_TYPE });
      const claims = decodeJwt(ticket.accessToken);
      expect(claims).toMatchObject({ sub: 'user-1', jti: ticket.guid, fid: 'doc-1', bkt: 'images', max: LIMIT, name: 'holiday.png' });
      expect(claims.exp! - claims.iat!).toBe(ACCESS_TOKEN_TTL_SECONDS);

      // posted where serverUrl says, as a browser would, declaring a type that is not trusted
      const image = png(3, 2);
      const form = new FormData();
      form.append('accessToken', ticket.accessToken);
      form.append('download', '0');
      form.append('download', '1');
      form.append(ticket.fileFieldKey, new Blob([image], { type: 'text/html' }), 'other-name.html');
      const response = await fetch(ticket.serverUrl, { method: 'POST', body: form });
      const answer = (await response.json()) as { status: number; data: unknown };
      expect(response.status).toBe(200);
      expect(answer).toEqual({
        status: 0,
        message: 'success',
        data: {
          GUID: ticket.guid,
          filename: 'holiday.png',
          key: ticket.key,
          mimeType: 'image/png',
          images: true,
          url: ticket.url,
          audio: false,
          video: false,
          width: 3,
          height: 2,
          size: image.length,
        },
      });

      const read = await fetchAttachment(svc, ticket.url);
      expect(read.status).toBe(200);
      expect(Buffer.from(await read.arrayBuffer()).equals(image)).toBe(true);
      expect(read.headers.get('content-type')).toBe('image/png');
      expect(read.headers.get('content-length')).toBe(String(image.length));
      expect(read.headers.get('x-content-type-options')).toBe('nosniff');
      expect(read.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(read.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      expect(read.headers.get('etag')).toBe(`"${ticket.guid}"`);
      expect(read.headers.get('content-disposition')).toBe(`inline; filename="holiday.png"; filename*=UTF-8''holiday.png`);

      // the same with credentials in headers
      const byHeaders = await svc.call('GET', ticket.url);
      expect(byHeaders.status).toBe(200);
      expect(byHeaders.headers.get('content-type')).toBe('image/png');
    });

    it('GIF, JPEG and WebP too, several uploads prepared in one call', async () => {
      const files = [gif(640, 480), jpeg(1920, 1080, { progressive: true }), webpLossless(16384, 1)];
      const prepared = await requestTokens(svc, files.map((file, index) => uploadRequest({ filename: `f${index}`, fileSize: file.length })));
      expect(prepared.status, prepared.text).toBe(200);
      const tickets = prepared.body.data as { accessToken: string; guid: string }[];
      expect(new Set(tickets.map((t) => t.guid)).size).toBe(3);
      const results = [];
      for (const [index, file] of files.entries()) {
        const response = await upload(svc, { accessToken: tickets[index]!.accessToken, file });
        expect(response.status, response.text).toBe(200);
        results.push(response.body.data);
      }
      expect(results.map((r) => [r.mimeType, r.width, r.height])).toEqual([
        ['image/gif', 640, 480],
        ['image/jpeg', 1920, 1080],
        ['image/webp', 16384, 1],
      ]);
      expect(await storedCount(svc)).toBe(3);
    });

    it('the attachments bucket takes any file: non-images are opaque downloads, SVG included; images stay inline', async () => {
      const cases: { file: Buffer; name: string; type: string; disposition: RegExp; image: boolean }[] = [
        { file: Buffer.from('%PDF-1.7\n...'), name: 'Bericht für Q3 "final".pdf', type: 'application/octet-stream', disposition: /^attachment; filename="Bericht f_r Q3 _final_.pdf"; filename\*=UTF-8''Bericht%20f%C3%BCr%20Q3%20%22final%22.pdf$/, image: false },
        { file: SVG, name: 'logo.svg', type: 'application/octet-stream', disposition: /^attachment; filename="logo.svg"/, image: false },
        { file: png(1, 1), name: 'dot.png', type: 'image/png', disposition: /^inline; filename="dot.png"/, image: true },
      ];
      for (const item of cases) {
        const ticket = await ticketFor(svc, { bucket: 'attachments', filename: item.name, fileSize: item.file.length });
        expect(ticket).toMatchObject({ directory: 'attachments', download: true, images: false, key: `attachments/${ticket.guid}` });
        const response = await upload(svc, { accessToken: ticket.accessToken, file: item.file, type: 'image/svg+xml' });
        expect(response.status, response.text).toBe(200);
        expect(response.body.data).toMatchObject({ mimeType: item.type, images: item.image, width: item.image ? 1 : null, height: item.image ? 1 : null });
        const read = await fetchAttachment(svc, ticket.url);
        expect(read.status).toBe(200);
        expect(read.headers.get('content-type')).toBe(item.type);
        expect(read.headers.get('content-disposition')).toMatch(item.disposition);
        expect(read.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        expect(Buffer.from(await read.arrayBuffer()).equals(item.file)).toBe(true);
      }
    });

    it('the bucket defaults to images; a hostile filename is kept as a safe display name, one with a NUL is refused', async () => {
      // a NUL never reaches the service (400 / 127003, docs/ERRORS.md); line breaks and bidi controls are stripped
      const refused = await requestTokens(svc, [uploadRequest({ filename: 'pass\u0000wd.png' })]);
      expect(refused.status).toBe(400);
      expect(refused.body.status).toBe(127003);
      const ticket = await ticketFor(svc, { bucket: undefined, filename: '../../etc/pass\u202Ewd\r\n.png' });
      expect(ticket.directory).toBe('images');
      const response = await upload(svc, { accessToken: ticket.accessToken, file: png(2, 2), filename: '..\\..\\win.ini' });
      expect(response.body.data.filename).toBe('passwd.png');
      const read = await fetchAttachment(svc, ticket.url);
      expect(read.headers.get('content-disposition')).toBe(`inline; filename="passwd.png"; filename*=UTF-8''passwd.png`);
    });

    it('token requests: every malformed body is 400 / 75000, an oversized declaration 413 / 75001, nothing issued', async () => {
      const bad: [string, unknown][] = [
        ['an object, not an array', uploadRequest()],
        ['an empty array', []],
        ['21 uploads', Array.from({ length: 21 }, () => uploadRequest())],
        ['fileSize as text', [uploadRequest({ fileSize: '10' })]],
        ['negative fileSize', [uploadRequest({ fileSize: -1 })]],
        ['fractional fileSize', [uploadRequest({ fileSize: 1.5 })]],
        ['unknown bucket', [uploadRequest({ bucket: 'videos' })]],
        ['numeric filename', [uploadRequest({ filename: 42 })]],
        ['empty filename', [uploadRequest({ filename: '' })]],
        ['fileGuid with a slash', [uploadRequest({ fileGuid: 'a/b' })]],
        ['no fileGuid', [uploadRequest({ fileGuid: undefined })]],
        ['encrypt as an object', [uploadRequest({ encrypt: {} })]],
        ['a string entry', ['photo.png']],
      ];
      for (const [what, body] of bad) {
        const response = await requestTokens(svc, body);
        expectFailure(response, 400, 75000);
        expect(response.body.message, what).toMatch(/^invalid request: body/);
      }
      expect((await requestTokens(svc, [uploadRequest({ bucket: 'videos' })])).body.message).toMatch(/must be one of: images, attachments/);
      expectFailure(await svc.call('POST', TOKEN_PATH, { rawBody: '[{"bucket":' }), 400, 75000, /not valid JSON/);
      expectFailure(await svc.call('POST', TOKEN_PATH), 400, 75000);
      const form = new FormData();
      form.append('bucket', 'images');
      expectFailure(await svc.call('POST', TOKEN_PATH, { rawBody: form }), 415, 41500);
      expectFailure(await requestTokens(svc, [uploadRequest(), uploadRequest({ fileSize: LIMIT + 1 })]), 413, 75001, /upload 1: fileSize 65537 is over the upload limit of 65536 bytes/);
    });

    it('token requests need a signature, a user, a known file and editable on every file named', async () => {
      expectFailure(await requestTokens(svc, [uploadRequest()], { signature: null }), 401, 30001);
      expectFailure(await requestTokens(svc, [uploadRequest()], { token: null }), 401, 30007);
      expectFailure(await requestTokens(svc, [uploadRequest()], { token: 'nobody' }), 401, 10003);
      expectFailure(await requestTokens(svc, [uploadRequest({ fileGuid: 'never-created' })]), 404, 70013);
      await createFile(svc, 'doc-2', 'document');
      svc.integrator.addFile({ id: 'doc-2', grants: { [READER.id]: { readable: true, editable: false } } });
      const mixed = await requestTokens(svc, [uploadRequest(), uploadRequest({ fileGuid: 'doc-2' })], { token: READER.token });
      expectFailure(mixed, 403, 40300, /may not edit file doc-2/);
      // another application's file is unknown to this one
      const other = await svc.createApp();
      expectFailure(await requestTokens(svc, [uploadRequest()], { signature: await svc.sign({}, other) }), 404, 70013);
    });

    it('uploads: bad tokens are 401 / 75003 and store nothing', async () => {
      const file = png(1, 1);
      const ticket = await ticketFor(svc);
      const grant = { fileId: 'doc-1', userId: 'user-1', guid: crypto.randomUUID(), bucket: 'images' as const, maxBytes: LIMIT, filename: 'x.png' };
      const other = await svc.createApp();
      const forged = await new SignJWT({ fid: 'doc-1', bkt: 'images', max: LIMIT, name: 'x.png' })
        .setProtectedHeader({ alg: 'HS256', kid: svc.app.id, typ: ACCESS_TOKEN_TYPE })
        .setSubject('user-1')
        .setJti(grant.guid)
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(other.secret));
      const cases: [string | undefined, RegExp][] = [
        [undefined, /missing/],
        ['', /empty/],
        ['not-a-jwt', /not a JWT/],
        ['x'.repeat(20_000), /not a JWT|too long/],
        [forged, /wrong signature/],
        [await signAccessToken(svc.app, grant, Date.now() - (ACCESS_TOKEN_TTL_SECONDS + 60) * 1000), /expired/],
        [await svc.sign(), /not an access token/],
        [ticket.accessToken.slice(0, -2) + (ticket.accessToken.endsWith('AA') ? 'BB' : 'AA'), /wrong signature/],
        [await signAccessToken({ ...svc.app, id: 'no-such-app' }, grant), /application that does not exist/],
      ];
      for (const [accessToken, message] of cases) {
        expectFailure(await upload(svc, { file, ...(accessToken === undefined ? {} : { accessToken }) }), 401, 75003, message);
      }
      // nor does an access token pass for a signature on the backend API
      expectFailure(await svc.call('GET', ticket.url, { signature: ticket.accessToken }), 401, 30003, /access token is not a signature/);
      expect(await storedCount(svc)).toBe(0);
    });

    it('uploads: too large, wrong type, malformed multipart are refused with nothing stored; the token survives them', async () => {
      const declared = await ticketFor(svc, { fileSize: 100 });
      const unknownSize = await ticketFor(svc, { fileSize: 0 });
      const big = pngHeader(10, 10, new Uint8Array(LIMIT));
      expectFailure(await upload(svc, { accessToken: unknownSize.accessToken, file: big }), 413, 75001, /65536 bytes/);
      expectFailure(await upload(svc, { accessToken: unknownSize.accessToken, file: big, fileFirst: true }), 413, 75001);
      expectFailure(await upload(svc, { accessToken: declared.accessToken, file: pngHeader(10, 10, new Uint8Array(200)) }), 413, 75001, /100 bytes/);
      // file first, token after: the declared size is still enforced
      expectFailure(await upload(svc, { accessToken: declared.accessToken, file: pngHeader(10, 10, new Uint8Array(200)), fileFirst: true }), 413, 75001);

      const ticket = await ticketFor(svc);
      const refusals: [Parameters<typeof upload>[1], number, number, RegExp?][] = [
        [{ accessToken: ticket.accessToken, file: SVG, type: 'image/svg+xml' }, 415, 75002, /SVG .*script/],
        [{ accessToken: ticket.accessToken, file: Buffer.from('%PDF-1.7'), type: 'image/png' }, 415, 75002, /PNG, JPEG, GIF and WebP/],
        [{ accessToken: ticket.accessToken, file: Buffer.from('<html><script>alert(1)</script>'), type: 'image/png' }, 415, 75002],
        [{ accessToken: ticket.accessToken }, 400, 75000, /no file/],
        [{ accessToken: ticket.accessToken, file: new Uint8Array() }, 400, 75000, /empty/],
        [{ accessToken: ticket.accessToken, file: png(1, 1), extra: [['file', new Blob([png(1, 1)])]] }, 400, 75000, /one file part/],
        [{ accessToken: ticket.accessToken, file: png(1, 1), extra: [['upload', new Blob([png(1, 1)])]] }, 400, 75000, /unexpected file part "upload"/],
        [{ accessToken: ticket.accessToken, file: png(1, 1), extra: [['accessToken', ticket.accessToken]] }, 400, 75000, /one accessToken/],
        [{ accessToken: ticket.accessToken, file: png(1, 1), extra: Array.from({ length: 80 }, (): [string, string] => ['download', '1']) }, 400, 75000, /too many/],
      ];
      for (const [parts, http, status, message] of refusals) expectFailure(await upload(svc, parts), http, status, message);

      const boundary = 'XyZ';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="accessToken"\r\n\r\n${ticket.accessToken}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
      const multipartType = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      expectFailure(await send(svc, head + 'truncated, no closing boundary', multipartType), 400, 75000, /malformed multipart/);
      expectFailure(await send(svc, `--${boundary}\r\ngarbage`, multipartType), 400, 75000);
      expectFailure(await send(svc, 'x', { 'content-type': 'multipart/form-data' }), 400, 75000, /malformed multipart/);
      expectFailure(await send(svc, JSON.stringify({ accessToken: ticket.accessToken }), { 'content-type': 'application/json' }), 415, 41500);
      expectFailure(await send(svc, 'file', { 'content-type': 'text/plain' }), 415, 41500);
      expectFailure(await send(svc, ''), 415, 41500);
      expect(await storedCount(svc)).toBe(0);

      // none of that used the tokens up
      for (const usable of [declared, unknownSize, ticket]) expect((await upload(svc, { accessToken: usable.accessToken, file: png(2, 2) })).status).toBe(200);
      expect(await storedCount(svc)).toBe(3);
    });

    it('an access token stores one attachment: a second upload, even a concurrent one, is refused', async () => {
      const ticket = await ticketFor(svc);
      expect((await upload(svc, { accessToken: ticket.accessToken, file: png(1, 1) })).status).toBe(200);
      expectFailure(await upload(svc, { accessToken: ticket.accessToken, file: png(4, 4) }), 401, 75003, /already used/);
      const racing = await ticketFor(svc);
      const answers = await Promise.all([1, 2, 3].map((side) => upload(svc, { accessToken: racing.accessToken, file: png(side, side) })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
      expect(await storedCount(svc)).toBe(2);
      const read = await fetchAttachment(svc, ticket.url);
      expect(Buffer.from(await read.arrayBuffer()).equals(png(1, 1))).toBe(true);
    });

    it('a file deleted after the token was issued: the upload is 404 / 70013 and nothing is stored', async () => {
      const ticket = await ticketFor(svc);
      expect((await svc.call('DELETE', '/sdk/v2/api/files/doc-1')).body.data).toEqual({ deleted: true });
      expectFailure(await upload(svc, { accessToken: ticket.accessToken, file: png(1, 1) }), 404, 70013);
      expect(await storedCount(svc)).toBe(0);
    });

    it('token requests draw on the same per-app budget as /sdk/v2', async () => {
      const limited = await startService(database, { integrator: true, appQps: 2 });
      try {
        await createFile(limited, 'doc-1', 'document');
        expect((await requestTokens(limited, [uploadRequest()])).status).toBe(200);
        const over = await limited.call('GET', '/sdk/v2/api/files/doc-1/sheets/values', { query: { range: 'A1' } });
        expectFailure(over, 429, 42900);
        expect(over.headers.get('retry-after')).not.toBeNull();
      } finally {
        await limited.close();
      }
    });

    it('the routes are in the OpenAPI document', async () => {
      const spec = (await svc.call('GET', '/openapi.json', { signature: null, token: null })).body;
      expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/uploader/token', '/uploader/upload', '/sdk/v2/attachments/{guid}']));
      expect(spec.paths['/uploader/upload'].post.requestBody.content).toHaveProperty(['multipart/form-data']);
      expect(spec.paths['/uploader/token'].post.security).toEqual([{ signature: [], token: [] }]);
    });
  });
}
