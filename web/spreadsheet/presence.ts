import type { CollaborationSession } from '../shared/collaboration.js';
import type { CellRange, GridHighlight } from '../shared/grid/grid.js';
import type { SpreadsheetEditor } from './editor.js';

/** The awareness field with this user's selection: the sheet and the selected rectangle. */
const SELECTION_FIELD = 'sheetSelection';

interface SharedSelection extends CellRange {
  sheetId: string;
}

function isSharedSelection(value: unknown): value is SharedSelection {
  if (typeof value !== 'object' || value === null) return false;
  const selection = value as Record<string, unknown>;
  return typeof selection.sheetId === 'string' && ['top', 'left', 'bottom', 'right'].every((side) => Number.isInteger(selection[side]));
}

/**
 * Collaborators' selections: each editor publishes its selection in its awareness state and draws the
 * others' selections on the active sheet in their colours, with their names.
 */
export function showCollaboratorSelections(session: CollaborationSession, editor: SpreadsheetEditor): void {
  const awareness = session.provider.awareness;
  if (!awareness) return;
  const publish = () => awareness.setLocalStateField(SELECTION_FIELD, { sheetId: editor.activeSheetId, ...editor.grid.selectedRange } satisfies SharedSelection);
  const draw = () => {
    const people = new Map(session.collaborators().map((person) => [person.clientId, person]));
    const highlights: GridHighlight[] = [];
    for (const [clientId, state] of awareness.getStates()) {
      const selection: unknown = state[SELECTION_FIELD];
      const person = people.get(clientId);
      if (clientId === awareness.clientID || !person || !isSharedSelection(selection) || selection.sheetId !== editor.activeSheetId) continue;
      const { top, left, bottom, right } = selection;
      highlights.push({ range: { top, left, bottom, right }, color: person.color, label: person.name });
    }
    editor.setHighlights(highlights);
  };
  editor.onSelection(() => {
    publish();
    draw();
  });
  awareness.on('change', draw);
  publish();
  draw();
}
