import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { rawJwt, sign } from '../support/signing.js';

for (const database of testDatabases()) {
  describe(`signature authentication [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterEach(async () => svc.close());

    const seats = (signature: string | null, extra: Record<string, string> = {}) =>
      svc.call('GET', '/sdk/v2/api/license/users', { signature, headers: extra, token: null });
    const createFile = (signature: string | null) =>
      svc.call('POST', '/sdk/v2/api/files', { signature, body: { type: 'document', fileId: 'f1' } });

    it('accepts a signature with kid, or with the older appId claim', async () => {
      expect((await createFile(await svc.sign())).body.status).toBe(0);
      const viaClaim = await svc.sign({ appIdInClaim: true });
      const response = await svc.call('DELETE', '/sdk/v2/api/files/f1', { signature: viaClaim });
      expect(response.status).toBe(200);
    });

    it('accepts the signature and token in the query string', async () => {
      const signature = await svc.sign();
      const response = await svc.call('POST', '/sdk/v2/api/files', {
        signature: null,
        token: null,
        query: { signature, token: 'user-token' },
        body: { type: 'document', fileId: 'q1' },
      });
      expect(response.status).toBe(200);
    });

    it('rejects a missing signature with 401 / 30001 and a request id', async () => {
      const response = await createFile(null);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ status: 30001, data: null });
      expect(response.body.requestId).toBe(response.headers.get('x-request-id'));
    });

    it('rejects garbage as malformed (30002)', async () => {
      for (const bad of ['abc', 'a.b.c', rawJwt('{not json', {}), 'x'.repeat(9000)]) {
        const response = await createFile(bad);
        expect(response.status, bad.slice(0, 20)).toBe(401);
        expect(response.body.status).toBe(30002);
      }
    });

    it('rejects alg none, other algorithms and unsigned tokens (30003)', async () => {
      const exp = Math.floor(Date.now() / 1000) + 600;
      for (const alg of ['none', 'HS512', 'RS256', 'ES256']) {
        const response = await createFile(rawJwt({ alg, kid: svc.app.id }, { exp }, alg === 'none' ? '' : 'c2ln'));
        expect(response.status, alg).toBe(401);
        expect(response.body.status, alg).toBe(30003);
      }
    });

    it('rejects a wrong secret and a tampered payload (30003)', async () => {
      const wrongKey = await sign(svc.app.id, 'not-the-secret');
      expect((await createFile(wrongKey)).body.status).toBe(30003);
      const good = await svc.sign();
      const [header, , signature] = good.split('.');
      const forged = `${header}.${Buffer.from(JSON.stringify({ exp: 9999999999, scope: 'license' })).toString('base64url')}.${signature}`;
      expect((await seats(forged)).body.status).toBe(30003);
    });

    it('rejects a signature without exp (30003) and an expired one (30004)', async () => {
      const noExp = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: svc.app.id })
        .sign(new TextEncoder().encode(svc.app.secret));
      expect((await createFile(noExp)).body.status).toBe(30003);
      const expired = await svc.sign({ expiresIn: -60 });
      const response = await createFile(expired);
      expect(response.status).toBe(401);
      expect(response.body.status).toBe(30004);
    });

    it('rejects an unknown app (401 / 20005) and an app past validUntil (403 / 30008)', async () => {
      const ghost = await sign('ghost-app', 'whatever');
      const unknown = await createFile(ghost);
      expect(unknown.status).toBe(401);
      expect(unknown.body.status).toBe(20005);

      const lapsed = await svc.createApp({ validUntil: Date.now() - 1000 });
      const response = await createFile(await svc.sign({}, lapsed));
      expect(response.status).toBe(403);
      expect(response.body.status).toBe(30008);
    });

    it('licence endpoints need scope license (403 / 30005) and at most 4 minutes of life (403 / 30006)', async () => {
      const plain = await seats(await svc.sign());
      expect(plain.status).toBe(403);
      expect(plain.body.status).toBe(30005);
      const tooLong = await seats(await svc.sign({ scope: 'license', expiresIn: 600 }));
      expect(tooLong.status).toBe(403);
      expect(tooLong.body.status).toBe(30006);
      const ok = await seats(await svc.signLicense());
      expect(ok.status).toBe(200);
    });

    it('a signature lives at most the configured ceiling, 7 days by default (401 / 127001); the kits\' 24 hours pass', async () => {
      const createFile = (signature: string, fileId: string) =>
        svc.call('POST', '/sdk/v2/api/files', { signature, body: { type: 'document', fileId } });
      const century = await createFile(await svc.sign({ expiresIn: 100 * 365 * 86_400 }), 'century');
      expect(century.status).toBe(401);
      expect(century.body.status).toBe(127001);
      const eightDays = await createFile(await svc.sign({ expiresIn: 8 * 86_400 }), 'eight-days');
      expect(eightDays.body.status).toBe(127001);
      expect((await createFile(await svc.sign({ expiresIn: 7 * 86_400 }), 'seven-days')).status).toBe(200);
      expect((await createFile(await svc.sign({ expiresIn: 86_400 }), 'one-day')).status).toBe(200);
      // the editor page and the collaboration socket check it too
      const page = await fetch(`${svc.url}/sdk/v2/collab-files/one-day?${new URLSearchParams({ signature: await svc.sign({ expiresIn: 100 * 365 * 86_400 }), token: 'alice-token' })}`);
      expect(page.status).toBe(401);
    });

    it('user endpoints need a token (401 / 30007)', async () => {
      const response = await svc.call('POST', '/sdk/v2/api/files', { token: null, body: { type: 'document', fileId: 'f' } });
      expect(response.status).toBe(401);
      expect(response.body.status).toBe(30007);
    });

    it('checks the signature before reading the body', async () => {
      const response = await svc.call('POST', '/sdk/v2/api/files', { signature: null, rawBody: '{broken' });
      expect(response.status).toBe(401);
    });

    it('takes a rotated secret into account at once', async () => {
      const before = await svc.sign();
      await svc.services.apps.rotateSecret(svc.app.id);
      expect((await createFile(before)).body.status).toBe(30003);
    });
  });
}
