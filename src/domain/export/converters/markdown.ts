import { nodeText, type ProseMirrorNode } from '../../../model/rich-text/schema.js';
import type { ImageAssets, RichTextSource } from '../source.js';
import { safeHref, type Progress } from './shared.js';

/**
 * document / documentPro → Markdown (CommonMark with the GFM table, strike-through and task-list
 * extensions). Marks Markdown lacks (underline, highlight, sub/superscript) keep their text; images of the
 * file's app are embedded as data: URIs so the file stands alone; bookmarks keep their content; a page break
 * is a thematic break (`---`), Markdown having no pages; a callout is a GitHub alert (`> [!NOTE]`).
 */

interface Context {
  images: ImageAssets;
  progress: Progress;
}

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

function imageMarkdown(context: Context, attrs: Record<string, unknown> | undefined): string {
  const src = typeof attrs?.src === 'string' ? attrs.src : '';
  const alt = escapeText(typeof attrs?.alt === 'string' ? attrs.alt : '');
  const asset = context.images[src];
  const target = asset ? `data:${asset.mimeType};base64,${Buffer.from(asset.data).toString('base64')}` : safeHref(src);
  return target ? `![${alt}](<${target}>)` : alt;
}

function wrap(text: string, marker: string): string {
  // emphasis markers must touch the text: keep surrounding white space outside them
  const match = /^(\s*)(.*?)(\s*)$/s.exec(text)!;
  return match[2] ? `${match[1]}${marker}${match[2]}${marker}${match[3]}` : text;
}

function inline(context: Context, nodes: readonly ProseMirrorNode[] = []): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') {
      const code = node.marks?.some((mark) => mark.type === 'code');
      let text = code ? `\`${(node.text ?? '').replace(/`/g, 'ˋ')}\`` : escapeText(node.text ?? '');
      for (const mark of node.marks ?? []) {
        if (mark.type === 'bold') text = wrap(text, '**');
        else if (mark.type === 'italic') text = wrap(text, '*');
        else if (mark.type === 'strike') text = wrap(text, '~~');
      }
      const link = node.marks?.find((mark) => mark.type === 'link');
      const href = link ? safeHref(link.attrs?.href) : undefined;
      out += href ? `[${text}](<${href}>)` : text;
    } else if (node.type === 'hardBreak') {
      out += '\\\n';
    } else if (node.type === 'image') {
      out += imageMarkdown(context, node.attrs);
    } else {
      out += escapeText(nodeText(node));
    }
  }
  return out;
}

function cellText(context: Context, cell: ProseMirrorNode): string {
  return blocks(context, cell.content ?? [])
    .join(' ')
    .replace(/\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

function tableMarkdown(context: Context, node: ProseMirrorNode): string {
  const rows = (node.content ?? []).map((row) => (row.content ?? []).map((cell) => cellText(context, cell)));
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, index) => cells[index] ?? '').join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 || line.length === 0 ? line : by + line))
    .join('\n');
}

/** Each block as Markdown text; the caller joins them with blank lines. */
function blocks(context: Context, nodes: readonly ProseMirrorNode[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    context.progress.step();
    switch (node.type) {
      case 'paragraph':
        out.push(inline(context, node.content));
        break;
      case 'heading': {
        const level = Math.min(Math.max(Number(node.attrs?.level ?? 1) || 1, 1), 6);
        out.push(`${'#'.repeat(level)} ${inline(context, node.content)}`);
        break;
      }
      case 'codeBlock': {
        const code = (node.content ?? []).map((child) => child.text ?? '').join('');
        const fence = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((match) => match[0].length + 1)));
        const language = typeof node.attrs?.language === 'string' ? node.attrs.language.replace(/[^\w+-]/g, '') : '';
        out.push(`${fence}${language}\n${code}\n${fence}`);
        break;
      }
      case 'blockquote':
      case 'callout': {
        // a callout is a GitHub alert: a quote whose first line is its kind (src/model/rich-text/nodes/callout.ts)
        const lines = blocks(context, node.content ?? []).join('\n\n').split('\n');
        out.push((node.type === 'callout' ? ['[!NOTE]', ...lines] : lines).map((line) => (line ? `> ${line}` : '>')).join('\n'));
        break;
      }
      case 'bulletList':
      case 'orderedList':
      case 'taskList': {
        const start = Number(node.attrs?.start ?? 1) || 1;
        out.push(
          (node.content ?? [])
            .map((item, index) => {
              const marker = node.type === 'orderedList' ? `${start + index}.` : '-';
              const task = node.type === 'taskList' ? (item.attrs?.checked === true || item.attrs?.checked === 'true' ? '[x] ' : '[ ] ') : '';
              const body = blocks(context, item.content ?? []).join('\n\n');
              return `${marker} ${task}${indent(body, ' '.repeat(marker.length + 1))}`;
            })
            .join('\n'),
        );
        break;
      }
      case 'table':
        out.push(tableMarkdown(context, node));
        break;
      case 'image':
        out.push(imageMarkdown(context, node.attrs));
        break;
      case 'horizontalRule':
      case 'pageBreak':
        // Markdown has no pages: a page break keeps its division as a thematic break (docs/IMPORT-EXPORT.md)
        out.push('---');
        break;
      default:
        // bookmarks and unknown containers: their content
        if (node.content) out.push(...blocks(context, node.content));
    }
  }
  return out;
}

export function toMarkdown(source: RichTextSource, progress: Progress): Uint8Array {
  const text = blocks({ images: source.images, progress }, source.blocks).join('\n\n');
  return new TextEncoder().encode(text.length > 0 ? `${text}\n` : '');
}
