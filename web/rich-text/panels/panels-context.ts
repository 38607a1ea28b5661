import type { RichTextEditor } from '../editor.js';
import type { EditorContext } from '../../shared/editor-context.js';
import type { LivePermissions } from '../../shared/panels/live-permissions.js';
import type { PanelHost } from '../../shared/panels/panel-host.js';

/** What every panel of a rich-text editor is built with. */
export interface PanelsContext extends EditorContext, RichTextEditor {
  permissions: LivePermissions;
  panels: PanelHost;
}
