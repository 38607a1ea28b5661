import type { ServiceApi } from '../../api.js';
import type { CollaborationSession } from '../../collaboration.js';
import type { ConversationContent, InlineNode } from '../composer/inline-content.js';

/** A comment as the conversation API answers it (src/routes/backend/conversations.ts). */
export interface CommentData {
  guid: string;
  selectionGuid: string;
  replyTo: string | null;
  userId: string;
  content: string;
  nodes: InlineNode[];
  userIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** A document selection as listing resolves it now. */
export interface ResolvedDocumentSelection {
  detached: boolean;
  from?: number;
  to?: number;
  quote?: string;
}

/** A thread: its selection resolved now (docs/CONVERSATIONS.md "Selections", one shape per file kind). */
export interface ThreadData<Resolved = ResolvedDocumentSelection> {
  selectionGuid: string;
  selection: Resolved;
  status: 'open' | 'closed';
  closedBy: string | null;
  createdBy: string;
  createdAt: string;
  comments: CommentData[];
}

interface ThreadPage<Resolved> {
  threads: Array<ThreadData<Resolved>>;
  isLastPage: boolean;
  users: Record<string, { id: string; name: string; avatar: string }>;
}

/** A document selection as the API takes it: base64 Yjs relative positions of the two ends. */
export interface DocumentSelection {
  start: string;
  end: string;
}

const PAGE_SIZE = 100;
/** More threads than this are not shown in the sidebar (the API pages them; the newest come first). */
const MAX_PAGES = 10;
const RELOAD_DELAY_MS = 80;

/**
 * The file's comment threads as the page knows them: read through comment-list, changed through the comment
 * routes, and read again whenever the service announces a change (`svc:conversation`), whoever made it.
 * `Selection` is what a new thread is anchored with and `Resolved` what listing answers, per file kind
 * (defaults: a document's).
 */
export class CommentStore<Selection = DocumentSelection, Resolved = ResolvedDocumentSelection> {
  private threadList: Array<ThreadData<Resolved>> = [];
  private userNames = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private reloadTimer: number | undefined;
  private requested = 0;
  private applied = 0;

  constructor(
    private readonly api: ServiceApi,
    session: CollaborationSession,
  ) {
    session.onMessage((message) => {
      // svc:user-updated: an author's name or avatar changed (the service dropped its cached answer)
      if ((message.type === 'svc:conversation' && (message.subject === 'comment' || message.subject === 'thread')) || message.type === 'svc:user-updated') this.scheduleReload();
    });
  }

  get threads(): ReadonlyArray<ThreadData<Resolved>> {
    return this.threadList;
  }

  nameOf(userId: string): string | undefined {
    return this.userNames.get(userId);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the threads again. Reads may overlap; the answer of the latest one asked wins. */
  async reload(): Promise<void> {
    const asked = ++this.requested;
    const { threads, names } = await this.readAll();
    if (asked < this.applied) return;
    this.applied = asked;
    this.threadList = threads;
    this.userNames = names;
    for (const listener of this.listeners) listener();
  }

  findComment(guid: string): { thread: ThreadData<Resolved>; comment: CommentData } | undefined {
    for (const thread of this.threadList) {
      const comment = thread.comments.find((candidate) => candidate.guid === guid);
      if (comment) return { thread, comment };
    }
    return undefined;
  }

  async create(selection: Selection, content: ConversationContent): Promise<CommentData> {
    return this.changed(this.api.call<CommentData>(this.api.filePath('comments'), { method: 'POST', body: { selection, content } }));
  }

  async reply(commentGuid: string, content: ConversationContent): Promise<CommentData> {
    return this.changed(this.api.call<CommentData>(this.api.filePath(`comments/${encodeURIComponent(commentGuid)}/replies`), { method: 'POST', body: { content } }));
  }

  async update(commentGuid: string, content: ConversationContent): Promise<CommentData> {
    return this.changed(this.api.call<CommentData>(this.api.filePath(`comments/${encodeURIComponent(commentGuid)}`), { method: 'PATCH', body: { content } }));
  }

  async remove(commentGuid: string): Promise<{ deleted: string[] }> {
    return this.changed(this.api.call<{ deleted: string[] }>(this.api.filePath(`comments/${encodeURIComponent(commentGuid)}`), { method: 'DELETE' }));
  }

  async setClosed(selectionGuid: string, closed: boolean): Promise<void> {
    await this.changed(this.api.call(this.api.filePath(`comment-threads/${encodeURIComponent(selectionGuid)}/${closed ? 'close' : 'reopen'}`), { method: 'POST' }));
  }

  private async changed<T>(request: Promise<T>): Promise<T> {
    const result = await request;
    await this.reload();
    return result;
  }

  private scheduleReload(): void {
    window.clearTimeout(this.reloadTimer);
    this.reloadTimer = window.setTimeout(() => void this.reload().catch(() => undefined), RELOAD_DELAY_MS);
  }

  private async readAll(): Promise<{ threads: Array<ThreadData<Resolved>>; names: Map<string, string> }> {
    const threads: Array<ThreadData<Resolved>> = [];
    const names = new Map<string, string>();
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await this.api.call<ThreadPage<Resolved>>(this.api.filePath('comment-list'), { query: { page, pageSize: PAGE_SIZE, status: 'all' } });
      threads.push(...answer.threads);
      for (const user of Object.values(answer.users)) names.set(user.id, user.name);
      if (answer.isLastPage) break;
    }
    return { threads, names };
  }
}
