import Image from '@tiptap/extension-image';
import type { MarkdownWriter } from '../markdown.js';
import type { ProseMirrorNode } from '../node-json.js';

/** `![alt](<target>)`, the target the file's own image as a data: URI or a safe address; only the alt text without one. */
function imageMarkdown(node: ProseMirrorNode, writer: MarkdownWriter): string {
  const src = typeof node.attrs?.src === 'string' ? node.attrs.src : '';
  const alt = writer.escape(typeof node.attrs?.alt === 'string' ? node.attrs.alt : '');
  const target = writer.imageTarget(src);
  return target ? `![${alt}](<${target}>)` : alt;
}

/**
 * `image` (docs/CONTENT-MODEL.md): `src`, `alt`, `title`, inline so it can sit in a line of text. The document
 * stores the credential-free attachment path (docs/ATTACHMENTS.md "URLs in documents"); `data:` addresses are
 * never stored (imports turn them into attachments first). The editor shows the stored path with the reader's
 * credentials through a node view (web/rich-text/model.ts), so copying HTML or the content never leaks them.
 */
export const image = Image.extend({ markdownForm: { block: imageMarkdown, inline: imageMarkdown } }).configure({ inline: true, allowBase64: false });
