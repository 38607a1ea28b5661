import type { ComparedBlock, Comparison } from '../../../../src/model/rich-text/compare.js';
import { element } from '../../shell.js';

/**
 * A comparison of two versions (src/model/rich-text/compare.ts, as the service answers it) drawn read-only as a
 * document: each block as its kind of element (heading, paragraph, code), inserted words in `<ins>`, deleted ones
 * in `<del>`, whole inserted and deleted blocks marked by their class (a bar in the margin, struck through).
 * Text only: formatting is not compared, so none is drawn.
 */
function blockElement(block: ComparedBlock): HTMLElement {
  if (block.type === 'heading') return element(`h${Math.min(6, Math.max(1, block.level ?? 1))}` as 'h1', '');
  if (block.type === 'codeBlock') return element('pre', '');
  if (block.type === 'horizontalRule' || block.type === 'pageBreak') return element('hr', '');
  return element('p', '');
}

export function drawComparison(comparison: Comparison, page: HTMLElement): void {
  const blocks = comparison.blocks.map((block) => {
    const node = blockElement(block);
    node.classList.add('svc-compare-block', `svc-compare-${block.status}`);
    node.append(
      ...block.runs.map((run) => {
        if (!run.change) return document.createTextNode(run.text);
        return element(run.change === 'insert' ? 'ins' : 'del', 'svc-compare-run', run.text);
      }),
    );
    return node;
  });
  // the rich-text editor's own body class: the comparison reads with its margins, fonts and line height
  const document_ = element('div', 'svc-rich-text svc-compare-document');
  document_.append(...blocks);
  page.replaceChildren(document_);
}
