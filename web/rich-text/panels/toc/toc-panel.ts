import type { EditorMethod } from '../../../shared/bridge.js';
import { element } from '../../../shared/shell.js';
import { nodesOfType, onDocumentChange, scrollToNode } from '../outline.js';
import type { Panel } from '../../../shared/panels/panel-host.js';
import type { PanelsContext } from '../panels-context.js';
import { t } from './messages.js';

/** The table of contents: the document's headings, indented by level, kept current as anyone edits; a click scrolls there. */
export class TocPanel implements Panel {
  readonly id = 'toc';
  readonly label = t('toc.title');
  readonly element = element('nav', '');
  private readonly list = element('ol', 'svc-toc-list');

  constructor(private readonly context: PanelsContext) {
    this.element.setAttribute('aria-label', t('toc.title'));
    this.element.append(this.list);
    onDocumentChange(context.editor, () => {
      if (context.panels.isShown(this.id)) this.render();
    });
  }

  shown(): void {
    this.render();
  }

  methods(): Record<string, EditorMethod> {
    return {
      showToc: () => this.context.panels.show(this.id),
      hideToc: () => this.context.panels.hide(this.id),
    };
  }

  private render(): void {
    const headings = nodesOfType(this.context.editor.state.doc, 'heading');
    if (headings.length === 0) {
      this.list.replaceChildren(element('li', 'svc-panel-empty', t('toc.empty')));
      return;
    }
    this.list.replaceChildren(
      ...headings.map(({ node, pos }) => {
        const level = Number(node.attrs.level) || 1;
        const item = element('li', 'svc-toc-item');
        item.dataset.level = String(level);
        item.style.paddingLeft = `${(level - 1) * 14}px`;
        const link = element('button', 'svc-link-button svc-toc-link', node.textContent.trim() || t('toc.untitled'));
        link.type = 'button';
        link.addEventListener('click', () => scrollToNode(this.context.editor, pos));
        item.append(link);
        return item;
      }),
    );
  }
}
