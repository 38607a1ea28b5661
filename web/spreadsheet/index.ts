import type { EditorContext } from '../shared/editor-context.js';
import { CellComments } from './comments.js';
import { SpreadsheetEditor, toolButton } from './editor.js';
import { t } from './messages.js';
import { COMPUTED_MARK, PAINTED_MARK } from './marks.js';
import { showCollaboratorSelections } from './presence.js';
import { spreadsheetMethods } from './sdk-methods.js';
import { FindBar } from './search.js';

/** The spreadsheet editor: sheets of cells over the spreadsheet content model (docs/BROWSER.md "Spreadsheet"). */
export async function mount(context: EditorContext): Promise<void> {
  const editor = new SpreadsheetEditor(context);
  showCollaboratorSelections(context.session, editor);
  const comments = new CellComments(context, editor);
  const find = new FindBar(editor);
  editor.formulaBar.after(find.element);
  editor.root.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') {
      event.preventDefault();
      find.open();
    }
  });
  // beside the formula bar, not in the toolbar: read-only pages hide the toolbar, and readers see comments too
  editor.formulaBar.append(toolButton(t('toolbar.comment'), t('toolbar.comment'), () => comments.toggle()));
  context.bridge.registerMethods({
    ...spreadsheetMethods(editor),
    showComments: () => comments.toggle(true),
    hideComments: () => comments.toggle(false),
  });
  editor.grid.focus();
  // the first paint shows stored values; formulas are computed right after it
  afterNextPaint(() => {
    performance.mark(PAINTED_MARK);
    editor.values.compute();
    editor.grid.refresh();
    performance.mark(COMPUTED_MARK);
  });
}

/** Runs `task` once the next frame is on screen: a message posted from a frame callback arrives after that frame's paint. */
function afterNextPaint(task: () => void): void {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      task();
    };
    channel.port2.postMessage(undefined);
  });
}
