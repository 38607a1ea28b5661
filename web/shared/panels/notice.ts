import { element } from '../shell.js';
import { messageOf, t as panelText } from './messages.js';

/** The line of a panel that says what became of the user's last action; hidden until there is something to say. */
export class PanelNotice {
  readonly element = element('p', 'svc-panel-notice');

  constructor() {
    this.element.hidden = true;
  }

  show(text: string): void {
    this.element.textContent = text;
    this.element.hidden = false;
  }

  /** Runs a change; a refusal is shown here and rethrown, so a composer keeps its text. */
  async run(change: () => Promise<unknown>): Promise<void> {
    try {
      this.element.hidden = true;
      await change();
    } catch (error) {
      this.show(panelText('action.failed', { message: messageOf(error) }));
      throw error;
    }
  }
}
