import type { ProseMirrorNode } from './node-json.js';

/**
 * How a node or mark of the document writes itself as Markdown (CommonMark with the GFM table, strike-through and
 * task-list extensions), declared in its own extension file as the `markdownForm` field and read by the exporter
 * (src/domain/export/converters/markdown.ts) with Tiptap's `getExtensionField`.
 *
 * Why a field of our own rather than Tiptap's `renderMarkdown`: the standard extensions already carry a
 * `renderMarkdown` for @tiptap/markdown, which was measured and refused (docs/ARCHITECTURE.md); a node we forgot
 * would silently be written their way. Their helpers also lack what our export needs from its walker: our
 * escaping, the file's own images as data: URIs, and progress reporting. Nodes and marks with no form are listed
 * in the exporter's MARKDOWN_CONTENT_ONLY with the reason (test/export/markdown-forms.test.ts holds both lists
 * to the schema).
 */

/** What the exporter's walker offers a form: the Markdown of children, and the text rules it alone owns. */
export interface MarkdownWriter {
  /** Inline content as one Markdown line run: text with its marks, inline nodes. */
  inline(nodes?: readonly ProseMirrorNode[]): string;
  /** Each block as Markdown text (the caller joins them). */
  blocks(nodes?: readonly ProseMirrorNode[]): string[];
  /** Text with every character that could start Markdown syntax escaped. */
  escape(text: string): string;
  /** Where an image `src` points from a file that stands alone: the file's own image as a data: URI, or a safe address. */
  imageTarget(src: string): string | undefined;
  /** A link address as the file may carry it; none for unsafe schemes. */
  href(value: unknown): string | undefined;
  /** A footnote's reference (`[^n]`, numbered in document order); its note is written after the text. */
  footnote(note: string): string;
}

/** A node's Markdown: as a block among blocks, and/or inside a line of text. */
export interface MarkdownNodeForm {
  block?: (node: ProseMirrorNode, writer: MarkdownWriter) => string;
  inline?: (node: ProseMirrorNode, writer: MarkdownWriter) => string;
}

/**
 * A mark's Markdown. A `literal` mark writes its text unescaped (inline code; it goes first), `emphasis` marks
 * wrap the text in their delimiter (and `closingDelimiter` after it where it differs: an inline HTML tag) in the
 * order the text carries them, and a `link` wraps the result last.
 */
export type MarkdownMarkForm =
  | { kind: 'literal'; write: (raw: string) => string }
  | { kind: 'emphasis'; delimiter: string; closingDelimiter?: string }
  | { kind: 'link'; write: (text: string, attrs: Record<string, unknown> | undefined, writer: MarkdownWriter) => string };

declare module '@tiptap/core' {
  interface NodeConfig {
    /** This node's Markdown (src/model/rich-text/markdown.ts). */
    markdownForm?: MarkdownNodeForm;
  }
  interface MarkConfig {
    /** This mark's Markdown (src/model/rich-text/markdown.ts). */
    markdownForm?: MarkdownMarkForm;
  }
}

/** `text` with its continuation lines indented by `by` (list item bodies under their marker). */
function indentContinuation(text: string, by: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 || line.length === 0 ? line : by + line))
    .join('\n');
}

/**
 * A list's items, each its blocks behind `markerOf(index)` and the item's own `prefixOf(item)` (a task's box);
 * continuation lines line up under the text after the marker.
 */
export function markdownList(
  node: ProseMirrorNode,
  writer: MarkdownWriter,
  markerOf: (index: number) => string,
  prefixOf: (item: ProseMirrorNode) => string = () => '',
): string {
  return (node.content ?? [])
    .map((item, index) => {
      const marker = markerOf(index);
      const body = writer.blocks(item.content ?? []).join('\n\n');
      return `${marker} ${prefixOf(item)}${indentContinuation(body, ' '.repeat(marker.length + 1))}`;
    })
    .join('\n');
}

/** Blocks as a quote: every line behind `> ` (blockquote, callout). */
export function markdownQuote(lines: readonly string[]): string {
  return lines.map((line) => (line ? `> ${line}` : '>')).join('\n');
}
