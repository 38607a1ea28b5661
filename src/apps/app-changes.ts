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
  | { kind: 'permissions'; appId: string; fileIds: string[]; userIds: string[] }
  /** a message for open editors (docs/PUSH-AND-EVENTS.md): of one file (optionally of some of its users), or of one user */
  | { kind: 'push'; appId: string; push: EditorPush }
  /** a process's answer to a push that asked for receipts: how many of its editors it handed the message to */
  | { kind: 'push-receipt'; appId: string; pushId: string; replyTo: string; delivered: number }
  /** the integrator reported that a file was renamed (`name`) or deleted: open editors are told, cached answers dropped */
  | { kind: 'file'; appId: string; fileId: string; change: { type: 'renamed'; name: string } | { type: 'deleted' } }
  /** the integrator reported that a user's name or avatar changed; `user` is the new answer when the service could ask */
  | { kind: 'user'; appId: string; userId: string; user: { id: string; name: string; avatar: string } | null };

/** A push as it travels between processes: who gets it and what they get. */
export interface EditorPush {
  pushId: string;
  /** the file whose editors get it; absent: every editor of `userIds[0]` */
  fileId?: string | undefined;
  /** narrows the recipients to these users (empty: every user of the file) */
  userIds: string[];
  /** the integrator's JSON value, as sent */
  message: unknown;
  /** ISO 8601 UTC */
  sentAt: string;
  /** the process waiting for receipts (push-receipt), if any */
  replyTo?: string | undefined;
}

export type AppChangeListener = (change: AppChange) => void;

export interface AppChanges {
  /**
   * Tells every listener of every process. Listeners of this process have been told when it resolves, so
   * the next request here sees the change; other processes are told as fast as the transport allows.
   * Resolves to the number of other processes the transport handed it to (0 alone, or when it is away).
   */
  publish(change: AppChange): Promise<number>;
  /** Returns the unsubscribe function. */
  subscribe(listener: AppChangeListener): () => void;
}

/** Listeners of one process; the building block of every transport (each delivers to its own process through it). */
export class LocalAppChanges implements AppChanges {
  private readonly listeners = new Set<AppChangeListener>();

  constructor(private readonly onListenerError: (error: unknown, change: AppChange) => void = () => undefined) {}

  async publish(change: AppChange): Promise<number> {
    this.deliver(change);
    return 0;
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
