import { Editor } from '@tiptap/core';
import { richTextExtensions } from '../extensions.js';
import type { ModelHost } from '../model.js';
import type { VersionRenderer } from '../../shared/panels/history/old-version-view.js';

/** Old versions of document and documentPro: the same node and mark list as the live document. */
export function richTextVersions(host: ModelHost): VersionRenderer {
  return (doc, page) =>
    new Editor({
      element: page,
      editable: false,
      extensions: richTextExtensions({ doc, host }),
      editorProps: { attributes: { class: 'svc-rich-text', 'aria-readonly': 'true' } },
    });
}
