import Link from '@tiptap/extension-link';

/**
 * `link` (docs/CONTENT-MODEL.md): `href`, `target`. Tiptap's address check keeps only safe schemes (never
 * `javascript:`). Clicks are not this mark's business: the page routes them through the host's openLink
 * (web/shared/links.ts: a plain click on read-only text, Ctrl/⌘-click while editing, where a plain click
 * places the caret).
 */
export const link = Link.extend({
  // `[text](<address>)`; a link whose address is unsafe keeps only its text
  markdownForm: {
    kind: 'link',
    write: (text, attrs, writer) => {
      const href = writer.href(attrs?.href);
      return href ? `[${text}](<${href}>)` : text;
    },
  },
}).configure({
  openOnClick: false,
  autolink: true,
  defaultProtocol: 'https',
  HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: '_blank' },
});
