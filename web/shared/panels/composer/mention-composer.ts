import type { ServiceApi } from '../../api.js';
import { element } from '../../shell.js';
import { t as panelText } from '../messages.js';
import { t } from './messages.js';
import { toEditableText, toInlineNodes, type InlineNode, type PickedMention } from './inline-content.js';

/** The mention suggestions' answer (docs/CONVERSATIONS.md "Mention suggestions"). */
interface SuggestionAnswer {
  users: Array<{ id: string; name: string; email: string }>;
  files: Array<{ id: string; name: string; type: string; fullUrl?: string }>;
  failures: Array<{ source: string; message: string }>;
}

export interface ComposerOptions {
  /** the text box's placeholder and accessible name */
  placeholder: string;
  submitLabel: string;
  /** sends the content; the composer clears itself when it resolves and keeps the text when it throws */
  submit(content: InlineNode[]): Promise<void>;
  cancel?(): void;
}

/** Characters typed after `@` that are still looked up as a name. */
const MENTION_QUERY = /(?:^|\s)@([^\s@]{0,40})$/;
const LOOKUP_DELAY_MS = 150;
/** List rows per kind: enough to choose from, short enough to stay beside the box. */
const MAX_PER_KIND = 8;

let composerCount = 0;

/**
 * A text box for comments and discussion messages with an `@` list of users and files (GET
 * mention-suggestions: the integrator's recent ones or its search for a keyword). A picked user is written
 * `@Name` and sent as a mention node (the service tells them: MentionAt), a picked file `@File name` and sent
 * as a fileMention. Enter sends, Shift+Enter breaks the line; the list is a listbox the arrows move in.
 */
export class MentionComposer {
  readonly element: HTMLFormElement;
  private readonly input: HTMLTextAreaElement;
  private readonly list: HTMLUListElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly listId = `svc-mention-list-${++composerCount}`;
  private picked: PickedMention[] = [];
  private suggestions: PickedMention[] = [];
  private note: string | undefined;
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
    this.input.setAttribute('aria-autocomplete', 'list');
    this.input.setAttribute('aria-controls', this.listId);
    this.input.setAttribute('aria-expanded', 'false');
    this.list = element('ul', 'svc-mention-list');
    this.list.id = this.listId;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', t('composer.suggestions'));
    this.list.hidden = true;
    const actions = element('div', 'svc-composer-actions');
    const hint = element('span', 'svc-composer-hint', t('composer.shortHint'));
    this.sendButton = element('button', 'svc-button svc-button-primary svc-composer-send', options.submitLabel);
    this.sendButton.type = 'submit';
    actions.append(hint);
    if (options.cancel) {
      const cancel = element('button', 'svc-button svc-composer-cancel', panelText('action.cancel'));
      cancel.type = 'button';
      cancel.addEventListener('click', () => options.cancel?.());
      actions.append(cancel);
    }
    actions.append(this.sendButton);
    this.element.append(this.input, this.list, actions);
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send();
    });
    this.input.addEventListener('input', () => this.scheduleLookup());
    this.input.addEventListener('keydown', (event) => this.keydown(event));
    // the delay lets a click on an option land first; a panel redraw also blurs the box for a moment (it is moved and
    // given the focus back), so the list closes only if the focus has really gone elsewhere
    this.input.addEventListener('blur', () =>
      window.setTimeout(() => {
        if (document.activeElement !== this.input) this.closeList();
      }, 150),
    );
  }

  focus(): void {
    this.input.focus();
  }

  setDisabled(disabled: boolean): void {
    this.input.disabled = disabled;
    this.sendButton.disabled = disabled;
  }

  /** Puts stored content in the box to be edited: its mentions stay mentions when sent again. */
  setContent(nodes: readonly InlineNode[], nameOf: (userId: string) => string | undefined): void {
    const { text, picked } = toEditableText(nodes, nameOf);
    this.input.value = text;
    this.picked = picked;
    this.input.setSelectionRange(text.length, text.length);
  }

  private async send(): Promise<void> {
    const content = toInlineNodes(this.input.value, this.picked);
    if (!content.some((node) => node.type === 'mention' || node.type === 'fileMention' || (node.type === 'text' && node.text.trim()))) return;
    this.setDisabled(true);
    try {
      await this.options.submit(content);
      this.input.value = '';
      this.picked = [];
    } catch {
      // the panel showed why; the text stays to be sent again
    } finally {
      this.setDisabled(false);
      if (this.element.isConnected) this.input.focus();
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
    if (event.key === 'Escape') {
      if (!this.list.hidden) {
        event.preventDefault();
        event.stopPropagation();
        this.closeList();
      } else if (this.options.cancel) {
        event.preventDefault();
        event.stopPropagation();
        this.options.cancel();
      }
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
      const answer = await this.api.call<SuggestionAnswer>(this.api.filePath('mention-suggestions'), { query: { keyword: keyword || undefined } });
      if (seq !== this.lookupSeq) return;
      this.suggestions = [
        ...answer.users.slice(0, MAX_PER_KIND).map((user): PickedMention => ({ kind: 'user', id: user.id, label: user.name })),
        ...answer.files.slice(0, MAX_PER_KIND).map(
          (file): PickedMention => ({ kind: 'file', label: file.name, file: { fileId: file.id, fileType: file.type, label: file.name, fullUrl: file.type === 'file' ? (file.fullUrl ?? null) : null } }),
        ),
      ];
      this.note = answer.failures[0] ? t('composer.partly', { message: answer.failures[0].message }) : undefined;
    } catch (error) {
      if (seq !== this.lookupSeq) return;
      this.suggestions = [];
      this.note = t('composer.failed', { message: error instanceof Error ? error.message : String(error) });
    }
    this.active = 0;
    this.renderList();
  }

  private renderList(): void {
    const rows: HTMLElement[] = [];
    this.suggestions.forEach((choice, index) => {
      if (index === 0 || choice.kind !== this.suggestions[index - 1]!.kind) {
        const group = element('li', 'svc-mention-group', choice.kind === 'user' ? t('composer.people') : t('composer.files'));
        group.setAttribute('role', 'presentation');
        rows.push(group);
      }
      const item = element('li', 'svc-mention-option', choice.label);
      item.id = `${this.listId}-${index}`;
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', String(index === this.active));
      item.dataset.kind = choice.kind;
      if (choice.kind === 'user') item.dataset.userId = choice.id;
      else item.dataset.fileId = choice.file.fileId;
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.pick(choice);
      });
      rows.push(item);
    });
    if (this.suggestions.length === 0 || this.note) rows.push(element('li', 'svc-mention-empty', this.note ?? t('composer.noOne')));
    this.list.replaceChildren(...rows);
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    if (this.suggestions.length > 0) this.input.setAttribute('aria-activedescendant', `${this.listId}-${this.active}`);
  }

  private pick(choice: PickedMention): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const before = this.input.value.slice(0, caret);
    const match = MENTION_QUERY.exec(before);
    if (!match) return;
    const start = caret - match[1]!.length - 1;
    const inserted = `@${choice.label} `;
    this.input.value = this.input.value.slice(0, start) + inserted + this.input.value.slice(caret);
    const at = start + inserted.length;
    this.input.setSelectionRange(at, at);
    if (!this.picked.some((known) => known.label === choice.label)) this.picked.push(choice);
    this.closeList();
    this.input.focus();
  }

  private closeList(): void {
    this.lookupSeq += 1;
    this.list.hidden = true;
    this.suggestions = [];
    this.note = undefined;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }
}
