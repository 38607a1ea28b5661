import Link from '@tiptap/extension-link';

/**
 * `link` (docs/CONTENT-MODEL.md): `href`, `target`. Tiptap's address check keeps only safe schemes (never
 * `javascript:`). Clicks are not this mark's business: the page routes them through the host's openLink
 * (web/shared/links.ts: a plain click on read-only text, Ctrl/⌘-click while editing, where a plain click
 * places the caret). Not inclusive: text typed right after a link is plain text.
 */
export const link = Link.extend({
  // Tiptap makes the mark inclusive whenever autolink is on: text typed after a link at the end of a paragraph
  // would join the link. Office editors end the link there; autolink still links a typed address.
  inclusive: () => false,
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
