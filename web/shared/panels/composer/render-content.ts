import type { InlineNode, MentionedFileAttrs } from './inline-content.js';

/**
 * Shows stored content as DOM: text as text, user mentions as `@name` (the integrator's current name when
 * known), file mentions as links that `openFile` opens.
 */
export function renderInlineNodes(nodes: readonly InlineNode[], nameOf: (userId: string) => string | undefined, openFile?: (file: MentionedFileAttrs) => void): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const node of nodes) {
    if (node.type === 'text') fragment.append(document.createTextNode(node.text));
    else if (node.type === 'hardBreak') fragment.append(document.createElement('br'));
    else if (node.type === 'fileMention') {
      const file = document.createElement('button');
      file.type = 'button';
      file.className = 'svc-file-mention';
      file.dataset.fileId = node.attrs.fileId;
      file.textContent = node.attrs.label;
      if (openFile) file.addEventListener('click', () => openFile(node.attrs));
      else file.disabled = true;
      fragment.append(file);
    } else {
      const mention = document.createElement('span');
      mention.className = 'svc-mention';
      mention.dataset.userId = node.attrs.id;
      mention.textContent = `@${nameOf(node.attrs.id) ?? node.attrs.label ?? node.attrs.id}`;
      fragment.append(mention);
    }
  }
  return fragment;
}
