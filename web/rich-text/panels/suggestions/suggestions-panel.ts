import type { EditorMethod } from '../../../shared/bridge.js';
import { element } from '../../../shared/shell.js';
import { colorOf } from '../../../shared/collaboration.js';
import type { Panel } from '../../../shared/panels/panel-host.js';
import { onDocumentChange, scrollToNode } from '../outline.js';
import type { PanelsContext } from '../panels-context.js';
import { t } from '../../messages.js';
import { currentSuggestions, decideAllSuggestions, decideSuggestion, suggestionByline } from '../../suggestions.js';

/**
 * The suggestions panel: every insertion and deletion of the document in reading order, with its author, time
 * and text; a click on one goes there. Users who may edit accept or reject each, or all at once; others read.
 */
export class SuggestionsPanel implements Panel {
  readonly id = 'suggestions';
  readonly label = t('suggestion.panel');
  readonly element = element('section', 'svc-suggestions');
  private readonly all = element('div', 'svc-suggestions-all');
  private readonly list = element('ol', 'svc-suggestions-list');

  constructor(private readonly context: PanelsContext) {
    this.element.setAttribute('aria-label', t('suggestion.panel'));
    this.all.append(this.button('acceptAll', t('suggestion.acceptAll'), () => decideAllSuggestions(context.editor, true)), this.button('rejectAll', t('suggestion.rejectAll'), () => decideAllSuggestions(context.editor, false)));
    this.element.append(this.all, this.list);
    onDocumentChange(context.editor, () => {
      if (context.panels.isShown(this.id)) this.render();
    });
    context.permissions.follow(() => {
      if (context.panels.isShown(this.id)) this.render();
    });
  }

  shown(): void {
    this.render();
  }

  methods(): Record<string, EditorMethod> {
    return {
      showSuggestions: () => this.context.panels.show(this.id),
      hideSuggestions: () => this.context.panels.hide(this.id),
    };
  }

  private button(action: string, label: string, run: () => void): HTMLButtonElement {
    const button = element('button', 'svc-button', label);
    button.type = 'button';
    button.dataset.suggestionAction = action;
    button.addEventListener('click', () => {
      run();
      this.render();
    });
    return button;
  }

  private render(): void {
    const editable = this.context.permissions.now.editable && this.context.editor.isEditable;
    const suggestions = currentSuggestions(this.context.editor);
    this.all.hidden = !editable || suggestions.length === 0;
    if (suggestions.length === 0) {
      this.list.replaceChildren(element('li', 'svc-panel-empty', t('suggestion.empty')));
      return;
    }
    this.list.replaceChildren(
      ...suggestions.map((suggestion) => {
        const item = element('li', `svc-suggestion-item svc-suggestion-item-${suggestion.kind}`);
        item.dataset.suggestionId = String(suggestion.id);
        item.dataset.kind = suggestion.kind;
        item.style.setProperty('--svc-suggestion-color', colorOf(suggestion.author ?? suggestion.authorName ?? ''));
        const what = element('div', 'svc-suggestion-what', t(`suggestion.${suggestion.kind}`));
        const text = element('button', `svc-link-button svc-suggestion-text`, suggestion.text || '¶');
        text.type = 'button';
        text.addEventListener('click', () => scrollToNode(this.context.editor, suggestion.from));
        const byline = element('div', 'svc-suggestion-byline', suggestionByline(suggestion));
        item.append(what, text, byline);
        if (editable) {
          const actions = element('div', 'svc-suggestion-actions');
          actions.append(
            this.button('accept', t('suggestion.accept'), () => decideSuggestion(this.context.editor, suggestion.id, true)),
            this.button('reject', t('suggestion.reject'), () => decideSuggestion(this.context.editor, suggestion.id, false)),
          );
          item.append(actions);
        }
        return item;
      }),
    );
  }
}
