import { mergeAttributes, type AnyExtension } from '@tiptap/core';
import type { SuggestionOptions } from '@tiptap/suggestion';
import { documentExtensions } from '../../src/model/rich-text/extensions.js';
import { DateMention } from '../../src/model/rich-text/nodes/date-mention.js';
import { FILE_MENTION_HTML, FileMention, mentionedFileOf, type MentionedFile } from '../../src/model/rich-text/nodes/file-mention.js';
import { image } from '../../src/model/rich-text/nodes/image.js';
import { userMention } from '../../src/model/rich-text/nodes/mention.js';
import { Footnote } from '../../src/model/rich-text/nodes/footnote.js';
import { PageBreak } from '../../src/model/rich-text/nodes/page-break.js';
import { t } from './messages.js';

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

/** An `<img>` showing a stored image through the host's address (the reader's credentials stay out of the content). */
function imageView(host: ModelHost) {
  return image.extend({
    addNodeView() {
      return ({ node }) => {
        const dom = document.createElement('img');
        const show = (attrs: Record<string, unknown>) => {
          const src = typeof attrs.src === 'string' ? attrs.src : '';
          if (src) dom.src = host.displayImageSrc(src);
          else dom.removeAttribute('src');
          dom.alt = typeof attrs.alt === 'string' ? attrs.alt : '';
          if (typeof attrs.title === 'string') dom.title = attrs.title;
          else dom.removeAttribute('title');
        };
        show(node.attrs);
        return {
          dom,
          update: (next) => {
            if (next.type !== node.type) return false;
            show(next.attrs);
            return true;
          },
        };
      };
    },
  });
}

/** A file mention that opens its file on a click (through the host: the integrator's page decides how). */
function fileMentionView(host: ModelHost) {
  return FileMention.extend({
    addNodeView() {
      return ({ node, HTMLAttributes }) => {
        const dom = document.createElement('span');
        for (const [key, value] of Object.entries(mergeAttributes(FILE_MENTION_HTML, HTMLAttributes))) dom.setAttribute(key, String(value));
        dom.textContent = String(node.attrs.label ?? '');
        dom.addEventListener('click', (event) => {
          event.preventDefault();
          host.openFile(mentionedFileOf(node.attrs));
        });
        return { dom };
      };
    },
  });
}

/**
 * The model's extensions (src/model/rich-text/extensions.ts) with what only a page in the browser does: images
 * shown with the reader's credentials, file mentions that open, the `@` dropdown, typed date mentions
 * registered, page breaks labelled in the page's language. `pageBreaks` false: page breaks and footnotes are shown
 * but not inserted (a presentation's text boxes have no pages and no notes area). None of this changes the schema (the binding test
 * compares it with the server's).
 */
export function modelExtensions(host: ModelHost, { pageBreaks = true }: { pageBreaks?: boolean } = {}): AnyExtension[] {
  const inBrowser: AnyExtension[] = [
    imageView(host),
    fileMentionView(host),
    host.mentionSuggestion ? userMention.configure({ suggestion: host.mentionSuggestion }) : userMention,
    DateMention.configure({ typed: host.dateTyped }),
    PageBreak.configure({ insertable: pageBreaks, label: t('pageBreak.label') }),
    Footnote.configure({ insertable: pageBreaks }),
  ];
  const byName = new Map(inBrowser.map((extension) => [extension.name, extension]));
  return documentExtensions().map((extension) => byName.get(extension.name) ?? extension);
}
