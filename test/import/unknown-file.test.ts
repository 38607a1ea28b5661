import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { importAndWait, postImport } from './support.js';

/**
 * An import names the file it creates; the integrator must know that file and let the user edit it, asked up
 * front: an import into an id it does not know used to "succeed" with a file nobody could open.
 */
for (const database of testDatabases()) {
  describe(`import into a file the integrator knows [${database.name}]`, { timeout: 120_000 }, () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService(database, { integrator: { autoFiles: false } });
      svc.integrator.addFile({ id: 'known', type: 'document', grants: { [DEFAULT_USER.id]: { readable: true, editable: true } } });
      svc.integrator.addFile({ id: 'read-only', type: 'document', grants: { [DEFAULT_USER.id]: { readable: true } } });
    });
    afterAll(async () => {
      await svc.close();
    });

    const note = { name: 'note.txt', data: new TextEncoder().encode('hello') };

    it('a fileId the integrator does not know is refused with its answer (404, 10002), and no task starts', async () => {
      const refused = await postImport(svc, { fileId: 'unknown', type: 'document' }, note);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ status: 10002 });
      expect(await svc.services.storage.db.selectFrom('tasks').select('id').where('file_id', '=', 'unknown').execute()).toEqual([]);
    });

    it('a file the user may only read is refused (403); a file they may edit is imported and opens', async () => {
      const readOnly = await postImport(svc, { fileId: 'read-only', type: 'document' }, note);
      expect(readOnly.status).toBe(403);
      const done = await importAndWait(svc, { fileId: 'known', type: 'document' }, note);
      expect(done.body, done.text).toMatchObject({ status: 0, data: { progress: 100, fileId: 'known' } });
      const text = await svc.call('GET', '/sdk/v2/collab-files/known/plain-text');
      expect(text.body.data.content).toBe('hello');
    });
  });
}
