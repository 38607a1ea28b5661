import type { EditorPermissions } from '../boot.js';
import type { CollaborationSession } from '../collaboration.js';

/**
 * What the user may do now: the boot data's permissions, then every change the service announces on the
 * collaboration socket (`svc:access`), so a panel applies a permission taken away during a session at once.
 */
export class LivePermissions {
  private current: EditorPermissions;
  private readonly listeners = new Set<(permissions: EditorPermissions) => void>();

  constructor(initial: EditorPermissions, session: CollaborationSession) {
    this.current = { ...initial };
    session.onAccess((permissions) => {
      const changes: Partial<EditorPermissions> = {};
      for (const [key, value] of Object.entries(permissions)) if (key in this.current && typeof value === 'boolean') changes[key as keyof EditorPermissions] = value;
      this.current = { ...this.current, ...changes };
      for (const listener of this.listeners) listener(this.current);
    });
  }

  get now(): EditorPermissions {
    return this.current;
  }

  /** Calls `listener` with the permissions now and after every change. */
  follow(listener: (permissions: EditorPermissions) => void): void {
    this.listeners.add(listener);
    listener(this.current);
  }
}
