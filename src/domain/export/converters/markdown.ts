import { getExtensionField, resolveExtensions } from '@tiptap/core';
import { documentExtensions } from '../../../model/rich-text/extensions.js';
import type { MarkdownMarkForm, MarkdownNodeForm, MarkdownWriter } from '../../../model/rich-text/markdown.js';
import { nodeText, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import type { ImageAssets, RichTextSource } from '../source.js';
import { safeHref, type Progress } from './shared.js';

/**
 * document / documentPro → Markdown (CommonMark with the GFM table, strike-through and task-list
 * extensions). Each node and mark writes itself: its `markdownForm`, in its own extension file
 * (src/model/rich-text/markdown.ts); this walker owns what is common to all of them: escaping, the file's
 * images as data: URIs (so the file stands alone), progress. What has no form keeps its content
 * (MARKDOWN_CONTENT_ONLY).
 */

/**
 * Nodes and marks with no Markdown form of their own, and why: a block among blocks writes its blocks, an
 * inline node its text, a mark its text unmarked. test/export/markdown-forms.test.ts fails when a node or mark
 * of the schema is neither here nor given a form.
 */
export const MARKDOWN_CONTENT_ONLY: { nodes: readonly string[]; marks: readonly string[] } = {
  nodes: [
    // the document itself and its text: the walker's (text is escaped and marked here)
    'doc',
    'text',
    // written by their list or table (src/model/rich-text/nodes/{bullet-list,ordered-list,task-list,table}.ts)
    'listItem',
    'taskItem',
    'tableRow',
    'tableCell',
    'tableHeader',
    // Markdown has no bookmarks: the blocks it wraps stay
    'bookmark',
    // a mention reads as its text (`@name`, the file's name, the date): Markdown has no mentions
    'mention',
    'fileMention',
    'dateMention',
  ],
  // Markdown has no underline, highlight, sub/superscript or text style: the text stays, unmarked
  // nor a proposed change of attributes (the suggestions it can carry are <ins>/<del>, marks/suggestion.ts)
  marks: ['underline', 'highlight', 'textStyle', 'subscript', 'superscript', 'modification'],
};

interface Forms {
  nodes: ReadonlyMap<string, MarkdownNodeForm>;
  marks: ReadonlyMap<string, MarkdownMarkForm>;
}

/** The `markdownForm` of every node and mark of the document model, by name. */
export function markdownForms(): Forms {
  const nodes = new Map<string, MarkdownNodeForm>();
  const marks = new Map<string, MarkdownMarkForm>();
  for (const extension of resolveExtensions(documentExtensions())) {
    if (extension.type === 'node') {
      const form = getExtensionField<MarkdownNodeForm | undefined>(extension, 'markdownForm');
      if (form) nodes.set(extension.name, form);
    } else if (extension.type === 'mark') {
      const form = getExtensionField<MarkdownMarkForm | undefined>(extension, 'markdownForm');
      if (form) marks.set(extension.name, form);
    }
  }
  return { nodes, marks };
}

const FORMS = markdownForms();

/**
 * Text with every character that could start Markdown syntax escaped: inline punctuation anywhere (`&` too, or
 * `&amp;` would read as `&`), and at a line's start what would make it a list item, a rule or a heading
 * underline (`-`, `+`, `=`, `1.`, `1)`).
 */
function escapeText(text: string): string {
  return text
    .replace(/([\\`*_{}[\]<>#|~!&])/g, '\\$1')
    .replace(/^(\s*)([-+=])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

function wrap(text: string, delimiter: string, closingDelimiter?: string): string {
  // an HTML tag holds its text as it is, white space included (a suggested deletion of ' and' deletes the space)
  if (closingDelimiter !== undefined) return text ? `${delimiter}${text}${closingDelimiter}` : text;
  // emphasis delimiters must touch the text: keep surrounding white space outside them
  const match = /^(\s*)(.*?)(\s*)$/s.exec(text)!;
  return match[2] ? `${match[1]}${delimiter}${match[2]}${delimiter}${match[3]}` : text;
}

/** A text node with its marks: a literal mark's text unescaped, then emphasis in the order carried, a link last. */
function markedText(writer: MarkdownWriter, node: ProseMirrorNode): string {
  const forms = (node.marks ?? []).flatMap((mark) => {
    const form = FORMS.marks.get(mark.type);
    return form ? [{ form, attrs: mark.attrs }] : [];
  });
  const raw = node.text ?? '';
  const literal = forms.find(({ form }) => form.kind === 'literal')?.form;
  let text = literal?.kind === 'literal' ? literal.write(raw) : escapeText(raw);
  for (const { form } of forms) if (form.kind === 'emphasis') text = wrap(text, form.delimiter, form.closingDelimiter);
  const link = forms.find(({ form }) => form.kind === 'link');
  return link?.form.kind === 'link' ? link.form.write(text, link.attrs, writer) : text;
}

/** The walker, and the footnotes it met, in document order (their numbers are their places here, from 1). */
function markdownWriter(images: ImageAssets, progress: Progress): { writer: MarkdownWriter; notes: string[] } {
  const notes: string[] = [];
  const writer: MarkdownWriter = {
    inline: (nodes = []) =>
      nodes
        .map((node) => {
          if (node.type === 'text') return markedText(writer, node);
          const form = FORMS.nodes.get(node.type)?.inline;
          return form ? form(node, writer) : escapeText(nodeText(node));
        })
        .join(''),
    blocks: (nodes = []) =>
      nodes.flatMap((node) => {
        progress.step();
        const form = FORMS.nodes.get(node.type)?.block;
        return form ? [form(node, writer)] : node.content ? writer.blocks(node.content) : [];
      }),
    escape: escapeText,
    imageTarget: (src) => {
      const asset = images[src];
      return asset ? `data:${asset.mimeType};base64,${Buffer.from(asset.data).toString('base64')}` : safeHref(src);
    },
    href: safeHref,
    footnote: (note) => `[^${notes.push(note)}]`,
  };
  return { writer, notes };
}

/** GFM footnote definitions after the text: `[^n]: note`, the note's further lines indented under it. */
function footnoteDefinitions(notes: readonly string[]): string[] {
  return notes.map((note, index) => `[^${index + 1}]: ${escapeText(note).split('\n').join('\n    ')}`);
}

export function toMarkdown(source: RichTextSource, progress: Progress): Uint8Array {
  const { writer, notes } = markdownWriter(source.images, progress);
  const blocks = writer.blocks(source.blocks);
  if (notes.length > 0) blocks.push(footnoteDefinitions(notes).join('\n'));
  const text = blocks.join('\n\n');
  return new TextEncoder().encode(text.length > 0 ? `${text}\n` : '');
}
