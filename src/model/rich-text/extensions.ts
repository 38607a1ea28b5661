import { type AnyExtension } from '@tiptap/core';
import { Document } from '@tiptap/extension-document';
import { ListItem, ListKeymap, TaskItem } from '@tiptap/extension-list';
import Subscript from '@tiptap/extension-subscript';
import Superscript from '@tiptap/extension-superscript';
import { TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { Text } from '@tiptap/extension-text';
import { Underline } from '@tiptap/extension-underline';
import { Dropcursor, Gapcursor } from '@tiptap/extensions';
import { bold } from './marks/bold.js';
import { code } from './marks/code.js';
import { highlight } from './marks/highlight.js';
import { italic } from './marks/italic.js';
import { link } from './marks/link.js';
import { strike } from './marks/strike.js';
import { deletion, insertion, modification } from './marks/suggestion.js';
import { textStyle } from './marks/text-style.js';
import { blockquote } from './nodes/blockquote.js';
import { Bookmark } from './nodes/bookmark.js';
import { bulletList } from './nodes/bullet-list.js';
import { Callout } from './nodes/callout.js';
import { codeBlock } from './nodes/code-block.js';
import { DateMention } from './nodes/date-mention.js';
import { FileMention } from './nodes/file-mention.js';
import { Footnote } from './nodes/footnote.js';
import { hardBreak } from './nodes/hard-break.js';
import { heading } from './nodes/heading.js';
import { horizontalRule } from './nodes/horizontal-rule.js';
import { image } from './nodes/image.js';
import { userMention } from './nodes/mention.js';
import { orderedList } from './nodes/ordered-list.js';
import { PageBreak } from './nodes/page-break.js';
import { paragraph } from './nodes/paragraph.js';
import { table } from './nodes/table.js';
import { taskList } from './nodes/task-list.js';
import { paragraphFormat } from './paragraph-format.js';

/**
 * Every node and mark of docs/CONTENT-MODEL.md "document and documentPro", once, for the editor and the
 * server alike: the server's schema (schema.ts), HTML import and the exporters are built from this list, the
 * editor (web/rich-text/model.ts) extends some of its entries with browser behaviour (node views, the `@`
 * dropdown) without changing what they store. The standard nodes and marks come from Tiptap as they are;
 * ours are in nodes/ and marks/, one file each, as are the standard ones that have a Markdown form
 * (markdown.ts): those extend Tiptap's with it. The head of the list is StarterKit's, in StarterKit's order
 * (which sets the schema's order, hence how marks nest), without its undo/redo (the collaboration binding's),
 * link (ours) and trailing paragraph (two editors would each add one to the shared document at once).
 */
export function documentExtensions(): AnyExtension[] {
  return [
    bold,
    blockquote,
    bulletList,
    code,
    codeBlock,
    Document,
    Dropcursor,
    Gapcursor,
    hardBreak,
    heading,
    horizontalRule,
    italic,
    ListItem,
    ListKeymap,
    orderedList,
    paragraph,
    strike,
    Text,
    Underline,
    taskList,
    TaskItem.configure({ nested: true }),
    table.configure({ resizable: true }),
    TableCell,
    TableHeader,
    TableRow,
    image,
    userMention,
    FileMention,
    DateMention,
    Bookmark,
    PageBreak,
    Callout,
    Footnote,
    link,
    highlight,
    textStyle,
    Subscript,
    Superscript,
    paragraphFormat,
    insertion,
    deletion,
    modification,
  ];
}
