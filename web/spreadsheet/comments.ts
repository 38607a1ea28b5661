import { parseA1 } from '../../src/model/sheets/a1.js';
import type { EditorContext } from '../shared/editor-context.js';
import type { CellRange } from '../shared/grid/grid.js';
import type { ThreadData } from '../shared/panels/comments/comment-store.js';
import { ConversationPanel, type CommentAnchors, type CommentTarget } from '../shared/panels/comments/conversation-panel.js';
import type { PanelHost } from '../shared/panels/panel-host.js';
import { rangeText, type SpreadsheetEditor } from './editor.js';
import { t } from './messages.js';
import '../shared/panels/panels.css';

/** A spreadsheet comment's selection (docs/CONVERSATIONS.md "Selections"): a sheet by id and cells in A1. */
interface CellSelection {
  sheetId: string;
  range: string;
}

/** As listing resolves it: `sheet` is the name now, null once the sheet is deleted. */
interface ResolvedCellSelection extends CellSelection {
  detached: boolean;
  sheet: string | null;
}

type CellThread = ThreadData<ResolvedCellSelection>;

function areaOf(range: string): CellRange | undefined {
  try {
    const parsed = parseA1(range);
    return { top: parsed.startRow, left: parsed.startColumn, bottom: parsed.endRow, right: parsed.endColumn };
  } catch {
    return undefined;
  }
}

function covers(thread: CellThread, sheetId: string, row: number, column: number): boolean {
  if (thread.selection.detached || thread.selection.sheetId !== sheetId) return false;
  const area = areaOf(thread.selection.range);
  return area !== undefined && row >= area.top && row <= area.bottom && column >= area.left && column <= area.right;
}

/**
 * Cell comments: the conversation panel anchored to the selected cells of a sheet (`{sheetId, range}`), the
 * threads on the active cell first, and every cell under an open thread marked with a corner. The service sends
 * the spec's Comment events (`selectionTitle`, and `replyTo` / `replyComment` on replies) and MentionAt.
 */
class CellAnchors implements CommentAnchors<CellSelection, ResolvedCellSelection> {
  readonly chooseFirst = t('comments.pickCell');
  private open: readonly CellThread[] = [];

  constructor(private readonly editor: SpreadsheetEditor) {
    editor.setCellMarker((row, column) => this.open.some((thread) => covers(thread, editor.activeSheetId, row, column)));
  }

  target(): CommentTarget<CellSelection> {
    const range = rangeText(this.editor.grid.selectedRange);
    return { selection: { sheetId: this.editor.activeSheetId, range }, label: `${this.editor.workbook.nameOf(this.editor.sheet)}!${range}` };
  }

  labelOf(thread: CellThread): string | undefined {
    return thread.selection.sheet === null ? undefined : `${thread.selection.sheet}!${thread.selection.range}`;
  }

  isHere(thread: CellThread): boolean {
    const { active } = this.editor.grid.currentSelection;
    return covers(thread, this.editor.activeSheetId, active.row, active.column);
  }

  reveal(thread: CellThread): void {
    const sheet = this.editor.workbook.byId(thread.selection.sheetId);
    const area = areaOf(thread.selection.range);
    if (!sheet || !area) return;
    if (this.editor.activeSheetId !== thread.selection.sheetId) this.editor.activate(sheet);
    this.editor.grid.select({ row: area.top, column: area.left }, { row: area.bottom, column: area.right });
  }

  mark(open: readonly CellThread[]): void {
    this.open = open;
    this.editor.grid.refresh();
  }

  onTargetChange(listener: () => void): void {
    this.editor.onSelection(listener);
  }
}

/** The spreadsheet's comments panel. */
export function cellComments(context: EditorContext, editor: SpreadsheetEditor, panels: PanelHost): ConversationPanel<CellSelection, ResolvedCellSelection> {
  return new ConversationPanel(context, panels, new CellAnchors(editor));
}
