import type { EventClass, PendingEvent } from './types.js';

/**
 * Typed builders for every event class (spec 6, contract notes 4): later features emit an event with one
 * call, e.g. `services.outbox.add(trx, fileContentEvent({appId, fileId, userId, version}))`.
 * `timestamp` is epoch milliseconds, set when the event is built (inside the causing transaction).
 */

interface EventBase {
  appId: string;
  fileId: string;
  /** integrator user id of whoever caused it */
  userId: string;
  /** the user's X-Svc-Token, when a user's request caused it: forwarded to the integrator */
  userToken?: string | undefined;
}

function pending(eventClass: EventClass, base: EventBase, body: Record<string, unknown>): PendingEvent {
  return {
    appId: base.appId,
    fileId: base.fileId,
    eventClass,
    payload: { fileId: base.fileId, userId: base.userId, ...body },
    userToken: base.userToken,
  };
}

/** The `suggestion` object of a Suggestion event (docs/PUSH-AND-EVENTS.md "Suggestion events"). */
export interface SuggestionObject {
  id: string;
  kind: 'insertion' | 'deletion';
  /** the suggested or struck text */
  text: string;
  /** the author's integrator user id; null for a suggestion imported from a Word revision */
  authorId: string | null;
  authorName: string | null;
  /** ISO 8601, when it was made */
  date: string | null;
}

/** A suggestion made, accepted or rejected in a document's body; `userId` is who made, accepted or rejected it. */
export function suggestionEvent(input: EventBase & { action: 'create' | 'accept' | 'reject'; suggestion: SuggestionObject }): PendingEvent {
  return pending('Suggestion', input, { kind: 'suggestion', type: 'suggestion', action: input.action, suggestion: input.suggestion, timestamp: Date.now() });
}

/** The `comment` object of spec 6. */
export interface CommentObject {
  guid: string;
  selectionGuid: string;
  content: string;
  /** mentioned users; empty when none */
  userIds: string[];
  selectionTitle?: string;
  selectionContent?: string;
  replyTo?: string;
  replyComment?: { userId: string; commentGuid: string; selectionTitle?: string; selectionGuid?: string };
}

export type CommentEventInput = EventBase &
  (
    | { action: 'create' | 'update'; comment: CommentObject }
    | { action: 'delete'; deleteComment: { guid: string; selectionGuid?: string } }
    | { action: 'closeComments'; closeComment: { selectionGuid: string; guids?: string[] } }
  );

export function commentEvent(input: CommentEventInput): PendingEvent {
  const object =
    input.action === 'delete'
      ? { deleteComment: input.deleteComment }
      : input.action === 'closeComments'
        ? { closeComment: input.closeComment }
        : { comment: input.comment };
  return pending('Comment', input, { kind: 'comment', type: 'comment', action: input.action, ...object });
}

/** The `discussion` object of spec 6. */
export interface DiscussionObject {
  id: string;
  /** send time in microseconds */
  unixus: number;
  content: string;
  userIds?: string[];
  positionId?: string;
}

export function discussionEvent(input: EventBase & { discussion: DiscussionObject }): PendingEvent {
  return pending('Discussion', input, { kind: 'discussion', type: 'discussion', action: 'create', discussion: input.discussion });
}

export type MentionAtEventInput = EventBase &
  (
    | { type: 'comment'; comment: CommentObject }
    | { type: 'discussion'; discussion: DiscussionObject }
    | { type: 'mention_at'; mentionAt: { atGuid: string; userIds: string[]; content?: string } }
  );

export function mentionAtEvent(input: MentionAtEventInput): PendingEvent {
  const object =
    input.type === 'comment' ? { comment: input.comment } : input.type === 'discussion' ? { discussion: input.discussion } : { mentionAt: input.mentionAt };
  return pending('MentionAt', input, { kind: 'mention_at', type: input.type, action: 'create', ...object });
}

export interface DateMentionData {
  id: string;
  content: string;
  remindUserIds: string[];
  /** when to remind: epoch milliseconds */
  remindAt: number;
  positionId: string;
}

export type DateMentionEventInput = EventBase &
  (
    | { action: 'create'; createData: DateMentionData }
    | { action: 'update'; updateData: DateMentionData }
    | { action: 'remove'; removeData: { id: string } }
  );

export function dateMentionEvent(input: DateMentionEventInput): PendingEvent {
  const data =
    input.action === 'create'
      ? { createData: { ...input.createData, fileId: input.fileId, authorId: input.userId } }
      : input.action === 'update'
        ? { updateData: input.updateData }
        : { removeData: input.removeData };
  return pending('DateMention', input, { kind: 'mention', type: 'date_mention', action: input.action, ...data });
}

/** The file's content changed and now has `version` (delivered as a system call, contract notes 4). */
export function fileContentEvent(input: EventBase & { version: number }): PendingEvent {
  return pending('FileContent', input, { kind: 'fileContent', action: 'update', fileContent: { version: input.version }, timestamp: Date.now() });
}

/** A collaborator's editor connection entered or left the file (delivered as a system call). */
export function collaboratorEvent(input: EventBase & { action: 'enter' | 'leave'; clientId: string | number }): PendingEvent {
  return pending('Collaborator', input, {
    kind: 'collaborator',
    action: input.action,
    collaboratorChanged: { clientId: input.clientId },
    timestamp: Date.now(),
  });
}

export interface RevisionObject {
  revisionId: string;
  title: string;
  label: string;
  docHistoryId: string;
}

export function revisionEvent(input: EventBase & { action: 'create' | 'update' | 'delete'; revision: RevisionObject }): PendingEvent {
  return pending('Revision', input, { kind: 'revision', action: input.action, revision: input.revision, timestamp: Date.now() });
}

export interface SystemEventInput {
  appId: string;
  request: { headers: Record<string, string>; url: string; body: unknown };
  response: { headers: Record<string, string>; status: number; body: string } | null;
  errorMessage: string;
}

/** Tells the integrator that one of its callbacks failed (`type: endpointCallback`). Not tied to a file. */
export function systemEvent(input: SystemEventInput): PendingEvent {
  return {
    appId: input.appId,
    fileId: null,
    eventClass: 'System',
    payload: {
      kind: 'System',
      type: 'endpointCallback',
      appId: input.appId,
      timestamp: Date.now(),
      request: input.request,
      response: input.response ?? { headers: {}, status: 0, body: '' },
      errorMessage: input.errorMessage,
    },
  };
}

/** Event classes the integrator receives as system calls (signature, credential type 3) per contract notes 4. */
export const SYSTEM_EVENT_CLASSES: ReadonlySet<EventClass> = new Set(['FileContent', 'Collaborator', 'System']);
