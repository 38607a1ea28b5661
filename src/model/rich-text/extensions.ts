import { type AnyExtension } from '@tiptap/core';
import Highlight from '@tiptap/extension-highlight';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import Subscript from '@tiptap/extension-subscript';
import Superscript from '@tiptap/extension-superscript';
import { TableKit } from '@tiptap/extension-table';
import { TextStyle } from '@tiptap/extension-text-style';
import StarterKit from '@tiptap/starter-kit';
import { link } from './marks/link.js';
import { Bookmark } from './nodes/bookmark.js';
import { Callout } from './nodes/callout.js';
import { DateMention } from './nodes/date-mention.js';
import { FileMention } from './nodes/file-mention.js';
import { image } from './nodes/image.js';
import { userMention } from './nodes/mention.js';
import { PageBreak } from './nodes/page-break.js';

/**
 * Every node and mark of docs/CONTENT-MODEL.md "document and documentPro", once, for the editor and the
 * server alike: the server's schema (schema.ts), HTML import and the exporters are built from this list, the
 * editor (web/rich-text/model.ts) extends some of its entries with browser behaviour (node views, the `@`
 * dropdown) without changing what they store. The standard nodes and marks come from Tiptap as they are;
 * ours are in nodes/ and marks/, one file each. Undo and redo are the collaboration binding's, so StarterKit's
 * history is off; so is its trailing paragraph, which two editors would each add to the shared document at once.
 */
export function documentExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({ undoRedo: false, link: false, trailingNode: false }),
    TaskList,
    TaskItem.configure({ nested: true }),
    TableKit.configure({ table: { resizable: true } }),
    image,
    userMention,
    FileMention,
    DateMention,
    Bookmark,
    PageBreak,
    Callout,
    link,
    Highlight,
    TextStyle,
    Subscript,
    Superscript,
  ];
}
