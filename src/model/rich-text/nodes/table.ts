import { Table } from '@tiptap/extension-table';
import type { MarkdownWriter } from '../markdown.js';
import type { ProseMirrorNode } from '../node-json.js';

/** A cell as GFM can hold it: its blocks on one line, pipes escaped. */
function cellMarkdown(writer: MarkdownWriter, cell: ProseMirrorNode): string {
  return writer
    .blocks(cell.content ?? [])
    .join(' ')
    .replace(/\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/**
 * `table`, Tiptap's, with its Markdown form: a GFM table whose first row is the header, every row as wide as the
 * widest. Its rows and cells are written here, so they have no form of their own.
 */
export const table = Table.extend({
  markdownForm: {
    block: (node, writer) => {
      const rows = (node.content ?? []).map((row) => (row.content ?? []).map((cell) => cellMarkdown(writer, cell)));
      const width = Math.max(1, ...rows.map((row) => row.length));
      const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, index) => cells[index] ?? '').join(' | ')} |`;
      const [header = [], ...body] = rows;
      return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
    },
  },
});
