import type { EditorPush } from '../../apps/app-changes.js';

/**
 * The stateless messages open editors get about pushes and reported events (docs/PUSH-AND-EVENTS.md). The
 * editor page (web/shared/collaboration.ts) reads them by `type`; the service speaks them, never a client.
 */
export const EditorMessageType = {
  push: 'svc:push',
  fileRenamed: 'svc:file-renamed',
  fileDeleted: 'svc:file-deleted',
  userUpdated: 'svc:user-updated',
} as const;

/** `{"type": "svc:push", pushId, fileId, message, sentAt}`: the SDK's `pushMessage` payload, with the file the editor has open. */
export function pushMessage(push: EditorPush, fileId: string): string {
  return JSON.stringify({ type: EditorMessageType.push, pushId: push.pushId, fileId, message: push.message, sentAt: push.sentAt });
}

export function fileRenamedMessage(name: string): string {
  return JSON.stringify({ type: EditorMessageType.fileRenamed, name });
}

export function fileDeletedMessage(): string {
  return JSON.stringify({ type: EditorMessageType.fileDeleted });
}

/** `user`: the integrator's new answer (name, avatar) when the service could ask; null: pages ask again themselves. */
export function userUpdatedMessage(userId: string, user: { id: string; name: string; avatar: string } | null): string {
  return JSON.stringify({ type: EditorMessageType.userUpdated, userId, user });
}
