/**
 * The content of a comment or discussion message as the conversation API takes and answers it
 * (docs/CONVERSATIONS.md "Content"): inline text, mentions of integrator users and hard breaks.
 */
export type InlineNode = { type: 'text'; text: string } | { type: 'hardBreak' } | { type: 'mention'; attrs: { id: string; label?: string; guid?: string } };

/** Content as the API takes it: plain text (no mentions) or inline nodes. */
export type ConversationContent = string | InlineNode[];

/** A user the author picked from the mention list: `@label` in the text stands for them. */
export interface PickedMention {
  id: string;
  label: string;
}

/**
 * The nodes of what the author typed: `@label` of a user picked from the list becomes a mention of that user
 * (typing `@` and a name by hand mentions no one: the API recognises mentions only from nodes), line breaks
 * become hard breaks.
 */
export function toInlineNodes(text: string, picked: PickedMention[]): InlineNode[] {
  const byLength = [...picked].sort((a, b) => b.label.length - a.label.length);
  const nodes: InlineNode[] = [];
  let run = '';
  const flush = () => {
    if (run) nodes.push({ type: 'text', text: run });
    run = '';
  };
  for (let i = 0; i < text.length; ) {
    const mention = text[i] === '@' ? byLength.find((person) => text.startsWith(`@${person.label}`, i)) : undefined;
    if (mention) {
      flush();
      nodes.push({ type: 'mention', attrs: { id: mention.id } });
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

/** Shows stored content as DOM: text as text, mentions as `@name` (the integrator's current name when known). */
export function renderInlineNodes(nodes: InlineNode[], nameOf: (userId: string) => string | undefined): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const node of nodes) {
    if (node.type === 'text') fragment.append(document.createTextNode(node.text));
    else if (node.type === 'hardBreak') fragment.append(document.createElement('br'));
    else {
      const mention = document.createElement('span');
      mention.className = 'svc-mention';
      mention.dataset.userId = node.attrs.id;
      mention.textContent = `@${nameOf(node.attrs.id) ?? node.attrs.label ?? node.attrs.id}`;
      fragment.append(mention);
    }
  }
  return fragment;
}
