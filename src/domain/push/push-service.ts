import crypto from 'node:crypto';
import { ApiError, Errors } from '../../errors.js';
import type { AppChange, AppChanges, EditorPush } from '../../apps/app-changes.js';
import type { FileService } from '../files/file-service.js';
import { fileDeletedMessage, fileRenamedMessage, pushMessage, userUpdatedMessage } from './editor-messages.js';

/** Longest push `message`, as JSON in UTF-8 (docs/PUSH-AND-EVENTS.md). */
export const MAX_PUSH_MESSAGE_BYTES = 64 * 1024;
/** How long a user push waits for the other processes to say how many editors they handed it to. */
export const PUSH_RECEIPT_WAIT_MS = 500;

/** Who an open editor session is: what `OpenEditors` picks sessions by. */
export interface EditorSession {
  appId: string;
  fileId: string;
  userId: string;
}

/** The open editor sessions of this process (the content engine's): told a message, or ended. */
export interface OpenEditors {
  tellSessions(concerned: (session: EditorSession) => boolean, message: (session: EditorSession) => string): number;
  endSessionsOfDeletedFile(appId: string, fileId: string, message: string): number;
}

interface AwaitedReceipts {
  /** how many other processes PUBLISH reached; unknown until it answers */
  expected: number | undefined;
  received: number;
  delivered: number;
  done: () => void;
}

/**
 * Pushes integrators' messages to open editors and applies what other processes announce (docs/PUSH-AND-EVENTS.md).
 * Every push travels as an app change (AppChanges: Redis pub/sub between processes, or this process alone):
 * each process hands it to its own sessions, so `userIds` narrows it on every process. Nothing is stored: an
 * editor opened after the push does not get it. A user push asks the other processes for receipts.
 */
export class PushService {
  /** this process, as the address of receipts */
  private readonly processId = crypto.randomUUID();
  private readonly awaited = new Map<string, AwaitedReceipts>();

  constructor(
    private readonly files: FileService,
    private readonly changes: AppChanges,
    private readonly editors: OpenEditors,
    private readonly onError: (error: unknown) => void,
  ) {
    changes.subscribe((change) => this.apply(change));
  }

  /** Every open editor of the file (of `userIds`, when given) on every process gets `message` now. */
  async toFile(appId: string, fileId: string, message: unknown, userIds: string[] = []): Promise<{ pushId: string }> {
    const sentAt = checkedPush(message);
    await this.files.get(appId, fileId);
    const push: EditorPush = { pushId: crypto.randomUUID(), fileId, userIds: [...new Set(userIds)], message, sentAt };
    await this.changes.publish({ kind: 'push', appId, push });
    return { pushId: push.pushId };
  }

  /**
   * Every editor the user has open in the app, whatever the file, gets `message`. `delivered`: the sessions of
   * this process that took it plus those the other processes report within PUSH_RECEIPT_WAIT_MS. None: 124003.
   */
  async toUser(appId: string, userId: string, message: unknown): Promise<{ pushId: string; delivered: number }> {
    const sentAt = checkedPush(message);
    const push: EditorPush = { pushId: crypto.randomUUID(), userIds: [userId], message, sentAt, replyTo: this.processId };
    let done = () => undefined as void;
    const answered = new Promise<void>((resolve) => (done = resolve));
    const receipts: AwaitedReceipts = { expected: undefined, received: 0, delivered: 0, done };
    this.awaited.set(push.pushId, receipts);
    let timer: NodeJS.Timeout | undefined;
    try {
      // this process's sessions are told (and counted) before publish resolves: see apply()
      const others = await this.changes.publish({ kind: 'push', appId, push });
      // a receipt may come in before PUBLISH answers
      receipts.expected = others;
      if (receipts.received < others) {
        timer = setTimeout(done, PUSH_RECEIPT_WAIT_MS);
        await answered;
      }
    } finally {
      if (timer) clearTimeout(timer);
      this.awaited.delete(push.pushId);
    }
    if (receipts.delivered === 0) {
      throw new ApiError(Errors.pushNoOpenEditors, `user ${userId} has no open editor in this application: the message reached no one and was not kept`, {
        pushId: push.pushId,
        delivered: 0,
      });
    }
    return { pushId: push.pushId, delivered: receipts.delivered };
  }

  /** What an app change means for this process's open editors (every process runs this for every change). */
  private apply(change: AppChange): void {
    try {
      switch (change.kind) {
        case 'push':
          return this.deliver(change.appId, change.push);
        case 'push-receipt':
          return this.receipt(change.pushId, change.replyTo, change.delivered);
        case 'file':
          if (change.change.type === 'deleted') this.editors.endSessionsOfDeletedFile(change.appId, change.fileId, fileDeletedMessage());
          else this.editors.tellSessions(ofFile(change.appId, change.fileId), () => fileRenamedMessage((change.change as { name: string }).name));
          return;
        case 'user': {
          const message = userUpdatedMessage(change.userId, change.user);
          this.editors.tellSessions((session) => session.appId === change.appId, () => message);
          return;
        }
        default:
          return;
      }
    } catch (error) {
      this.onError(error);
    }
  }

  private deliver(appId: string, push: EditorPush): void {
    const users = new Set(push.userIds);
    const delivered = this.editors.tellSessions(
      (session) => session.appId === appId && (push.fileId === undefined || session.fileId === push.fileId) && (users.size === 0 || users.has(session.userId)),
      (session) => pushMessage(push, session.fileId),
    );
    if (push.replyTo === undefined) return;
    if (push.replyTo === this.processId) {
      const receipts = this.awaited.get(push.pushId);
      if (receipts) receipts.delivered += delivered;
      return;
    }
    void this.changes.publish({ kind: 'push-receipt', appId, pushId: push.pushId, replyTo: push.replyTo, delivered }).catch(this.onError);
  }

  private receipt(pushId: string, replyTo: string, delivered: number): void {
    if (replyTo !== this.processId) return;
    const receipts = this.awaited.get(pushId);
    if (!receipts) return;
    receipts.delivered += delivered;
    receipts.received++;
    if (receipts.expected !== undefined && receipts.received >= receipts.expected) receipts.done();
  }
}

function ofFile(appId: string, fileId: string): (session: EditorSession) => boolean {
  return (session) => session.appId === appId && session.fileId === fileId;
}

/** The message's size rule; answers the push's `sentAt`. */
function checkedPush(message: unknown): string {
  const bytes = Buffer.byteLength(JSON.stringify(message) ?? '', 'utf8');
  if (bytes > MAX_PUSH_MESSAGE_BYTES) {
    throw new ApiError(Errors.pushMessageTooLarge, `message is ${bytes} bytes as JSON; at most ${MAX_PUSH_MESSAGE_BYTES} are pushed`, {
      limitBytes: MAX_PUSH_MESSAGE_BYTES,
      bytes,
    });
  }
  return new Date().toISOString();
}
