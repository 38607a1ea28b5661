import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

/** An address nothing listens on: a port bound and released again. */
async function deadAddress(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

for (const database of testDatabases()) {
  describe(`changes of an application take effect for the next request [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      // answers would be reused for ten minutes: only the announcement of a change can make the next request differ
      svc = await startService(database, { integrator: true, integratorLink: { ...loadConfig({}).integratorLink, permissionCacheMs: 600_000 } });
    });
    afterEach(async () => svc.close());

    const createFile = (fileId: string) => svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId } });

    it('an endpoint URL pointed at a dead address fails the next call that needs the integrator with 10015', async () => {
      expect((await createFile('before-move')).body.status).toBe(0);
      const url = await deadAddress();
      const moved = await svc.call('PUT', `/sdk/v2/api/license/apps/${svc.app.id}/endpoint-url`, { signature: await svc.signLicense(), body: { url } });
      expect(moved.body.status).toBe(0);
      const after = await createFile('after-move');
      expect(after.status).toBe(502);
      expect(after.body.status).toBe(10015);
    });

    it('a rotated secret refuses the old signature and accepts the new one at once', async () => {
      const oldSignature = await svc.sign();
      expect((await createFile('before-rotation')).body.status).toBe(0);
      const rotated = await svc.services.apps.rotateSecret(svc.app.id);
      const refused = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'old-secret' }, signature: oldSignature });
      expect(refused.status).toBe(401);
      const accepted = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'new-secret' }, signature: await svc.sign({}, rotated) });
      expect(accepted.body.status).toBe(0);
    });

    it('changed app settings apply to the next request', async () => {
      expect((await createFile('a-document')).body.status).toBe(0);
      await svc.services.apps.update(svc.app.id, { availableFileTypes: ['spreadsheet'] });
      const refused = await createFile('another-document');
      expect(refused.body.status).toBe(70003);
    });

    it('an announced permission change replaces the cached answer for the next request', async () => {
      svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
      svc.integrator.addFile({ id: 'shared', type: 'document', grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS }, reader: { readable: true } } });
      expect((await createFile('shared')).body.status).toBe(0);
      const read = () => svc.call('GET', '/sdk/v2/collab-files/shared/plain-text', { token: 'reader-token' });
      const ownerRead = () => svc.call('GET', '/sdk/v2/collab-files/shared/plain-text');
      expect((await read()).status).toBe(200);
      expect((await ownerRead()).status).toBe(200);
      const ownerCalls = () => svc.integrator.calls.filter((c) => c.path === '/files/shared' && c.headers['x-svc-token'] === DEFAULT_USER.token).length;
      const before = ownerCalls();
      svc.integrator.grant('shared', 'reader', { readable: false });
      // not announced: the remembered answer still counts
      expect((await read()).status).toBe(200);
      const announced = await svc.call('POST', `/sdk/v2/api/license/apps/${svc.app.id}/permission-changes`, {
        signature: await svc.signLicense(),
        body: { fileIds: ['shared'], userIds: ['reader'] },
      });
      expect(announced.body).toMatchObject({ status: 0 });
      expect((await read()).status).toBe(403);
      // the owner's remembered answer was not concerned by a change of the reader's permissions
      expect((await ownerRead()).status).toBe(200);
      expect(ownerCalls()).toBe(before);
    });

    it('refuses a permission change for another application and one with a bad body', async () => {
      const other = await svc.call('POST', '/sdk/v2/api/license/apps/someone-else/permission-changes', { signature: await svc.signLicense(), body: {} });
      expect(other.body.status).not.toBe(0);
      const bad = await svc.call('POST', `/sdk/v2/api/license/apps/${svc.app.id}/permission-changes`, { signature: await svc.signLicense(), body: { fileIds: 'x' } });
      expect(bad.status).toBe(400);
      const plain = await svc.call('POST', `/sdk/v2/api/license/apps/${svc.app.id}/permission-changes`, { body: {} });
      expect(plain.body.status).not.toBe(0);
    });
  });
}
