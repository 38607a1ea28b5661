import Image from '@tiptap/extension-image';

/**
 * `image` (docs/CONTENT-MODEL.md): `src`, `alt`, `title`, inline so it can sit in a line of text. The document
 * stores the credential-free attachment path (docs/ATTACHMENTS.md "URLs in documents"); `data:` addresses are
 * never stored (imports turn them into attachments first). The editor shows the stored path with the reader's
 * credentials through a node view (web/rich-text/model.ts), so copying HTML or the content never leaks them.
 */
export const image = Image.configure({ inline: true, allowBase64: false });
