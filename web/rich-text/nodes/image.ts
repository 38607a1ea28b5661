import Image from '@tiptap/extension-image';

export interface ImageOptions {
  /** The address to show a stored `src` from: attachments (`/sdk/v2/attachments/{guid}`) need the reader's credentials. */
  displaySrc(src: string): string;
}

/**
 * `image` (docs/CONTENT-MODEL.md): `src`, `alt`, `title`, inline so it can sit in a line of text. The document
 * stores the credential-free attachment path (docs/ATTACHMENTS.md "URLs in documents"); only the shown `<img>`
 * carries this reader's credentials, so copying HTML or the content never leaks them.
 */
export function image(options: ImageOptions) {
  return Image.extend({
    addNodeView() {
      return ({ node }) => {
        const dom = document.createElement('img');
        const show = (attrs: Record<string, unknown>) => {
          const src = typeof attrs.src === 'string' ? attrs.src : '';
          if (src) dom.src = options.displaySrc(src);
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
  }).configure({ inline: true, allowBase64: false });
}
