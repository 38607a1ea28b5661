import '../rich-text/rich-text.css';
import './presentation.css';
import { getSchema } from '@tiptap/core';
import * as Y from 'yjs';
import { pageModelHost } from '../rich-text/editor.js';
import { richTextExtensions } from '../rich-text/extensions.js';
import { mentionSuggestion } from '../rich-text/mention-menu.js';
import { IMAGE_TYPES, uploadImage } from '../rich-text/uploads.js';
import type { Collaborator } from '../shared/collaboration.js';
import type { EditorContext } from '../shared/editor-context.js';
import { HistoryPanel } from '../shared/panels/history/history-panel.js';
import { OldVersionView } from '../shared/panels/history/old-version-view.js';
import { LivePermissions } from '../shared/panels/live-permissions.js';
import { PanelHost } from '../shared/panels/panel-host.js';
import '../shared/panels/panels.css';
import { t as shellText } from '../shared/i18n/index.js';
import { slideComments } from './comments.js';
import { slideMaps } from '../../src/model/content.js';
import { Deck, idOf } from './deck.js';
import { t } from './messages.js';
import { Presenter } from './presenter.js';
import { registerPresentationMethods } from './sdk-methods.js';
import { SlideList } from './slide-list.js';
import { slidePreview } from './slide-view.js';
import { Stage } from './stage.js';
import { NotesPane } from './notes.js';
import { mountSlideToolbar } from './toolbar.js';
import { THEMES, themeNameOf } from '../../src/model/slides.js';

/** The size new image boxes get when the browser cannot decode the file to read its own. */
const FALLBACK_IMAGE_SIZE = { width: 480, height: 270 };

async function imageSize(file: File): Promise<{ width: number; height: number }> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return FALLBACK_IMAGE_SIZE;
  }
}

/** Awareness field naming the slide (and box) a user has open, so others see where they are. */
const PRESENCE_FIELD = 'presentation';

interface Presence {
  slideId?: string;
  boxId?: string;
}

function button(label: string, onClick: () => void, className = 'svc-button'): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = label;
  element.title = label;
  // keep the focus where it is (a text box), so Undo or Bold act on it
  element.addEventListener('mousedown', (event) => event.preventDefault());
  element.addEventListener('click', onClick);
  return element;
}

/**
 * The presentation editor (docs/BROWSER.md "Presentation"): the slide list, the slide being edited, the
 * toolbar, the presenting mode and the slide's comments, all over the presentation model of
 * docs/CONTENT-MODEL.md in the page's collaboration session.
 */
export async function mount(context: EditorContext): Promise<void> {
  const { boot, bridge, api, session, shell } = context;
  let editable = boot.permissions.editable;
  const deck = new Deck(session.doc);
  const host = { ...pageModelHost(context), mentionSuggestion: mentionSuggestion(api) };
  const rendering = { schema: getSchema(richTextExtensions({ doc: session.doc, host })), displaySrc: host.displayImageSrc };
  let currentId: string | undefined = deck.list()[0] ? idOf(deck.list()[0]!) : undefined;
  let currentIndex = 0;

  const open = (slideId: string | undefined) => {
    currentId = slideId;
    currentIndex = slideId === undefined ? 0 : Math.max(0, deck.indexOf(slideId));
    stage.show(slideId);
    notes.show(slideId);
    slideList.setCurrent(slideId);
    comments.moved();
    updateButtons();
    publishPresence();
  };

  const stage = new Stage(context, deck, host, {
    selected: () => {
      comments.moved();
      updateButtons();
      publishPresence();
    },
  });
  const slideList = new SlideList(deck, rendering, { open, move: (slideId, index) => deck.moveSlide(slideId, index) }, editable);
  const presenter = new Presenter(deck, rendering, (slideId) => {
    if (slideId !== undefined) open(slideId);
  });
  const panels = new PanelHost(shell);
  const comments = slideComments(context, panels, { deck, stage, slideList, open });
  // revisions and edit history: old versions drawn as their slides, read-only
  const history = new HistoryPanel(
    { api, shell, panels, permissions: new LivePermissions(boot.permissions, session) },
    new OldVersionView(shell, 'svc-old-slides', (doc, page) => {
      page.append(...slideMaps(doc).map((slide) => slidePreview(slide, rendering)));
      return { destroy: () => page.replaceChildren() };
    }),
  );
  panels.add(comments.panel);
  panels.add(history);
  bridge.registerMethods({ ...comments.panel.methods(), ...history.methods() });

  const layout = document.createElement('div');
  layout.className = 'svc-presentation';
  const listPane = document.createElement('div');
  listPane.className = 'svc-slide-pane';
  const listActions = document.createElement('div');
  listActions.className = 'svc-slide-actions';
  const presentButton = button(t('present.start'), () => presenter.start(currentIndex), 'svc-button svc-button-primary');
  const speakerButton = button(t('present.speaker'), () => presenter.start(currentIndex, true));
  listActions.append(presentButton, speakerButton);
  listPane.append(listActions, slideList.element);
  const notes = new NotesPane(deck);
  const stagePane = document.createElement('div');
  stagePane.className = 'svc-stage-pane';
  stagePane.append(stage.element, notes.element);
  layout.append(listPane, stagePane);
  shell.main.append(layout);

  // the toolbar (hidden for readers by the shell)
  const undo = () => {
    const editor = stage.focusedEditor();
    if (editor) editor.commands.undo();
    else deck.undoManager.undo();
  };
  const redo = () => {
    const editor = stage.focusedEditor();
    if (editor) editor.commands.redo();
    else deck.undoManager.redo();
  };
  const imageInput = document.createElement('input');
  imageInput.type = 'file';
  imageInput.accept = IMAGE_TYPES.join(',');
  imageInput.hidden = true;
  imageInput.addEventListener('change', () => {
    const file = imageInput.files?.[0];
    imageInput.value = '';
    const slideId = currentId;
    if (file && slideId !== undefined) void addImage(slideId, file);
  });
  /** Uploads the image and puts it on the slide at its own size (read from the file; a default when it cannot be decoded). */
  async function addImage(slideId: string, file: File): Promise<void> {
    try {
      const [src, size] = await Promise.all([uploadImage(api, boot.fileId, file), imageSize(file)]);
      const boxId = deck.addImageBox(slideId, { src, alt: file.name, ...size });
      if (boxId !== undefined && slideId === currentId) stage.select(boxId);
    } catch (error) {
      // uploadImage refuses with the sentence to show (type, size, permission)
      shell.showNotice(error instanceof Error ? error.message : String(error));
    }
  }
  const refreshToolbar = mountSlideToolbar(shell.toolbar, {
    deck,
    slideId: () => currentId,
    box: () => (currentId === undefined || stage.selectedBox === undefined ? undefined : deck.box(currentId, stage.selectedBox)),
    editor: () => (stage.selectedBox === undefined ? undefined : stage.editorOf(stage.selectedBox)),
    undo,
    redo,
    addSlide: (layout) => open(deck.addSlide(currentId, layout)),
    duplicateSlide: () => {
      const copy = currentId === undefined ? undefined : deck.duplicateSlide(currentId);
      if (copy !== undefined) open(copy);
    },
    deleteSlide: () => {
      if (currentId !== undefined) deck.deleteSlide(currentId);
    },
    moveSlide: (by) => {
      if (currentId !== undefined) deck.moveSlide(currentId, deck.indexOf(currentId) + by);
    },
    addTextBox: () => {
      const boxId = currentId === undefined ? undefined : deck.addTextBox(currentId);
      if (boxId === undefined) return;
      stage.select(boxId);
      stage.editorOf(boxId)?.commands.focus();
    },
    addImage: () => imageInput.click(),
    arrange: (to) => stage.arrange(to),
    selectionSize: () => stage.selectedBoxes.length,
    group: (together) => stage.group(together),
    align: (how) => stage.align(how),
    addShape: (kind) => {
      const slide = currentId === undefined ? undefined : deck.slide(currentId);
      const boxId = currentId === undefined ? undefined : deck.addShape(currentId, kind, THEMES[themeNameOf(slide)].accent);
      if (boxId !== undefined) stage.focusBox(boxId);
    },
    deleteBox: () => {
      if (currentId !== undefined) deck.deleteBoxes(currentId, stage.selectedBoxes);
    },
    canCrop: () => stage.canCrop,
    crop: () => stage.startCrop(),
  });
  shell.toolbar.append(imageInput);
  document.addEventListener('selectionchange', () => refreshToolbar());

  function updateButtons(): void {
    refreshToolbar();
    presentButton.disabled = deck.length === 0;
    speakerButton.disabled = deck.length === 0;
  }

  // keyboard undo outside a text box (and outside the comment fields) undoes this user's slide and box changes
  document.addEventListener('keydown', (event) => {
    if (!editable || !(event.ctrlKey || event.metaKey) || (event.target as HTMLElement).closest('.ProseMirror, input, textarea')) return;
    const key = event.key.toLowerCase();
    if (key !== 'z' && key !== 'y') return;
    event.preventDefault();
    if (key === 'y' || event.shiftKey) deck.undoManager.redo();
    else deck.undoManager.undo();
  });

  // the model changed (here or elsewhere): keep the open slide, redraw what changed
  deck.slides.observeDeep((events) => {
    const changed = new Set<Y.Map<unknown>>();
    let all = false;
    for (const event of events) {
      if (event.target === deck.slides) all = true;
      else if (typeof event.path[0] === 'number') changed.add(deck.slides.get(event.path[0]));
    }
    slideList.invalidate(all ? undefined : changed);
    if (currentId !== undefined && deck.indexOf(currentId) < 0) {
      const next = deck.list()[Math.min(currentIndex, deck.length - 1)];
      open(next ? idOf(next) : undefined);
    } else if (currentId === undefined && deck.length > 0) {
      open(idOf(deck.list()[0]!));
    } else {
      currentIndex = currentId === undefined ? 0 : deck.indexOf(currentId);
      stage.refresh();
      notes.show(currentId);
      updateButtons();
    }
    if (presenter.active) presenter.draw();
  });

  // where collaborators are: marks on the slide list, their selected box outlined in their colour
  const awareness = session.provider.awareness;
  function publishPresence(): void {
    session.provider.setAwarenessField(PRESENCE_FIELD, { slideId: currentId, boxId: stage.selectedBox } satisfies Presence);
  }
  function showPresence(): void {
    if (!awareness) return;
    const bySlide = new Map<string, Collaborator[]>();
    const boxes = new Map<string, string>();
    const people = new Map(session.collaborators().map((person) => [person.clientId, person]));
    for (const [clientId, state] of awareness.getStates()) {
      const person = people.get(clientId);
      const presence = (state as { [PRESENCE_FIELD]?: Presence })[PRESENCE_FIELD];
      if (clientId === awareness.clientID || !person || typeof presence?.slideId !== 'string') continue;
      bySlide.set(presence.slideId, [...(bySlide.get(presence.slideId) ?? []), person]);
      if (presence.slideId === currentId && typeof presence.boxId === 'string') boxes.set(presence.boxId, person.color);
    }
    slideList.showPresence(bySlide);
    stage.showRemoteSelections(boxes);
  }
  awareness?.on('change', showPresence);

  // the service may take editing away (or give it) while the page is open; the shell shows read-only itself
  session.onAccess((permissions) => {
    const next = permissions.editable === true && permissions.readable !== false;
    if (next === editable) return;
    editable = next;
    stage.setEditable(editable);
    notes.setEditable(editable);
    slideList.setEditable(editable);
  });

  registerPresentationMethods(bridge, presenter, () => currentIndex);
  stage.setEditable(editable);
  notes.setEditable(editable);
  slideList.invalidate();
  open(currentId);
  showPresence();
}
