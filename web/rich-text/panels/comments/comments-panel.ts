import type { EditorMethod } from '../../../shared/bridge.js';
import { element } from '../../../shared/shell.js';
import { invalidArgument, optionsArgument, stringArgument } from '../../../shared/panels/arguments.js';
import type { ConversationContent } from '../../../shared/panels/composer/inline-content.js';
import type { Panel } from '../../../shared/panels/panel-host.js';
import type { DocumentSelection, ResolvedDocumentSelection, ThreadData } from '../../../shared/panels/comments/comment-store.js';
import { ConversationPanel, type CommentAnchors, type CommentTarget } from '../../../shared/panels/comments/conversation-panel.js';
import { t as commentText } from '../../../shared/panels/comments/messages.js';
import type { PanelsContext } from '../panels-context.js';
import { t } from '../../messages.js';
import { anchorOf } from './anchor.js';
import { CommentHighlights } from './comment-highlights.js';

/** Quotes longer than this are cut in the panel (the thread keeps the whole range). */
const QUOTE_CHARACTERS = 200;

/**
 * The rich-text editors' comments (docs/BROWSER.md "Panels"): the conversation panel anchored to text ranges
 * (Yjs relative positions, so the range follows edits), the commented text highlighted, a floating Comment button
 * beside a selection, and documentPro's comment SDK methods.
 */
class TextRangeAnchors implements CommentAnchors<DocumentSelection, ResolvedDocumentSelection> {
  readonly chooseFirst = t('comments.selectText');
  readonly highlights: CommentHighlights;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly context: PanelsContext,
    openThread: (selectionGuid: string) => void,
  ) {
    this.highlights = new CommentHighlights(context.editor, (selectionGuid) => {
      this.highlights.activate(selectionGuid);
      openThread(selectionGuid);
    });
    context.editor.on('selectionUpdate', () => {
      for (const listener of this.listeners) listener();
    });
  }

  target(): CommentTarget<DocumentSelection> | undefined {
    const { editor } = this.context;
    const { from, to, empty } = editor.state.selection;
    if (empty || editor.state.doc.textBetween(from, to, '').trim() === '') return undefined;
    const quote = editor.state.doc.textBetween(from, to, '\n');
    return { selection: anchorOf(editor, from, to), label: quote.length > QUOTE_CHARACTERS ? `${quote.slice(0, QUOTE_CHARACTERS)}…` : quote };
  }

  labelOf(thread: ThreadData<ResolvedDocumentSelection>): string | undefined {
    return thread.selection.quote;
  }

  isHere(thread: ThreadData<ResolvedDocumentSelection>): boolean {
    const { from, to } = this.context.editor.state.selection;
    const range = thread.selection;
    return range.from !== undefined && range.to !== undefined && from <= range.to && to >= range.from;
  }

  reveal(thread: ThreadData<ResolvedDocumentSelection>): void {
    this.highlights.activate(thread.selectionGuid);
    const range = this.highlights.rangeOf(thread.selectionGuid);
    if (!range) return;
    const { node } = this.context.editor.view.domAtPos(range.from);
    (node instanceof Element ? node : node.parentElement)?.scrollIntoView({ block: 'center' });
  }

  mark(open: ReadonlyArray<ThreadData<ResolvedDocumentSelection>>): void {
    this.highlights.show(
      open.flatMap((thread) => (thread.selection.from !== undefined && thread.selection.to !== undefined ? [{ selectionGuid: thread.selectionGuid, from: thread.selection.from, to: thread.selection.to }] : [])),
    );
  }

  onTargetChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}

/** The comments panel of a document or documentPro, with its SDK methods. */
export function richTextComments(context: PanelsContext): Panel {
  let panel: ConversationPanel<DocumentSelection, ResolvedDocumentSelection> | undefined;
  const anchors = new TextRangeAnchors(context, (selectionGuid) => panel?.open(selectionGuid));
  panel = new ConversationPanel(context, context.panels, anchors, context.permissions);
  const conversation = panel;
  const bubble = selectionBubble(context, () => conversation.startDraft());
  context.permissions.follow(() => bubble.place());
  return {
    id: conversation.id,
    label: conversation.label,
    element: conversation.element,
    shown: () => conversation.shown(),
    methods: () => ({ ...conversation.methods(), ...documentMethods(context, conversation, anchors) }),
  };
}

/** A floating Comment button beside a selection of text, for those who may comment. */
function selectionBubble(context: PanelsContext, start: () => void): { place(): void } {
  const { editor } = context;
  const bubble = element('button', 'svc-comment-bubble', commentText('comments.add'));
  bubble.type = 'button';
  bubble.title = commentText('comments.addTitle');
  bubble.hidden = true;
  // mousedown would take the selection away from the editor before the click
  bubble.addEventListener('mousedown', (event) => event.preventDefault());
  bubble.addEventListener('click', () => {
    bubble.hidden = true;
    start();
  });
  context.shell.main.append(bubble);
  const place = () => {
    const { from, to, empty } = editor.state.selection;
    // the page's selection, not focus: a reader's editor (not editable) never has focus but can be selected in
    const selected = window.getSelection();
    const inEditor = selected !== null && !selected.isCollapsed && editor.view.dom.contains(selected.anchorNode);
    if (empty || !inEditor || !context.permissions.now.commentable || editor.state.doc.textBetween(from, to, '').trim() === '') {
      bubble.hidden = true;
      return;
    }
    const end = editor.view.coordsAtPos(to);
    const area = context.shell.main.getBoundingClientRect();
    bubble.style.top = `${Math.max(area.top, end.top - 36)}px`;
    bubble.style.left = `${Math.min(area.right - 90, end.right + 8)}px`;
    bubble.hidden = false;
  };
  editor.on('selectionUpdate', place);
  document.addEventListener('selectionchange', place);
  context.shell.main.addEventListener('scroll', place, { passive: true });
  return { place };
}

/** SDK editor methods of the comments (browser-sdk.md: documentPro comments). */
function documentMethods(context: PanelsContext, panel: ConversationPanel<DocumentSelection, ResolvedDocumentSelection>, anchors: TextRangeAnchors): Record<string, EditorMethod> {
  const { store } = panel;
  const describe = (thread: ThreadData) => ({ selectionGuid: thread.selectionGuid, status: thread.status, quote: thread.selection.quote ?? '', detached: thread.selection.detached, comments: thread.comments });
  return {
    getComments: async () => {
      await store.reload();
      return store.threads.map(describe);
    },
    getComment: async (guid) => {
      await store.reload();
      const found = store.findComment(stringArgument(guid, 'commentGuid'));
      return found ? { ...found.comment, status: found.thread.status, quote: found.thread.selection.quote ?? '' } : null;
    },
    addComment: async (options) => {
      const { content, from, to } = optionsArgument(options, 'addComment');
      const range = from === undefined && to === undefined ? context.editor.state.selection : { from, to };
      if (typeof range.from !== 'number' || typeof range.to !== 'number' || range.from >= range.to) throw invalidArgument('addComment needs a selection: select text, or give {from, to} with from < to');
      if (range.to > context.editor.state.doc.content.size || range.from < 0) throw invalidArgument('addComment: {from, to} is outside the document');
      return store.create(anchorOf(context.editor, range.from, range.to), contentArgument(content));
    },
    replyComment: (options) => {
      const { commentGuid, content } = optionsArgument(options, 'replyComment');
      return store.reply(stringArgument(commentGuid, 'commentGuid'), contentArgument(content));
    },
    updateComment: (options) => {
      const { commentGuid, content } = optionsArgument(options, 'updateComment');
      return store.update(stringArgument(commentGuid, 'commentGuid'), contentArgument(content));
    },
    removeComment: (commentGuid) => store.remove(stringArgument(commentGuid, 'commentGuid')),
    goToComment: async (guid) => {
      const wanted = stringArgument(guid, 'guid');
      await store.reload();
      const thread = store.threads.find((candidate) => candidate.selectionGuid === wanted) ?? store.findComment(wanted)?.thread;
      if (!thread) throw invalidArgument(`no comment or thread ${wanted} in this file`);
      panel.open(thread.selectionGuid);
      anchors.reveal(thread);
    },
  };
}

function contentArgument(value: unknown): ConversationContent {
  if (typeof value === 'string' || Array.isArray(value)) return value as ConversationContent;
  throw invalidArgument('content must be a string or an array of inline nodes (text, mention, fileMention, hardBreak)');
}
