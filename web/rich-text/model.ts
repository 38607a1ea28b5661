import { type AnyExtension } from '@tiptap/core';
import Highlight from '@tiptap/extension-highlight';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import Subscript from '@tiptap/extension-subscript';
import Superscript from '@tiptap/extension-superscript';
import { TableKit } from '@tiptap/extension-table';
import { TextStyle } from '@tiptap/extension-text-style';
import StarterKit from '@tiptap/starter-kit';
import type { SuggestionOptions } from '@tiptap/suggestion';
import { link } from './marks/link.js';
import { Bookmark } from './nodes/bookmark.js';
import { DateMention } from './nodes/date-mention.js';
import { FileMention, type MentionedFile } from './nodes/file-mention.js';
import { image } from './nodes/image.js';
import { PageBreak } from './nodes/page-break.js';
import { userMention } from './nodes/mention.js';

/** What the model's nodes and marks ask of the page they live in (none of it changes what they store). */
export interface ModelHost {
  /** the address an `<img>` shows a stored image `src` from */
  displayImageSrc(src: string): string;
  openFile(file: MentionedFile): void;
  /** a date mention was typed (`@YYYY-MM-DD `): register it with the service */
  dateTyped(date: string, guid: string): void;
  /** the `@` dropdown; none where nobody types (headless conversion, old versions) */
  mentionSuggestion?: Omit<SuggestionOptions, 'editor'>;
}

/** A host for reading content only: shows stored addresses as they are and opens nothing. */
export const READING_HOST: ModelHost = {
  displayImageSrc: (src) => src,
  openFile: () => undefined,
  dateTyped: () => undefined,
};

/**
 * Every node and mark of docs/CONTENT-MODEL.md "document and documentPro", under exactly the names and
 * attributes the server's model code reads (src/model/rich-text/schema.ts). The standard ones come from
 * Tiptap as they are; ours (mentions, bookmark, image display, link defaults) are in nodes/ and marks/.
 * Undo and redo are the collaboration binding's (extensions.ts), so StarterKit's history is off; so is its
 * trailing paragraph, which two editors would each add to the shared document at once. `pageBreaks` false:
 * page breaks are shown but not inserted (a presentation's text boxes have no pages).
 */
export function modelExtensions(host: ModelHost, { pageBreaks = true }: { pageBreaks?: boolean } = {}): AnyExtension[] {
  return [
    StarterKit.configure({ undoRedo: false, link: false, trailingNode: false }),
    TaskList,
    TaskItem.configure({ nested: true }),
    TableKit.configure({ table: { resizable: true } }),
    image({ displaySrc: host.displayImageSrc }),
    userMention(host.mentionSuggestion),
    FileMention.configure({ open: host.openFile }),
    DateMention.configure({ typed: host.dateTyped }),
    Bookmark,
    PageBreak.configure({ insertable: pageBreaks }),
    link,
    Highlight,
    TextStyle,
    Subscript,
    Superscript,
  ];
}
