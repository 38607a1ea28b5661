import type { RichTextEditor } from '../editor.js';
import type { EditorContext } from '../../shared/editor-context.js';
import { BookmarksPanel } from './bookmarks/bookmarks-panel.js';
import { richTextComments } from './comments/comments-panel.js';
import { DiscussionPanel } from './discussion/discussion-panel.js';
import { HistoryPanel } from '../../shared/panels/history/history-panel.js';
import { OldVersionView } from '../../shared/panels/history/old-version-view.js';
import { richTextVersions } from './rich-text-versions.js';
import { LivePermissions } from '../../shared/panels/live-permissions.js';
import { PagedLayout } from './pages/paged-layout.js';
import { SuggestionsPanel } from './suggestions/suggestions-panel.js';
import { TocPanel } from './toc/toc-panel.js';
import { PanelHost, type Panel } from '../../shared/panels/panel-host.js';
import type { PanelsContext } from './panels-context.js';
import '../../shared/panels/panels.css';

/**
 * The side panels of the rich-text editors (docs/BROWSER.md "Panels"), mounted beside `editor`, with their
 * SDK editor methods. document and documentPro each call this once after mounting their editor.
 */
export function mountRichTextPanels(context: EditorContext, richText: RichTextEditor): PanelsContext {
  const panels: PanelsContext = { ...context, ...richText, panels: new PanelHost(context.shell), permissions: new LivePermissions(context.boot.permissions, context.session) };
  const kindPanels = context.boot.fileType === 'document' ? [new DiscussionPanel(panels)] : [new BookmarksPanel(panels)];
  const all: Panel[] = [richTextComments(panels), new SuggestionsPanel(panels), new TocPanel(panels), ...kindPanels, new HistoryPanel(panels, new OldVersionView(context.shell, richText.page.className, richTextVersions({ ...richText.host, mentionSuggestion: undefined })), true)];
  for (const panel of all) {
    panels.panels.add(panel);
    if (panel.methods) context.bridge.registerMethods(panel.methods());
  }
  // after the panels: the history's old-version view takes the page's classes from before the paged layout's
  if (context.boot.fileType === 'documentPro') context.bridge.registerMethods(new PagedLayout(panels).methods());
  return panels;
}
