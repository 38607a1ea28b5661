import type { SessionPermissions } from './session-access.js';

/** Who makes a change: the integrator's user id, and the token of the request that carried it. */
export interface ContentActor {
  userId: string;
  token?: string | undefined;
  /** display name, when known (from the integrator's user callback); kept with history entries */
  name?: string | undefined;
}

/** What a collaboration connection was admitted with (routes/collaboration.ts decides it). */
export interface CollaborationContext {
  appId: string;
  fileId: string;
  actor: ContentActor;
  /** the integrator's answer at admission: without `editable` the session is read-only */
  permissions: SessionPermissions;
  /**
   * Asks the integrator again what the user may do now (sessions last long; permissions change); `fresh`
   * goes past the short-lived answer cache. Throws when the integrator cannot answer.
   */
  recheck?: (options: { fresh: boolean }) => Promise<SessionPermissions>;
  /**
   * A table base: its data lives in the table API, so its session carries presence (awareness) and the
   * service's notices only: an empty document that is never loaded, stored or written.
   */
  presenceOnly?: boolean;
  /** the file's text takes suggestions (document, documentPro): a user who may comment may suggest there */
  suggestible?: boolean;
}
