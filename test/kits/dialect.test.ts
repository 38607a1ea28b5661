import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { sign, signLicense } from '../support/signing.js';

/** Headers as a client kit sends them, with another prefix when asked. */
async function kitHeaders(svc: TestService, options: { prefix?: string; token?: string; signature?: string; license?: boolean } = {}): Promise<Record<string, string>> {
  const prefix = options.prefix ?? 'X-Shimo-';
  const signature = options.signature ?? (options.license ? await signLicense(svc.app.id, svc.app.secret) : await sign(svc.app.id, svc.app.secret, { expiresIn: 86_400 }));
  return { [`${prefix}Signature`]: signature, [`${prefix}Token`]: options.token ?? (options.license ? '' : 'user-token'), 'content-type': 'application/json' };
}

const ERROR_ENVELOPE = { status: expect.any(Number), message: expect.any(String), data: null, requestId: expect.any(String) };

for (const database of testDatabases()) {
  describe(`kit dialect: access and errors [${database.name}]`, () => {
    let svc: TestService;
    afterEach(async () => svc?.close());

    it('is off unless SVC_COMPAT_HEADER_PREFIX names it: kit headers are no credentials then', async () => {
      svc = await startService(database, { integrator: true });
      const answer = await svc.call('POST', '/sdk/v2/api/files', { signature: null, token: null, headers: await kitHeaders(svc), body: { type: 'document', fileId: 'f' } });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ ...ERROR_ENVELOPE, status: 30001 });
    });

    it('authenticates a kit request exactly like any other; refusals keep their status and the envelope', async () => {
      svc = await startService(database, { integrator: true, compatHeaderPrefix: 'X-Shimo-' });
      const create = (headers: Record<string, string>, fileId = 'f') => svc.call('POST', '/sdk/v2/api/files', { signature: null, token: null, headers, body: { type: 'document', fileId } });

      const forged = await create(await kitHeaders(svc, { signature: await sign(svc.app.id, 'not-the-secret') }));
      expect([forged.status, forged.body.status]).toEqual([401, 30003]);
      const expired = await create(await kitHeaders(svc, { signature: await sign(svc.app.id, svc.app.secret, { expiresIn: -60 }) }));
      expect([expired.status, expired.body.status]).toEqual([401, 30004]);
      const noToken = await create(await kitHeaders(svc, { token: '' }));
      expect([noToken.status, noToken.body.status]).toEqual([401, 30007]);
      const unknownUser = await create(await kitHeaders(svc, { token: 'nobody' }));
      expect([unknownUser.status, unknownUser.body.status]).toEqual([401, 10003]);
      expect(unknownUser.body).toEqual({ ...ERROR_ENVELOPE, status: 10003 });

      // a kit token is never mixed with an X-Svc one: the X-Svc token beside kit credentials counts for nothing
      const mixed = await create({ ...(await kitHeaders(svc, { token: '' })), 'X-Svc-Token': 'user-token' });
      expect([mixed.status, mixed.body.status]).toEqual([401, 30007]);

      // a user signature does not open licence calls, in the dialect or not
      const userOnLicence = await svc.call('GET', `/sdk/v2/api/license/apps/${svc.app.id}`, { signature: null, token: null, headers: await kitHeaders(svc) });
      expect([userOnLicence.status, userOnLicence.body.status]).toEqual([403, 30005]);

      // another application's id stays unknown
      const other = await svc.createApp({ name: 'Other' });
      const foreign = await svc.call('GET', `/sdk/v2/api/license/apps/${other.id}`, { signature: null, token: null, headers: await kitHeaders(svc, { license: true }) });
      expect([foreign.status, foreign.body.status]).toEqual([404, 20005]);

      // the integrator's permissions decide: no `manageable`, no delete
      svc.integrator.addFile({ id: 'kept', grants: { 'user-1': { readable: true, manageable: false } } });
      expect((await create(await kitHeaders(svc), 'kept')).status).toBe(204);
      const denied = await svc.call('DELETE', '/sdk/v2/api/files/kept', { signature: null, token: null, headers: await kitHeaders(svc) });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ ...ERROR_ENVELOPE, status: 40300, data: { fileId: 'kept', permission: 'manageable' } });

      // a failed write answers its error in the envelope, never a 204
      const again = await create(await kitHeaders(svc), 'kept');
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ ...ERROR_ENVELOPE, status: 70012 });
      const invalid = await svc.call('POST', '/sdk/v2/api/files/kept/sheets/values', { signature: null, token: null, headers: await kitHeaders(svc), body: { range: 'A1' } });
      expect([invalid.status, invalid.body.status]).toEqual([400, 72000]);
    });

    it('changes nothing for another prefix, for X-Svc credentials, or for calls the kits do not make', async () => {
      svc = await startService(database, { integrator: true, compatHeaderPrefix: 'x-shimo-' });
      const unknownPrefix = await svc.call('POST', '/sdk/v2/api/files', { signature: null, token: null, headers: await kitHeaders(svc, { prefix: 'X-Other-' }), body: { type: 'document', fileId: 'f' } });
      expect([unknownPrefix.status, unknownPrefix.body.status]).toEqual([401, 30001]);

      // our own credentials: the envelope, as always (also when kit headers come along)
      const own = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'own' }, headers: { 'X-Shimo-Signature': 'ignored' } });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ status: 0, message: 'success', data: { fileId: 'own', type: 'document' } });

      // a call outside the kits' table keeps the envelope in the dialect too
      const revision = await svc.call('POST', '/sdk/v2/collab-files/own/revisions', { signature: null, token: null, headers: await kitHeaders(svc), body: { title: 'v1' } });
      expect(revision.status).toBe(200);
      expect(revision.body).toMatchObject({ status: 0, data: { title: 'v1' } });
      const unknownRoute = await svc.call('GET', '/sdk/v2/api/nowhere', { signature: null, token: null, headers: await kitHeaders(svc) });
      expect([unknownRoute.status, unknownRoute.body.status]).toEqual([404, 40400]);
    });
  });
}

describe('SVC_COMPAT_HEADER_PREFIX', () => {
  it('is a header name prefix ending in "-", never X-Svc-', () => {
    expect(loadConfig({}).compatHeaderPrefix).toBeUndefined();
    expect(loadConfig({ SVC_COMPAT_HEADER_PREFIX: 'X-Shimo-' }).compatHeaderPrefix).toBe('x-shimo-');
    for (const bad of ['X-Shimo', 'X Shimo-', 'X-Svc-', 'x-svc-', '-', 'X--', 'X-Shimo-\n']) {
      expect(() => loadConfig({ SVC_COMPAT_HEADER_PREFIX: bad }), bad).toThrow(ConfigError);
    }
  });
});
