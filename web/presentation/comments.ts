import * as Y from 'yjs';
import { richTextToPlain } from '../../src/model/rich-text/schema.js';
import type { EditorContext } from '../shared/editor-context.js';
import type { ThreadData } from '../shared/panels/comments/comment-store.js';
import { ConversationPanel, type CommentAnchors, type CommentTarget } from '../shared/panels/comments/conversation-panel.js';
import type { PanelHost } from '../shared/panels/panel-host.js';
import { boxesOf, idOf, type Deck } from './deck.js';
import { t } from './messages.js';
import type { SlideList } from './slide-list.js';
import type { Stage } from './stage.js';

/** A presentation comment's selection (docs/CONVERSATIONS.md "Selections"): a slide, or a box of it. */
interface SlideSelection {
  slideId: string;
  boxId?: string;
}

interface ResolvedSlideSelection extends SlideSelection {
  detached: boolean;
}

type SlideThread = ThreadData<ResolvedSlideSelection>;

/** A box's words for a label: its first line of text, cut short; images and empty boxes have none. */
const BOX_WORDS = 30;

function boxWords(box: Y.Map<unknown> | undefined): string {
  const content = box?.get('content');
  if (!(content instanceof Y.XmlFragment)) return '';
  const line = richTextToPlain(content).split('\n').find((text) => text.trim().length > 0)?.trim() ?? '';
  return line.length > BOX_WORDS ? `${line.slice(0, BOX_WORDS)}…` : line;
}

/**
 * Slide comments: the conversation panel anchored to the open slide, or to the selected box when one is
 * selected (`{slideId, boxId?}`); slides with open threads carry a count on their thumbnail and commented boxes
 * a corner mark. The service sends Comment and MentionAt events as for every kind.
 */
class SlideAnchors implements CommentAnchors<SlideSelection, ResolvedSlideSelection> {
  readonly chooseFirst = t('comments.pickSlide');
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly deck: Deck,
    private readonly stage: Stage,
    private readonly slideList: SlideList,
    private readonly openSlide: (slideId: string) => void,
  ) {}

  /** The open slide or the selected box changed. */
  moved(): void {
    for (const listener of this.listeners) listener();
  }

  target(): CommentTarget<SlideSelection> | undefined {
    const slideId = this.stage.currentSlideId;
    if (slideId === undefined) return undefined;
    const boxId = this.stage.selectedBox;
    const selection = boxId === undefined ? { slideId } : { slideId, boxId };
    return { selection, label: this.describe(selection) };
  }

  labelOf(thread: SlideThread): string | undefined {
    return this.deck.slide(thread.selection.slideId) ? this.describe(thread.selection) : undefined;
  }

  isHere(thread: SlideThread): boolean {
    return thread.selection.slideId === this.stage.currentSlideId && (thread.selection.boxId === undefined || this.stage.selectedBox === undefined || thread.selection.boxId === this.stage.selectedBox);
  }

  reveal(thread: SlideThread): void {
    this.openSlide(thread.selection.slideId);
    if (thread.selection.boxId !== undefined) this.stage.select(thread.selection.boxId);
  }

  mark(open: readonly SlideThread[]): void {
    const perSlide = new Map<string, number>();
    for (const thread of open) perSlide.set(thread.selection.slideId, (perSlide.get(thread.selection.slideId) ?? 0) + 1);
    this.slideList.showComments(perSlide);
    this.stage.markCommented(new Set(open.flatMap((thread) => (thread.selection.boxId === undefined ? [] : [thread.selection.boxId]))));
  }

  onTargetChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private describe(selection: SlideSelection): string {
    const slide = this.deck.slide(selection.slideId);
    const number = slide ? this.deck.indexOf(selection.slideId) + 1 : 0;
    if (selection.boxId === undefined) return t('comments.onSlide', { number });
    const box = boxesOf(slide).find((candidate) => idOf(candidate) === selection.boxId);
    const words = boxWords(box);
    return words ? t('comments.onBoxText', { number, text: words }) : t('comments.onBox', { number });
  }
}

/** The presentation's comments panel; `moved` is called when the open slide or the selected box changes. */
export function slideComments(
  context: EditorContext,
  panels: PanelHost,
  parts: { deck: Deck; stage: Stage; slideList: SlideList; open: (slideId: string) => void },
): { panel: ConversationPanel<SlideSelection, ResolvedSlideSelection>; moved(): void } {
  const anchors = new SlideAnchors(parts.deck, parts.stage, parts.slideList, parts.open);
  return { panel: new ConversationPanel(context, panels, anchors), moved: () => anchors.moved() };
}
