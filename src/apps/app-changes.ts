/**
 * What changed about an application, announced to everything that keeps something of it in memory: the
 * app's own cache, the integrator's cached answers, open collaboration sessions. With several processes the
 * announcement travels between them (src/cluster/redis-app-changes.ts); alone, it stays in the process.
 */
export type AppChange =
  /** endpoint URL, secret or settings: anything remembered about the app or learnt from its integrator is stale */
  | { kind: 'settings'; appId: string }
  /**
   * The integrator says permissions changed (license/apps/{appId}/permission-changes): of these files, of
   * these users, or (both empty) of anything of the app.
   */
  | { kind: 'permissions'; appId: string; fileIds: string[]; userIds: string[] };

export type AppChangeListener = (change: AppChange) => void;

export interface AppChanges {
  /**
   * Tells every listener of every process. Listeners of this process have been told when it resolves, so
   * the next request here sees the change; other processes are told as fast as the transport allows.
   */
  publish(change: AppChange): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: AppChangeListener): () => void;
}

/** Listeners of one process; the building block of every transport (each delivers to its own process through it). */
export class LocalAppChanges implements AppChanges {
  private readonly listeners = new Set<AppChangeListener>();

  constructor(private readonly onListenerError: (error: unknown, change: AppChange) => void = () => undefined) {}

  async publish(change: AppChange): Promise<void> {
    this.deliver(change);
  }

  /** Hands the change to this process's listeners; one that throws does not keep it from the others. */
  deliver(change: AppChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.onListenerError(error, change);
      }
    }
  }

  subscribe(listener: AppChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Whether a permission change concerns one cached answer about `fileId` (if any) for `userId` (if known). */
export function concernsAnswer(change: Extract<AppChange, { kind: 'permissions' }>, fileId: string | undefined, userId: string | undefined): boolean {
  const files = change.fileIds.length === 0 || (fileId !== undefined && change.fileIds.includes(fileId));
  // an answer whose user is not known yet (the token is still being resolved) may be anyone's
  const users = change.userIds.length === 0 || userId === undefined || change.userIds.includes(userId);
  return files && users;
}
