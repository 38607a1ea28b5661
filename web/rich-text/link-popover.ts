import type { Editor } from '@tiptap/core';
import { icon } from './icons.js';
import { t } from './messages.js';

export interface LinkPopoverActions {
  /** opens an address the way the page opens links (through the integrator's openLink) */
  open(href: string): void;
  /** shows a refusal (an address of a scheme the link mark does not take) */
  refused(): void;
}

function actionButton(name: string, label: string, action: () => void): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'svc-tool';
  button.dataset.linkAction = name;
  button.title = label;
  button.setAttribute('aria-label', label);
  button.append(icon(name === 'remove' ? 'unlink' : name === 'open' ? 'openLink' : 'edit'), document.createTextNode(label));
  button.addEventListener('mousedown', (event) => event.preventDefault());
  button.addEventListener('click', action);
  return button;
}

/**
 * The link popover, in place of a prompt: under the selection, the address to edit (Enter applies it, Esc
 * closes), and buttons to open the link or remove it. It opens from the toolbar's link button or Ctrl/⌘+K with
 * the address field focused, and by itself (field not focused) when the caret stands in a link, so a link can be
 * read, followed or removed where it is.
 */
export class LinkPopover {
  readonly element = document.createElement('div');
  private readonly input = document.createElement('input');
  private readonly openButton: HTMLButtonElement;
  private readonly removeButton: HTMLButtonElement;

  constructor(
    private readonly editor: Editor,
    private readonly actions: LinkPopoverActions,
  ) {
    this.element.className = 'svc-link-popover';
    this.element.setAttribute('role', 'dialog');
    this.element.setAttribute('aria-label', t('link.dialog'));
    this.element.hidden = true;
    this.input.type = 'url';
    this.input.placeholder = 'https://…';
    this.input.setAttribute('aria-label', t('link.address'));
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.apply();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.close(true);
      }
    });
    const apply = actionButton('apply', t('link.apply'), () => this.apply());
    this.openButton = actionButton('open', t('link.open'), () => {
      const href = this.currentHref();
      if (href) this.actions.open(href);
    });
    this.removeButton = actionButton('remove', t('link.remove'), () => {
      this.editor.chain().focus().extendMarkRange('link').unsetLink().run();
      this.close(false);
    });
    this.element.append(this.input, apply, this.openButton, this.removeButton);

    editor.on('selectionUpdate', () => this.follow());
    editor.on('blur', ({ event }) => {
      // the caret left the text for somewhere other than the popover
      if (!this.element.contains(event.relatedTarget as Node | null)) this.close(false);
    });
    editor.view.dom.addEventListener('keydown', (event) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        this.show(true);
      }
    });
  }

  /** Opens the popover for the selection; `focus` puts the caret in the address field. */
  show(focus: boolean): void {
    if (!this.editor.isEditable) return;
    const href = this.currentHref();
    this.input.value = href ?? '';
    this.openButton.hidden = href === undefined;
    this.removeButton.hidden = href === undefined;
    this.element.hidden = false;
    this.place();
    if (focus) {
      this.input.focus();
      this.input.select();
    }
  }

  private currentHref(): string | undefined {
    const href = this.editor.getAttributes('link').href;
    return typeof href === 'string' && href.length > 0 ? href : undefined;
  }

  /** Shows the popover while the caret stands in a link, and closes it when the caret leaves (unless being typed in). */
  private follow(): void {
    if (document.activeElement === this.input) return;
    if (this.editor.state.selection.empty && this.editor.isActive('link')) this.show(false);
    else this.close(false);
  }

  private place(): void {
    const parent = this.element.offsetParent as HTMLElement | null;
    const { from } = this.editor.state.selection;
    const at = this.editor.view.coordsAtPos(from);
    const origin = parent?.getBoundingClientRect() ?? { left: 0, top: 0 };
    const scroll = { left: parent?.scrollLeft ?? 0, top: parent?.scrollTop ?? 0 };
    this.element.style.left = `${Math.max(8, at.left - origin.left + scroll.left)}px`;
    this.element.style.top = `${at.bottom - origin.top + scroll.top + 6}px`;
  }

  private apply(): void {
    const href = this.input.value.trim();
    if (!href) {
      this.editor.chain().focus().extendMarkRange('link').unsetLink().run();
      return this.close(false);
    }
    if (!this.editor.can().setLink({ href })) {
      this.actions.refused();
      return;
    }
    const { selection } = this.editor.state;
    // no text chosen: the address itself becomes the link's text
    const applied =
      selection.empty && !this.editor.isActive('link')
        ? this.editor.chain().focus().insertContent(href).setTextSelection({ from: selection.from, to: selection.from + href.length }).setLink({ href }).setTextSelection(selection.from + href.length).run()
        : this.editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    if (!applied) this.actions.refused();
    this.close(false);
  }

  private close(refocus: boolean): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    if (refocus) this.editor.commands.focus();
  }
}
