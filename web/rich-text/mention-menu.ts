import type { Editor, Range } from '@tiptap/core';
import type { SuggestionKeyDownProps, SuggestionOptions, SuggestionProps } from '@tiptap/suggestion';
import type { ServiceApi } from '../shared/api.js';
import { t } from './messages.js';
import type { MentionedFile } from '../../src/model/rich-text/nodes/file-mention.js';

/** One entry of the `@` dropdown: a user to mention or a file to link. */
export type MentionChoice = { kind: 'user'; id: string; name: string; email: string } | { kind: 'file'; file: MentionedFile };

interface SuggestionAnswer {
  users: Array<{ id: string; name: string; email: string }>;
  files: Array<{ id: string; name: string; type: string; fullUrl?: string }>;
  failures: Array<{ source: string; status: number; message: string }>;
}

const KINDS = ['document', 'documentPro', 'spreadsheet', 'presentation', 'table'] as const;

/** What a file list entry's `type` is called in the dropdown (a type we do not know is shown as sent). */
function kindName(fileType: string): string {
  if (fileType === 'file') return t('mentions.thirdParty');
  const kind = KINDS.find((known) => known === fileType);
  return kind ? t(`kind.${kind}`) : fileType;
}

/** Dropdown rows per list: enough to choose from, short enough to fit beside the caret. */
const MAX_PER_LIST = 8;

/**
 * Asks the service for what `@query` may mean (`GET …/mention-suggestions`: the integrator's recent users and
 * files, or its search for a keyword).
 */
async function suggestions(api: ServiceApi, query: string): Promise<{ choices: MentionChoice[]; failure?: string }> {
  const keyword = query.trim();
  const answer = await api.call<SuggestionAnswer>(api.filePath('mention-suggestions'), { query: { keyword: keyword || undefined } });
  const choices: MentionChoice[] = [
    ...answer.users.slice(0, MAX_PER_LIST).map((user): MentionChoice => ({ kind: 'user', id: user.id, name: user.name, email: user.email })),
    ...answer.files.slice(0, MAX_PER_LIST).map(
      (file): MentionChoice => ({ kind: 'file', file: { fileId: file.id, fileType: file.type, label: file.name, fullUrl: file.type === 'file' ? file.fullUrl ?? null : null } }),
    ),
  ];
  const failure = answer.failures[0];
  return failure ? { choices, failure: failure.message } : { choices };
}

function insertChoice(editor: Editor, range: Range, choice: MentionChoice): void {
  const chain = editor.chain().focus().deleteRange(range);
  if (choice.kind === 'user') chain.insertUserMention({ id: choice.id, label: choice.name }).run();
  else chain.insertFileMention(choice.file).run();
}

/** The dropdown's DOM: two titled groups of buttons, every name set as text. */
class MentionMenu {
  readonly element = document.createElement('div');
  private choices: MentionChoice[] = [];
  private selected = 0;
  private pick: (choice: MentionChoice) => void = () => undefined;

  constructor() {
    this.element.className = 'svc-mention-menu';
    this.element.setAttribute('role', 'listbox');
    document.body.append(this.element);
  }

  show(props: SuggestionProps<MentionChoice, MentionChoice>, note?: string): void {
    this.choices = props.items;
    this.pick = props.command;
    this.selected = Math.min(this.selected, Math.max(0, this.choices.length - 1));
    this.render(props.loading ? t('mentions.loading') : note);
    const rect = props.clientRect?.();
    if (rect) {
      this.element.style.left = `${Math.round(rect.left + window.scrollX)}px`;
      this.element.style.top = `${Math.round(rect.bottom + window.scrollY + 4)}px`;
    }
  }

  keyDown({ event }: SuggestionKeyDownProps): boolean {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (this.choices.length === 0) return true;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.selected = (this.selected + step + this.choices.length) % this.choices.length;
      this.render();
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      const choice = this.choices[this.selected];
      if (!choice) return false;
      this.pick(choice);
      return true;
    }
    return false;
  }

  destroy(): void {
    this.element.remove();
  }

  private render(note?: string): void {
    const rows: HTMLElement[] = [];
    const group = (title: string) => {
      const heading = document.createElement('div');
      heading.className = 'svc-mention-group';
      heading.textContent = title;
      rows.push(heading);
    };
    this.choices.forEach((choice, index) => {
      if (index === 0 || choice.kind !== this.choices[index - 1]!.kind) group(choice.kind === 'user' ? t('mentions.users') : t('mentions.files'));
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'svc-mention-choice';
      button.dataset.kind = choice.kind;
      button.setAttribute('role', 'option');
      button.setAttribute('aria-selected', String(index === this.selected));
      const name = document.createElement('span');
      name.textContent = choice.kind === 'user' ? choice.name : choice.file.label;
      const detail = document.createElement('small');
      detail.textContent = choice.kind === 'user' ? choice.email : kindName(choice.file.fileType);
      button.append(name, detail);
      // mousedown, not click: the editor must keep its selection (and focus) until the choice is inserted
      button.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.pick(choice);
      });
      rows.push(button);
    });
    if (this.choices.length === 0 || note) {
      const empty = document.createElement('div');
      empty.className = 'svc-mention-note';
      empty.textContent = note ?? t('mentions.empty');
      rows.push(empty);
    }
    this.element.replaceChildren(...rows);
  }
}

/**
 * The `@` dropdown (Tiptap suggestion): users and files from the service's mention suggestions; a user becomes
 * a `mention` node, a file a `fileMention`. A failed lookup is shown in the dropdown, never thrown.
 */
export function mentionSuggestion(api: ServiceApi): Omit<SuggestionOptions<MentionChoice, MentionChoice>, 'editor'> {
  let note: string | undefined;
  return {
    char: '@',
    debounce: 150,
    command: ({ editor, range, props }) => insertChoice(editor, range, props),
    items: async ({ query }) => {
      try {
        const found = await suggestions(api, query);
        note = found.failure ? t('mentions.failed', { message: found.failure }) : undefined;
        return found.choices;
      } catch (error) {
        note = t('mentions.failed', { message: error instanceof Error ? error.message : String(error) });
        return [];
      }
    },
    render: () => {
      let menu: MentionMenu | undefined;
      return {
        onStart: (props) => {
          menu = new MentionMenu();
          menu.show(props, note);
        },
        onUpdate: (props) => menu?.show(props, note),
        onKeyDown: (props) => {
          if (props.event.key === 'Escape') {
            menu?.destroy();
            menu = undefined;
            return true;
          }
          return menu?.keyDown(props) ?? false;
        },
        onExit: () => {
          menu?.destroy();
          menu = undefined;
        },
      };
    },
  };
}
