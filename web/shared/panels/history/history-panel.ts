import type { EditorMethod } from '../../bridge.js';
import { element } from '../../shell.js';
import { invalidArgument, stringArgument } from '../arguments.js';
import { formatTime } from '../format.js';
import { PanelNotice } from '../notice.js';
import type { Panel, PanelHost } from '../panel-host.js';
import type { EditorContext } from '../../editor-context.js';
import type { LivePermissions } from '../live-permissions.js';
import { HistoryApi, type HistoryEntry, type Revision } from './history-api.js';
import { t } from './messages.js';
import { revisionRequest } from '../../revisions.js';
import type { OldVersionView } from './old-version-view.js';

/** What the history panel needs of its editor kind: it works for any kind that gives it a view of old versions. */
export type HistoryContext = Pick<EditorContext, 'api' | 'shell'> & { panels: PanelHost; permissions: LivePermissions };

const HISTORY_LABEL: Record<number, 'history.type1' | 'history.type2' | 'history.type3' | 'history.type4'> = {
  1: 'history.type1',
  2: 'history.type2',
  3: 'history.type3',
  4: 'history.type4',
};
/** Comment activity (historyType 4) and behavior history (5) record no content to view or restore. */
const COMMENT_ACTIVITY = 4;
/** Behavior history (docs/BEHAVIOR-HISTORY.md): its title is what the integrator wrote, `action: content`. */
const BEHAVIOR_HISTORY = 5;


/** What can be viewed and restored: a named revision, or a history entry (restored through a revision of it). */
type Version = { kind: 'revision'; revision: Revision } | { kind: 'entry'; entry: HistoryEntry };

const historyIdOf = (version: Version) => (version.kind === 'revision' ? version.revision.docHistoryId : version.entry.id);
const createdAtOf = (version: Version) => (version.kind === 'revision' ? version.revision.createdAt : version.entry.createdAt);
/** Versions chosen for a comparison: at most this many (the two compared). */
const COMPARED = 2;

/**
 * The revisions panel: named revisions and the edit history (doc-sidebar-info), saving a revision of the
 * current content, viewing any recorded version read-only, and restoring one. A history entry that is not a
 * named revision is restored by first naming it (POST revisions with its docHistoryId), since the API restores
 * named revisions.
 */
export class HistoryPanel implements Panel {
  readonly id = 'history';
  readonly label = t('history.title');
  readonly element = element('div', '');
  private readonly api: HistoryApi;
  private readonly notice = new PanelNotice();
  private readonly createForm = element('form', 'svc-panel-form svc-revision-create');
  private readonly titleInput = element('input', 'svc-input');
  private readonly revisionList = element('ul', 'svc-panel-list svc-revision-list');
  private readonly entryList = element('ul', 'svc-panel-list svc-entry-list');
  private readonly moreButton = element('button', 'svc-button svc-history-more', t('history.more'));
  private readonly compareBar = element('div', 'svc-history-compare-bar');
  private readonly compareChosen = element('button', 'svc-button svc-history-compare-chosen', t('history.compareChosen'));
  /** versions ticked for a comparison, by history id, in the order ticked */
  private chosen = new Map<string, Version>();
  private revisions: Revision[] = [];
  private entries: HistoryEntry[] = [];
  private names: Record<string, string> = {};

  /**
   * `comparable`: the kind's versions can be compared (rich text, docs/CONTENT-MODEL.md "Comparing versions"):
   * each version offers "Compare with previous" and a tick to compare any two.
   */
  constructor(
    private readonly context: HistoryContext,
    private readonly view: OldVersionView,
    private readonly comparable = false,
  ) {
    this.api = new HistoryApi(context.api);
    this.titleInput.placeholder = t('history.titlePlaceholder');
    this.titleInput.maxLength = 200;
    this.titleInput.setAttribute('aria-label', t('history.titlePlaceholder'));
    const save = element('button', 'svc-button svc-button-primary', t('history.create'));
    save.type = 'submit';
    this.createForm.append(this.titleInput, save);
    this.createForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.act(async () => {
        await this.createRevision(this.titleInput.value.trim() || undefined);
        this.titleInput.value = '';
      });
    });
    this.compareChosen.type = 'button';
    this.compareChosen.addEventListener('click', () => {
      const [first, second] = [...this.chosen.values()];
      if (first && second) void this.act(() => this.compare(first, second));
    });
    this.compareBar.append(this.compareChosen, element('span', 'svc-history-compare-hint', t('history.chooseHint')));
    this.compareBar.hidden = !comparable;
    this.moreButton.type = 'button';
    this.moreButton.addEventListener('click', () => void this.act(() => this.loadEntries(false)));
    this.element.append(
      this.notice.element,
      this.createForm,
      this.compareBar,
      element('h3', 'svc-panel-subheading', t('history.revisions')),
      this.revisionList,
      element('h3', 'svc-panel-subheading', t('history.entries')),
      this.entryList,
      this.moreButton,
    );
    context.permissions.follow(() => this.render());
  }

  shown(): void {
    void this.act(() => this.refresh());
  }

  methods(): Record<string, EditorMethod> {
    return {
      showHistory: () => this.context.panels.show(this.id),
      hideHistory: () => this.context.panels.hide(this.id),
      createRevision: (options) => {
        const { title, label } = revisionRequest(options);
        return this.createRevision(title, label);
      },
      showRevision: async (id) => {
        const wanted = stringArgument(id, 'revisionId');
        await this.refresh();
        const revision = this.revisions.find((candidate) => candidate.id === wanted || candidate.docHistoryId === wanted);
        if (!revision) throw invalidArgument(`no revision ${wanted} in this file`);
        await this.showVersion({ kind: 'revision', revision });
      },
      hideRevision: () => this.view.hide(),
    };
  }

  private async createRevision(title?: string, label?: string): Promise<Revision> {
    const revision = await this.api.createRevision(title || t('history.defaultTitle', { time: formatTime(new Date().toISOString()) }), label);
    if (this.context.panels.isShown(this.id)) await this.refresh();
    return revision;
  }

  private async refresh(): Promise<void> {
    this.revisions = await this.api.revisions();
    await this.loadEntries(true);
  }

  private async loadEntries(fromStart: boolean): Promise<void> {
    const page = await this.api.entries(fromStart ? 0 : this.entries.length);
    this.entries = fromStart ? page.histories : [...this.entries, ...page.histories];
    this.names = fromStart ? page.users : { ...this.names, ...page.users };
    this.moreButton.hidden = page.isLastPage;
    this.render();
  }

  /** Runs a change whose refusal the notice shows (nothing else waits for it). */
  private act(change: () => Promise<unknown>): Promise<void> {
    return this.notice.run(change).catch(() => undefined);
  }

  private render(): void {
    const { editable } = this.context.permissions.now;
    this.createForm.hidden = !editable;
    this.compareChosen.disabled = this.chosen.size !== COMPARED;
    this.revisionList.replaceChildren(
      ...(this.revisions.length === 0
        ? [element('li', 'svc-panel-empty', t('history.noRevisions'))]
        : this.revisions.map((revision) => this.item(revision.title, `${revision.user.name} · ${formatTime(revision.createdAt, 'medium')}`, { kind: 'revision', revision }, editable))),
    );
    this.entryList.replaceChildren(
      ...(this.entries.length === 0
        ? [element('li', 'svc-panel-empty', t('history.noEntries'))]
        : this.entries.map((entry) =>
            this.item(
              entry.historyType === BEHAVIOR_HISTORY ? entry.content : t(HISTORY_LABEL[entry.historyType] ?? 'history.type1'),
              `${this.names[entry.userId] ?? entry.userId} · ${formatTime(entry.createdAt, 'medium')}`,
              entry.historyType === COMMENT_ACTIVITY || entry.historyType === BEHAVIOR_HISTORY ? undefined : { kind: 'entry', entry },
              editable,
            ),
          )),
    );
  }

  private item(title: string, detail: string, version: Version | undefined, editable: boolean): HTMLElement {
    const item = element('li', 'svc-panel-item');
    const text = element('div', 'svc-history-text');
    text.append(element('span', 'svc-history-title', title), element('span', 'svc-history-detail', detail));
    item.append(text);
    if (version) {
      item.dataset.version = historyIdOf(version);
      const view = element('button', 'svc-link-button svc-history-view', t('history.view'));
      view.type = 'button';
      view.addEventListener('click', () => void this.act(() => this.showVersion(version)));
      item.append(view);
      if (editable) item.append(this.restoreButton(version));
      if (this.comparable) {
        // on a row of their own under the title: beside View and Restore they would squeeze the title away
        const row = element('div', 'svc-history-compare-row');
        row.append(...this.compareControls(version));
        item.append(row);
      }
    }
    return item;
  }

  /** "Compare with previous" (when an older version is listed) and the tick that chooses the version for a comparison. */
  private compareControls(version: Version): HTMLElement[] {
    const controls: HTMLElement[] = [];
    const previous = this.previousOf(version);
    if (previous) {
      const button = element('button', 'svc-link-button svc-history-compare', t('history.compareWithPrevious'));
      button.type = 'button';
      button.addEventListener('click', () => void this.act(() => this.compare(previous, version)));
      controls.push(button);
    }
    const choose = element('label', 'svc-history-choose');
    const box = element('input', 'svc-history-choose-box');
    box.type = 'checkbox';
    const id = historyIdOf(version);
    box.checked = this.chosen.has(id);
    box.addEventListener('change', () => {
      if (box.checked) {
        // a third tick replaces the oldest choice: two versions are compared
        if (this.chosen.size >= COMPARED) this.chosen.delete(this.chosen.keys().next().value!);
        this.chosen.set(id, version);
      } else this.chosen.delete(id);
      this.render();
    });
    choose.append(box, t('history.choose'));
    controls.push(choose);
    return controls;
  }

  /** The version listed just before `version` in its list (revisions, or entries that have content). */
  private previousOf(version: Version): Version | undefined {
    if (version.kind === 'revision') {
      const older = this.revisions[this.revisions.indexOf(version.revision) + 1];
      return older ? { kind: 'revision', revision: older } : undefined;
    }
    const older = this.entries.slice(this.entries.indexOf(version.entry) + 1).find((entry) => entry.historyType !== COMMENT_ACTIVITY && entry.historyType !== BEHAVIOR_HISTORY);
    return older ? { kind: 'entry', entry: older } : undefined;
  }

  /** Shows what changed between two versions, from the older to the newer, in place of the editor. */
  private async compare(a: Version, b: Version): Promise<void> {
    const [older, newer] = createdAtOf(a) <= createdAtOf(b) ? [a, b] : [b, a];
    const comparison = await this.api.compare(historyIdOf(older), historyIdOf(newer));
    const close = element('button', 'svc-button svc-old-version-close', t('history.close'));
    close.type = 'button';
    close.addEventListener('click', () => this.view.hide());
    this.view.showComparison(comparison, formatTime(createdAtOf(older), 'medium'), formatTime(createdAtOf(newer), 'medium'), [close]);
  }

  private restoreButton(version: Version): HTMLButtonElement {
    const button = element('button', 'svc-link-button svc-history-restore', t('history.restore'));
    button.type = 'button';
    // a second click confirms: a native confirm() may be blocked in a cross-origin frame
    button.addEventListener('click', () => {
      if (button.dataset.confirm !== 'true') {
        button.dataset.confirm = 'true';
        button.textContent = t('history.restoreConfirm');
        return;
      }
      void this.act(() => this.restore(version));
    });
    return button;
  }

  private async showVersion(version: Version): Promise<void> {
    const docHistoryId = historyIdOf(version);
    const time = formatTime(createdAtOf(version), 'medium');
    const state = await this.api.content(docHistoryId);
    const close = element('button', 'svc-button svc-old-version-close', t('history.close'));
    close.type = 'button';
    close.addEventListener('click', () => this.view.hide());
    const actions = [close];
    if (this.context.permissions.now.editable) actions.unshift(this.restoreButton(version));
    this.view.show(state, time, actions);
  }

  private async restore(version: Version): Promise<void> {
    const time = formatTime(version.kind === 'revision' ? version.revision.createdAt : version.entry.createdAt, 'medium');
    const revision = version.kind === 'revision' ? version.revision : await this.api.createRevision(t('history.restoredTitle', { time }), undefined, version.entry.id);
    await this.api.restore(revision.id);
    this.view.hide();
    await this.refresh();
    this.notice.show(t('history.restored', { time }));
  }
}
