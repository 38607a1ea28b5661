import type { Editor } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** A commented range to mark in the text. */
export interface HighlightRange {
  selectionGuid: string;
  from: number;
  to: number;
}

interface HighlightState {
  decorations: DecorationSet;
  active: string | undefined;
}

const key = new PluginKey<HighlightState>('svcCommentHighlights');

function decorate(editor: Editor, ranges: HighlightRange[], active: string | undefined): DecorationSet {
  const { doc } = editor.state;
  const size = doc.content.size;
  const decorations = ranges
    .filter((range) => range.from < range.to && range.to <= size)
    .map((range) =>
      Decoration.inline(
        range.from,
        range.to,
        { class: range.selectionGuid === active ? 'svc-comment-anchor svc-comment-anchor-active' : 'svc-comment-anchor', 'data-thread': range.selectionGuid },
        { selectionGuid: range.selectionGuid },
      ),
    );
  return DecorationSet.create(doc, decorations);
}

/**
 * Marks commented text in the editor. The ranges come from the service (comment-list resolves each thread's
 * anchor now); between two reads they follow the edits through the transactions' mapping. A click inside a
 * marked range calls `clicked` with its thread. Nothing is written into the document: comments are anchored
 * by the service, not by marks in the content.
 */
export class CommentHighlights {
  private ranges: HighlightRange[] = [];
  private active: string | undefined;

  constructor(
    private readonly editor: Editor,
    clicked: (selectionGuid: string) => void,
  ) {
    editor.registerPlugin(
      new Plugin<HighlightState>({
        key,
        state: {
          init: () => ({ decorations: DecorationSet.empty, active: undefined }),
          apply: (tr, value) => tr.getMeta(key) ?? { ...value, decorations: value.decorations.map(tr.mapping, tr.doc) },
        },
        props: {
          decorations: (state) => key.getState(state)?.decorations,
          handleClick: (view, pos) => {
            const found = key.getState(view.state)?.decorations.find(pos, pos, (spec) => typeof spec.selectionGuid === 'string');
            const selectionGuid = found?.[0]?.spec.selectionGuid as string | undefined;
            if (selectionGuid) clicked(selectionGuid);
            return false;
          },
        },
      }),
    );
  }

  show(ranges: HighlightRange[]): void {
    this.ranges = ranges;
    this.apply();
  }

  activate(selectionGuid: string | undefined): void {
    this.active = selectionGuid;
    this.apply();
  }

  /** The range of a thread as the editor shows it now (mapped through edits since the last read). */
  rangeOf(selectionGuid: string): { from: number; to: number } | undefined {
    const found = key.getState(this.editor.state)?.decorations.find(undefined, undefined, (spec) => spec.selectionGuid === selectionGuid);
    const decoration = found?.[0];
    return decoration ? { from: decoration.from, to: decoration.to } : undefined;
  }

  private apply(): void {
    if (this.editor.isDestroyed) return;
    const { tr } = this.editor.state;
    this.editor.view.dispatch(tr.setMeta(key, { decorations: decorate(this.editor, this.ranges, this.active), active: this.active }).setMeta('addToHistory', false));
  }
}
