import type { TestService } from './service.js';

/** The payloads of the events of one class queued in the outbox for a file, in the order they were committed. */
export async function queuedPayloads<Payload>(svc: TestService, fileId: string, eventClass: string): Promise<Payload[]> {
  const rows = await svc.services.storage.db
    .selectFrom('event_outbox')
    .select(['payload'])
    .where('app_id', '=', svc.app.id)
    .where('file_id', '=', fileId)
    .where('event_class', '=', eventClass)
    .orderBy('seq')
    .execute();
  return rows.map((row) => JSON.parse(row.payload) as Payload);
}
