import type { EditorContext } from '../shared/editor-context.js';
import { HistoryPanel } from '../shared/panels/history/history-panel.js';
import { OldVersionView } from '../shared/panels/history/old-version-view.js';
import { LivePermissions } from '../shared/panels/live-permissions.js';
import { PanelHost } from '../shared/panels/panel-host.js';
import '../shared/panels/panels.css';
import { cellComments } from './comments.js';
import { SpreadsheetEditor } from './editor.js';
import { COMPUTED_MARK, PAINTED_MARK } from './marks.js';
import { spreadsheetVersions } from './old-version.js';
import { showCollaboratorSelections } from './presence.js';
import { spreadsheetMethods } from './sdk-methods.js';
import { FindBar } from './search.js';
import { FirstScreen } from './first-screen.js';
import { loadNumberFormats } from './number-format-loader.js';
import type { FirstScreenAnswer } from '../shared/editor-context.js';

/** The first screen drawn while the page syncs (one editor per page), which `mount` replaces. */
let firstScreen: FirstScreen | undefined;

/** Draws the first screen from the service while the document syncs (docs/BROWSER.md "First screen"). */
export function showFirstScreen(context: EditorContext, answer: Promise<FirstScreenAnswer>): Promise<boolean> {
  // numfmt comes while the first screen shows (the service formatted its cells), in time for the editor
  void loadNumberFormats().catch(() => undefined);
  firstScreen = new FirstScreen(context);
  return firstScreen.show(answer);
}

/** The spreadsheet editor: sheets of cells over the spreadsheet content model (docs/BROWSER.md "Spreadsheet"). */
export async function mount(context: EditorContext): Promise<void> {
  // every cell the editor draws or computes goes through numfmt (src/model/sheets/number-format.ts)
  await loadNumberFormats();
  // the first screen goes and the editor comes in the same task, so no frame shows neither
  const handover = firstScreen?.handOver();
  firstScreen = undefined;
  const editor = new SpreadsheetEditor(context);
  if (handover) {
    editor.values.showUntilComputed(handover.shown);
    // the tab the user picked on the first screen (gone since the answer: the first sheet stays)
    const picked = editor.workbook.byId(handover.sheetId);
    if (picked && handover.sheetId !== editor.activeSheetId) editor.activate(picked);
    editor.grid.select(handover.selection.active, handover.selection.extent);
    editor.grid.scrollTo(handover.scroll);
  }
  showCollaboratorSelections(context.session, editor);
  // the side panels, opened from the rail beside the side area (which read-only pages keep, unlike the toolbar)
  const panels = new PanelHost(context.shell);
  const comments = cellComments(context, editor, panels);
  // revisions and edit history: an old version drawn as a read-only grid in place of the live one
  const history = new HistoryPanel(
    { api: context.api, shell: context.shell, panels, permissions: new LivePermissions(context.boot.permissions, context.session) },
    new OldVersionView(context.shell, 'svc-sheet svc-old-sheet', spreadsheetVersions),
  );
  panels.add(comments);
  panels.add(history);
  const find = new FindBar(editor);
  editor.formulaBar.after(find.element);
  editor.root.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') {
      event.preventDefault();
      find.open();
    }
  });
  // the history panel's createRevision replaces main.ts's: it also refreshes the panel's list when it is open
  context.bridge.registerMethods({ ...spreadsheetMethods(editor), ...comments.methods(), ...history.methods() });
  if (!handover || handover.takeFocus) editor.grid.focus();
  // the first paint shows stored values; formulas are computed right after it
  afterNextPaint(() => {
    performance.mark(PAINTED_MARK);
    editor.values.compute();
    editor.valuesComputed();
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
