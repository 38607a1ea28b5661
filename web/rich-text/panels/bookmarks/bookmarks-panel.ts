import { nodesOfType, onDocumentChange, scrollToNode } from '../outline.js';
import { element } from '../../../shared/shell.js';
import type { Panel } from '../../../shared/panels/panel-host.js';
import { PanelNotice } from '../../../shared/panels/notice.js';
import type { PanelsContext } from '../panels-context.js';
import { t } from './messages.js';

/**
 * documentPro bookmarks: named `bookmark` nodes wrapping blocks (docs/CONTENT-MODEL.md), which the backend's
 * `bookmark_content` endpoints read and replace. Insert wraps the blocks of the selection; rename and remove
 * change the node itself (remove keeps what it wrapped). The list follows the document, whoever edits it.
 */
export class BookmarksPanel implements Panel {
  readonly id = 'bookmarks';
  readonly label = t('bookmarks.title');
  readonly element = element('div', '');
  private readonly form = element('form', 'svc-panel-form svc-bookmark-insert');
  private readonly nameInput = element('input', 'svc-input');
  private readonly notice = new PanelNotice();
  private readonly readOnly = element('p', 'svc-panel-empty', t('bookmarks.readOnly'));
  private readonly list = element('ul', 'svc-panel-list svc-bookmark-list');
  private renaming: string | undefined;

  constructor(private readonly context: PanelsContext) {
    this.nameInput.placeholder = t('bookmarks.namePlaceholder');
    this.nameInput.maxLength = 256;
    this.nameInput.setAttribute('aria-label', t('bookmarks.namePlaceholder'));
    this.nameInput.title = t('bookmarks.insertHint');
    const insert = element('button', 'svc-button svc-button-primary', t('bookmarks.insert'));
    insert.type = 'submit';
    this.form.append(this.nameInput, insert);
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (this.insert(this.nameInput.value.trim())) this.nameInput.value = '';
    });
    this.element.append(this.form, this.readOnly, this.notice.element, this.list);
    onDocumentChange(context.editor, () => this.render());
    context.permissions.follow(() => this.render());
  }

  shown(): void {
    this.render();
  }

  private names(): string[] {
    return nodesOfType(this.context.editor.state.doc, 'bookmark').map(({ node }) => String(node.attrs.name ?? ''));
  }

  /** Checks a new name; says what is wrong in the panel and answers false when it cannot be used. */
  private usable(name: string): boolean {
    if (!name) return this.refuse(t('bookmarks.nameEmpty'));
    if (this.names().includes(name)) return this.refuse(t('bookmarks.nameTaken', { name }));
    return true;
  }

  private insert(name: string): boolean {
    if (!this.usable(name)) return false;
    if (!this.context.editor.chain().focus().setBookmark(name).run()) return this.refuse(t('bookmarks.cannotWrap'));
    this.notice.element.hidden = true;
    return true;
  }

  private refuse(text: string): false {
    this.notice.show(text);
    return false;
  }

  private render(): void {
    const { editable } = this.context.permissions.now;
    this.form.hidden = !editable;
    this.readOnly.hidden = editable;
    const bookmarks = nodesOfType(this.context.editor.state.doc, 'bookmark');
    if (bookmarks.length === 0) {
      this.list.replaceChildren(element('li', 'svc-panel-empty', t('bookmarks.empty')));
      return;
    }
    this.list.replaceChildren(
      ...bookmarks.map(({ node, pos }) => {
        const name = String(node.attrs.name ?? '');
        const item = element('li', 'svc-panel-item svc-bookmark');
        item.dataset.bookmark = name;
        if (editable && this.renaming === name) {
          item.append(this.renameForm(name));
          return item;
        }
        const link = element('button', 'svc-link-button svc-bookmark-name', name);
        link.type = 'button';
        link.addEventListener('click', () => scrollToNode(this.context.editor, pos));
        item.append(link);
        if (editable) {
          const rename = element('button', 'svc-link-button svc-bookmark-rename', t('bookmarks.rename'));
          rename.type = 'button';
          rename.addEventListener('click', () => {
            this.renaming = name;
            this.render();
          });
          const remove = element('button', 'svc-link-button svc-bookmark-remove', t('bookmarks.remove'));
          remove.type = 'button';
          remove.addEventListener('click', () => void this.context.editor.commands.removeBookmark(name));
          item.append(rename, remove);
        }
        return item;
      }),
    );
  }

  private renameForm(name: string): HTMLFormElement {
    const form = element('form', 'svc-panel-form svc-bookmark-rename-form');
    const input = element('input', 'svc-input');
    input.value = name;
    input.maxLength = 256;
    input.setAttribute('aria-label', t('bookmarks.namePlaceholder'));
    const save = element('button', 'svc-button svc-button-primary', t('bookmarks.rename'));
    save.type = 'submit';
    form.append(input, save);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const next = input.value.trim();
      if (next !== name && (!this.usable(next) || !this.context.editor.commands.renameBookmark(name, next))) return;
      this.renaming = undefined;
      this.notice.element.hidden = true;
      this.render();
    });
    queueMicrotask(() => input.select());
    return form;
  }
}
