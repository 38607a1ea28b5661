import type { RichTextEditor } from '../../rich-text/editor.js';
import type { EditorContext } from '../editor-context.js';
import type { LivePermissions } from './live-permissions.js';
import type { PanelHost } from './panel-host.js';

/** What every panel of a rich-text editor is built with. */
export interface PanelsContext extends EditorContext, RichTextEditor {
  permissions: LivePermissions;
  panels: PanelHost;
}
