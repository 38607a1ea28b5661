import type { ServiceApi } from '../../api.js';
import { element } from '../../shell.js';
import { t as panelText } from '../messages.js';
import { t } from './messages.js';
import { toInlineNodes, type InlineNode, type PickedMention } from './inline-content.js';

interface SuggestedUser {
  id: string;
  name: string;
}

export interface ComposerOptions {
  placeholder: string;
  submitLabel: string;
  /** sends the content; the composer clears itself when it resolves and keeps the text when it throws */
  submit(content: InlineNode[]): Promise<void>;
  cancel?(): void;
}

/** Characters typed after `@` that are still looked up as a name. */
const MENTION_QUERY = /(?:^|\s)@([^\s@]{0,40})$/;
const LOOKUP_DELAY_MS = 150;

/**
 * A text box for comments and discussion messages with an `@` list of users (GET mention-suggestions, the
 * integrator's recent users or a keyword search). A picked user is written `@Name` and sent as a mention node.
 */
export class MentionComposer {
  readonly element: HTMLFormElement;
  private readonly input: HTMLTextAreaElement;
  private readonly list: HTMLUListElement;
  private readonly sendButton: HTMLButtonElement;
  private picked: PickedMention[] = [];
  private suggestions: SuggestedUser[] = [];
  private active = 0;
  private lookup: number | undefined;
  private lookupSeq = 0;

  constructor(
    private readonly api: ServiceApi,
    private readonly options: ComposerOptions,
  ) {
    this.element = element('form', 'svc-composer');
    this.input = element('textarea', 'svc-composer-input');
    this.input.rows = 2;
    this.input.placeholder = options.placeholder;
    this.input.title = t('composer.hint');
    this.input.setAttribute('aria-label', options.placeholder);
    this.list = element('ul', 'svc-mention-list');
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', t('composer.suggestions'));
    this.list.hidden = true;
    const actions = element('div', 'svc-composer-actions');
    this.sendButton = element('button', 'svc-button svc-button-primary svc-composer-send', options.submitLabel);
    this.sendButton.type = 'submit';
    actions.append(this.sendButton);
    if (options.cancel) {
      const cancel = element('button', 'svc-button svc-composer-cancel', panelText('action.cancel'));
      cancel.type = 'button';
      cancel.addEventListener('click', () => options.cancel?.());
      actions.prepend(cancel);
    }
    this.element.append(this.input, this.list, actions);
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send();
    });
    this.input.addEventListener('input', () => this.scheduleLookup());
    this.input.addEventListener('keydown', (event) => this.keydown(event));
    this.input.addEventListener('blur', () => window.setTimeout(() => this.closeList(), 150));
  }

  focus(): void {
    this.input.focus();
  }

  setDisabled(disabled: boolean): void {
    this.input.disabled = disabled;
    this.sendButton.disabled = disabled;
  }

  private async send(): Promise<void> {
    const content = toInlineNodes(this.input.value, this.picked);
    if (!content.some((node) => node.type === 'mention' || (node.type === 'text' && node.text.trim()))) return;
    this.setDisabled(true);
    try {
      await this.options.submit(content);
      this.input.value = '';
      this.picked = [];
    } finally {
      this.setDisabled(false);
      this.input.focus();
    }
  }

  private keydown(event: KeyboardEvent): void {
    if (!this.list.hidden && this.suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        this.active = (this.active + (event.key === 'ArrowDown' ? 1 : this.suggestions.length - 1)) % this.suggestions.length;
        this.renderList();
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        this.pick(this.suggestions[this.active]!);
        return;
      }
    }
    if (event.key === 'Escape' && !this.list.hidden) {
      event.preventDefault();
      this.closeList();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void this.send();
    }
  }

  private query(): string | undefined {
    const before = this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
    return MENTION_QUERY.exec(before)?.[1];
  }

  private scheduleLookup(): void {
    window.clearTimeout(this.lookup);
    const keyword = this.query();
    if (keyword === undefined) {
      this.closeList();
      return;
    }
    this.lookup = window.setTimeout(() => void this.suggest(keyword), LOOKUP_DELAY_MS);
  }

  private async suggest(keyword: string): Promise<void> {
    const seq = ++this.lookupSeq;
    try {
      const answer = await this.api.call<{ users: SuggestedUser[] }>(this.api.filePath('mention-suggestions'), { query: { keyword: keyword || undefined } });
      if (seq !== this.lookupSeq) return;
      this.suggestions = answer.users;
    } catch {
      if (seq !== this.lookupSeq) return;
      this.suggestions = [];
    }
    this.active = 0;
    this.renderList();
  }

  private renderList(): void {
    if (this.suggestions.length === 0) {
      this.list.replaceChildren(element('li', 'svc-mention-empty', t('composer.noOne')));
    } else {
      this.list.replaceChildren(
        ...this.suggestions.map((user, index) => {
          const item = element('li', 'svc-mention-option', user.name);
          item.setAttribute('role', 'option');
          item.setAttribute('aria-selected', String(index === this.active));
          item.dataset.userId = user.id;
          item.addEventListener('mousedown', (event) => {
            event.preventDefault();
            this.pick(user);
          });
          return item;
        }),
      );
    }
    this.list.hidden = false;
  }

  private pick(user: SuggestedUser): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const before = this.input.value.slice(0, caret);
    const match = MENTION_QUERY.exec(before);
    if (!match) return;
    const start = caret - match[1]!.length - 1;
    const inserted = `@${user.name} `;
    this.input.value = this.input.value.slice(0, start) + inserted + this.input.value.slice(caret);
    const at = start + inserted.length;
    this.input.setSelectionRange(at, at);
    if (!this.picked.some((person) => person.id === user.id && person.label === user.name)) this.picked.push({ id: user.id, label: user.name });
    this.closeList();
    this.input.focus();
  }

  private closeList(): void {
    this.lookupSeq += 1;
    this.list.hidden = true;
    this.suggestions = [];
  }
}
