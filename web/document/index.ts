import { mountRichText, type RichTextEditor } from '../rich-text/editor.js';
import type { EditorContext } from '../shared/editor-context.js';
import { mountRichTextPanels } from '../rich-text/panels/rich-text-panels.js';

/**
 * The document editor (light document): rich text in one flowing page. Resolves with the mounted editor
 * (its Tiptap instance, page element and alert area) for panels to hook into.
 */
export async function mount(context: EditorContext): Promise<RichTextEditor> {
  const richText = mountRichText(context, 'document');
  mountRichTextPanels(context, richText);
  return richText;
}
