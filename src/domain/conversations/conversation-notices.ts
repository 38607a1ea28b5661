/**
 * A change of a file's conversation, told to its open editors so they refresh what they show without
 * polling (docs/CONVERSATIONS.md "Open editors"). Sent after the change committed.
 */
export interface ConversationChange {
  /** what changed */
  subject: 'comment' | 'thread' | 'discussion' | 'dateMention';
  action: 'create' | 'update' | 'delete' | 'close' | 'reopen';
  /** the comment guid, thread selectionGuid, discussion message id or date mention id */
  id: string;
  /** the thread, for comment and thread changes */
  selectionGuid?: string;
}

export type ConversationListener = (appId: string, fileId: string, change: ConversationChange) => void;

/** The stateless message editors receive: `{"type": "svc:conversation", subject, action, id, selectionGuid?}`. */
export const CONVERSATION_MESSAGE_TYPE = 'svc:conversation';

export function conversationMessage(change: ConversationChange): string {
  return JSON.stringify({ type: CONVERSATION_MESSAGE_TYPE, ...change });
}
