/**
 * The content of a comment or discussion message as the conversation API takes and answers it
 * (docs/CONVERSATIONS.md "Content"): inline text, mentions of integrator users, mentions of files and hard breaks.
 */
export interface MentionedFileAttrs {
  fileId: string;
  fileType: string;
  label: string;
  fullUrl: string | null;
}

export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'hardBreak' }
  | { type: 'mention'; attrs: { id: string; label?: string; guid?: string } }
  | { type: 'fileMention'; attrs: MentionedFileAttrs };

/** Content as the API takes it: plain text (no mentions) or inline nodes. */
export type ConversationContent = string | InlineNode[];

/** What the author picked from the `@` list: `@label` in the text stands for that user or file. */
export type PickedMention = { kind: 'user'; id: string; label: string } | { kind: 'file'; label: string; file: MentionedFileAttrs };

/**
 * The nodes of what the author typed: `@label` of a user or file picked from the list becomes a mention of it
 * (typing `@` and a name by hand mentions no one: the API recognises mentions only from nodes), line breaks
 * become hard breaks.
 */
export function toInlineNodes(text: string, picked: readonly PickedMention[]): InlineNode[] {
  const byLength = [...picked].sort((a, b) => b.label.length - a.label.length);
  const nodes: InlineNode[] = [];
  let run = '';
  const flush = () => {
    if (run) nodes.push({ type: 'text', text: run });
    run = '';
  };
  for (let i = 0; i < text.length; ) {
    const mention = text[i] === '@' ? byLength.find((choice) => text.startsWith(`@${choice.label}`, i)) : undefined;
    if (mention) {
      flush();
      nodes.push(mention.kind === 'user' ? { type: 'mention', attrs: { id: mention.id } } : { type: 'fileMention', attrs: mention.file });
      i += mention.label.length + 1;
    } else if (text[i] === '\n') {
      flush();
      nodes.push({ type: 'hardBreak' });
      i += 1;
    } else {
      run += text[i];
      i += 1;
    }
  }
  flush();
  return nodes;
}

/** The text and picked mentions that give `nodes` back through toInlineNodes: stored content, to edit it. */
export function toEditableText(nodes: readonly InlineNode[], nameOf: (userId: string) => string | undefined): { text: string; picked: PickedMention[] } {
  let text = '';
  const picked: PickedMention[] = [];
  for (const node of nodes) {
    if (node.type === 'text') text += node.text;
    else if (node.type === 'hardBreak') text += '\n';
    else if (node.type === 'fileMention') {
      text += `@${node.attrs.label}`;
      picked.push({ kind: 'file', label: node.attrs.label, file: node.attrs });
    } else {
      const label = nameOf(node.attrs.id) ?? node.attrs.label ?? node.attrs.id;
      text += `@${label}`;
      picked.push({ kind: 'user', id: node.attrs.id, label });
    }
  }
  return { text, picked };
}
