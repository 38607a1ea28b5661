import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collaboratorEvent, fileContentEvent, revisionEvent } from '../../src/events/builders.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

for (const database of testDatabases()) {
  describe(`transactional outbox and delivery [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true });
    });
    afterEach(async () => svc.close());

    const base = () => ({ appId: svc.app.id, fileId: 'f1', userId: DEFAULT_USER.id });

    it('delivers an event committed with its change, with stable id and signed headers', async () => {
      const [eventId] = await svc.services.storage.db.transaction().execute(async (trx) =>
        svc.services.outbox.add(trx, fileContentEvent({ ...base(), version: 3, userToken: DEFAULT_USER.token })),
      );
      await eventually(() => svc.integrator.events.length === 1, 'the event');
      const [event] = svc.integrator.events;
      expect(event).toMatchObject({ eventId, eventClass: 'FileContent', credentialType: '3', token: DEFAULT_USER.token });
      expect(event?.claims).toMatchObject({ fileId: 'f1', userId: DEFAULT_USER.id });
      expect(event?.body).toMatchObject({ kind: 'fileContent', action: 'update', fileId: 'f1', userId: DEFAULT_USER.id, fileContent: { version: 3 } });
      expect(typeof event?.body.timestamp).toBe('number');
    });

    it('never sends an event whose transaction rolled back', async () => {
      await expect(
        svc.services.storage.db.transaction().execute(async (trx) => {
          await svc.services.outbox.add(trx, revisionEvent({ ...base(), action: 'create', revision: { revisionId: 'r', title: 't', label: 'l', docHistoryId: 'h' } }));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      await svc.services.outbox.add(svc.services.storage.db, collaboratorEvent({ ...base(), action: 'enter', clientId: 7 }));
      await eventually(() => svc.integrator.events.length === 1, 'the committed event');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(svc.integrator.events.map((e) => e.eventClass)).toEqual(['Collaborator']);
      const rows = await svc.services.storage.db.selectFrom('event_outbox').select('event_class').execute();
      expect(rows.map((r) => r.event_class)).toEqual(['Collaborator']);
    });
  });
}
