import type { Selectable } from 'kysely';
import { discussionEvent, mentionAtEvent } from '../../events/builders.js';
import type { PendingEvent } from '../../events/types.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { DiscussionMessagesTable } from '../../storage/schema.js';
import { mentionsOf, parseContent, type ContentInputValue, type ContentNode } from './content.js';
import { newlyMentioned, noticePlace } from './mention-notices.js';
import type { Participant } from './participants.js';
import type { ConversationDeps } from './conversation-deps.js';

export interface DiscussionMessageView {
  id: string;
  userId: string;
  content: string;
  nodes: ContentNode[];
  userIds: string[];
  /** send time in microseconds (spec `unixus`) */
  unixus: number;
  createdAt: string;
}

type MessageRow = Selectable<DiscussionMessagesTable>;

/** Microseconds since the epoch, from the high-resolution clock (messages sent in one millisecond keep their order). */
function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** A file's discussion (chat): messages with mentions, announced by Discussion and MentionAt events. */
export class DiscussionService {
  constructor(private readonly deps: ConversationDeps) {}

  async send(auth: RequestAuth, fileId: string, input: { content: ContentInputValue }): Promise<DiscussionMessageView> {
    const caller = await this.deps.people.authorize(auth, fileId, 'commentable');
    await this.deps.files.get(auth.app.id, fileId);
    const content = await this.deps.people.label(auth, parseContent(input.content));
    const message: MessageRow = {
      id: crypto.randomUUID(),
      app_id: auth.app.id,
      file_id: fileId,
      author_id: caller.user.id,
      nodes: JSON.stringify(content.nodes),
      text: content.text,
      mentioned: JSON.stringify(content.mentioned),
      unixus: nowMicros(),
    };
    await this.deps.storage.db.transaction().execute(async (trx) => {
      await trx.insertInto('discussion_messages').values(message).execute();
      const base = { appId: auth.app.id, fileId, userId: caller.user.id, userToken: auth.token };
      const discussion = { id: message.id, unixus: message.unixus, content: message.text };
      const events: PendingEvent[] = [discussionEvent({ ...base, discussion })];
      const fresh = await newlyMentioned(trx, auth.app.id, fileId, noticePlace.discussion(message.id), content.mentioned);
      if (fresh.length > 0) events.push(mentionAtEvent({ ...base, type: 'discussion', discussion: { ...discussion, userIds: fresh } }));
      await this.deps.outbox.add(trx, events);
    });
    this.deps.changed(auth.app.id, fileId, { subject: 'discussion', action: 'create', id: message.id });
    return messageView(message);
  }

  /** Messages newest first, `pageSize` at a time, older than `before` (a message's unixus) when given. */
  async list(
    auth: RequestAuth,
    fileId: string,
    page: { pageSize: number; before?: number | undefined },
  ): Promise<{ messages: DiscussionMessageView[]; isLastPage: boolean; users: Record<string, Participant> }> {
    await this.deps.people.authorize(auth, fileId, 'readable');
    await this.deps.files.get(auth.app.id, fileId);
    let query = this.deps.storage.db.selectFrom('discussion_messages').selectAll().where('app_id', '=', auth.app.id).where('file_id', '=', fileId);
    if (page.before !== undefined) query = query.where('unixus', '<', page.before);
    const rows = await query.orderBy('unixus', 'desc').orderBy('id', 'desc').limit(page.pageSize + 1).execute();
    const messages = rows.slice(0, page.pageSize).map(messageView);
    return {
      messages,
      isLastPage: rows.length <= page.pageSize,
      users: await this.deps.people.directory(auth, messages.flatMap((message) => [message.userId, ...message.userIds])),
    };
  }

  /** Mentions in discussion messages, oldest first, for mention-at-list. */
  async mentions(appId: string, fileId: string): Promise<Array<{ userId: string; atGuid: string; discussionId: string }>> {
    const rows = await this.deps.storage.db
      .selectFrom('discussion_messages')
      .select(['id', 'nodes'])
      .where('app_id', '=', appId)
      .where('file_id', '=', fileId)
      .where('mentioned', '!=', '[]')
      .orderBy('unixus')
      .execute();
    return rows.flatMap((row) => mentionsOf(JSON.parse(row.nodes) as ContentNode[]).map((mention) => ({ ...mention, discussionId: row.id })));
  }
}

function messageView(row: MessageRow): DiscussionMessageView {
  return {
    id: row.id,
    userId: row.author_id,
    content: row.text,
    nodes: JSON.parse(row.nodes) as ContentNode[],
    userIds: JSON.parse(row.mentioned) as string[],
    unixus: Number(row.unixus),
    createdAt: new Date(Math.floor(Number(row.unixus) / 1000)).toISOString(),
  };
}
