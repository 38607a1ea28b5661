import { Extension } from '@tiptap/core';
import { GapCursor } from '@tiptap/pm/gapcursor';
import { Mapping } from '@tiptap/pm/transform';

/**
 * Ctrl/⌘+End puts the caret at the very end of the document. The browser's own move stops in the last line of
 * text it can see, which is inside the last cell when the document ends with a table (and no paragraph follows
 * it), so a user could not get past it. After such a block the caret is a gap cursor: typing there starts a new
 * paragraph below it. Anywhere else it is the end of the last text.
 */
export const documentEnd = Extension.create({
  name: 'documentEnd',
  addKeyboardShortcuts() {
    return {
      'Mod-End': ({ editor }) => {
        const { doc, tr } = editor.state;
        // mapping a gap cursor through no change keeps it where a gap cursor may stand, or falls back to the
        // nearest text (the library's own validity check is not public)
        const end = new GapCursor(doc.resolve(doc.content.size)).map(doc, new Mapping());
        editor.view.dispatch(tr.setSelection(end).scrollIntoView());
        return true;
      },
    };
  },
});
