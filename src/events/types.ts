/** Event classes named by `X-Svc-Sdk-Event` (spec 6, contract notes 4). */
export type EventClass =
  | 'Comment'
  | 'Suggestion'
  | 'Discussion'
  | 'MentionAt'
  | 'DateMention'
  | 'FileContent'
  | 'Collaborator'
  | 'Revision'
  | 'System';

/**
 * An event waiting in the outbox. Stored in the same transaction as the change that caused it, then
 * delivered to `POST {endpointUrl}/events` in order per (app, file).
 */
export interface PendingEvent {
  appId: string;
  /** integrator file id; null for events not tied to a file (System) */
  fileId: string | null;
  eventClass: EventClass;
  /** the JSON body sent to the integrator */
  payload: Record<string, unknown>;
  /** the user's X-Svc-Token when a user triggered it (credential type 0); absent for system calls (type 3) */
  userToken?: string | undefined;
}
