import './rich-text.css';
import { Editor } from '@tiptap/core';
import { colorOf } from '../shared/collaboration.js';
import { toolButton } from '../shared/tool-button.js';
import type { EditorContext } from '../shared/editor-context.js';
import { fileUrl, openLink } from '../shared/links.js';
import { richTextExtensions } from './extensions.js';
import { FootnotesArea } from './footnotes.js';
import { FindReplaceBar } from './find-replace.js';
import { LinkPopover } from './link-popover.js';
import { printOnShortcut } from './print.js';
import { mentionSuggestion } from './mention-menu.js';
import { t } from './messages.js';
import type { ModelHost } from './model.js';
import { isCalendarDate } from '../../src/model/rich-text/nodes/date-mention.js';
import type { MentionedFile } from '../../src/model/rich-text/nodes/file-mention.js';
import { registerRichTextMethods } from './sdk-methods.js';
import { mountToolbar } from './toolbar.js';
import { IMAGE_TYPES, uploadImage } from './uploads.js';
import { SuggestionPopover } from './suggestion-popover.js';
import { isSuggesting, setSuggesting, Suggesting } from './suggestions.js';
import { icon } from './icons.js';
import { writeModeOf } from '../shared/shell.js';

export type RichTextKind = 'document' | 'documentPro';

/**
 * A mounted rich-text editor, what `mountRichText` gives an editor kind. Panels (comments, history, pages,
 * bookmarks) work through `editor`, the Tiptap editor bound to the file's Yjs document, and put their own
 * elements in `page` (the sheet the editor sits on) or the shell's side panel.
 */
export interface RichTextEditor {
  editor: Editor;
  page: HTMLElement;
  /** Shows a problem above the document until dismissed (a refused upload, a date not registered). */
  alert(text: string): void;
  /** what the model's nodes ask of this page (an old version's read-only view shows images through it too) */
  host: ModelHost;
  /** the notes' fields, in a list after the text (documentPro's pages move them to the bottom of their page) */
  footnotes: FootnotesArea;
}

/** A third-party file opens at its `fullUrl`; a collaborative file at the integrator's URL for it (generateUrl). */
async function openFile(context: EditorContext, file: MentionedFile): Promise<void> {
  const url = file.fullUrl ?? (await fileUrl(context.bridge, file.fileId));
  if (url) await openLink(context.bridge, url, '_blank');
}

function alertArea(main: HTMLElement): (text: string) => void {
  const area = document.createElement('div');
  area.className = 'svc-editor-alerts';
  main.prepend(area);
  return (text) => {
    const alert = document.createElement('div');
    alert.className = 'svc-editor-alert';
    alert.setAttribute('role', 'alert');
    const message = document.createElement('span');
    message.textContent = text;
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.textContent = t('notice.dismiss');
    dismiss.addEventListener('click', () => alert.remove());
    alert.append(message, dismiss);
    area.append(alert);
  };
}

/**
 * The host of rich text in an editor page: stored images shown with this user's credentials (web addresses as
 * they are, anything else not at all), mentioned files opened through the integrator's page (links are routed
 * by the page itself, web/shared/links.ts).
 */
export function pageModelHost(context: EditorContext): ModelHost {
  return {
    displayImageSrc: (src) => context.api.attachmentUrl(src) ?? (/^https?:\/\//i.test(src) ? src : ''),
    openFile: (file) => void openFile(context, file).catch((error: unknown) => context.bridge.reportError(error)),
    dateTyped: () => undefined,
  };
}

/**
 * Mounts the rich-text editor of document and documentPro in the shell: the Tiptap editor bound to the
 * session's document with carets, the toolbar, the `@` dropdown, image uploads, find and replace, the SDK's document methods,
 * and permission changes applied as the service announces them. Link clicks are the page's (web/shared/links.ts).
 */
export function mountRichText(context: EditorContext, kind: RichTextKind): RichTextEditor {
  const { boot, session, api, shell } = context;
  const page = document.createElement('div');
  page.className = kind === 'documentPro' ? 'svc-document svc-document-pro' : 'svc-document';
  const alert = alertArea(shell.main);
  shell.main.append(page);

  const registerDate = (date: string, guid: string) => {
    const block = editor.state.selection.$from.parent.textContent.slice(0, 1000) || date;
    api
      .call(api.filePath('date-mentions'), { method: 'POST', body: { content: block, remindAt: new Date(`${date}T00:00:00`).toISOString(), remindUserIds: [], positionId: guid } })
      .catch((error: unknown) => alert(t('error.dateNotSaved', { message: error instanceof Error ? error.message : String(error) })));
  };
  const host: ModelHost = { ...pageModelHost(context), dateTyped: registerDate, mentionSuggestion: mentionSuggestion(api) };

  const uploadAndInsert = (file: File) =>
    uploadImage(api, boot.fileId, file).then(
      (src) => editor.chain().focus().setImage({ src, alt: file.name }).run(),
      (error: unknown) => alert(error instanceof Error ? error.message : String(error)),
    );
  /** Pasted or dropped files: images are uploaded (anything else is left to the editor's own handling). */
  const insertImages = (files: File[]): boolean => {
    const images = files.filter((file) => file.type.startsWith('image/'));
    images.forEach(uploadAndInsert);
    return images.length > 0;
  };

  // a user who may comment but not edit suggests (docs/BROWSER.md "Suggestions"); the service checks each update
  let permissions = { editable: boot.permissions.editable, commentable: boot.permissions.commentable };
  const onlySuggests = () => writeModeOf(permissions, boot.fileType) === 'suggest';
  const editor: Editor = new Editor({
    element: page,
    editable: writeModeOf(permissions, boot.fileType) !== 'read',
    extensions: richTextExtensions({
      doc: session.doc,
      provider: session.provider,
      user: { name: boot.user.name, color: colorOf(boot.user.id) },
      host,
      placeholder: t('placeholder.empty'),
    }).concat(Suggesting.configure({ author: { id: boot.user.id, name: boot.user.name }, onlySuggests, refused: () => alert(t('suggestion.onlyRefused')) })),
    editorProps: {
      attributes: { class: 'svc-rich-text', 'aria-label': boot.title, spellcheck: 'true' },
      handlePaste: (_view, event) => insertImages(Array.from(event.clipboardData?.files ?? [])),
      handleDrop: (_view, event) => insertImages(Array.from((event as DragEvent).dataTransfer?.files ?? [])),
    },
  });

  const picker = document.createElement('input');
  picker.type = 'file';
  picker.accept = IMAGE_TYPES.join(',');
  picker.hidden = true;
  picker.addEventListener('change', () => {
    const files = Array.from(picker.files ?? []);
    picker.value = '';
    // a chosen file of another type is refused by uploadImage with the sentence to show
    files.forEach(uploadAndInsert);
  });
  shell.toolbar.append(picker);

  const linkPopover = new LinkPopover(editor, {
    open: (href) => void openLink(context.bridge, href, '_blank').catch((error: unknown) => context.bridge.reportError(error)),
    refused: () => alert(t('error.linkRefused')),
  });
  shell.main.append(linkPopover.element);

  mountToolbar(editor, shell.toolbar, {
    insertLink: () => linkPopover.show(true),
    insertImage: () => picker.click(),
    insertDate: () => {
      const date = window.prompt(t('prompt.date'), new Date().toISOString().slice(0, 10))?.trim();
      if (!date) return;
      if (!isCalendarDate(date)) return alert(t('error.dateInvalid', { date }));
      const guid = crypto.randomUUID();
      if (editor.chain().focus().insertDateMention(date, guid).run()) registerDate(date, guid);
    },
  });

  const suggesting = toolButton(t('suggestion.modeTip'), t('suggestion.mode'), () => {
    setSuggesting(editor, !isSuggesting(editor));
    editor.commands.focus();
  });
  suggesting.dataset.tool = 'suggesting';
  // the toolbar keeps one row at 1440 px: an icon, named by its label and tooltip
  suggesting.textContent = '';
  suggesting.append(icon('suggesting'));
  suggesting.setAttribute('aria-label', t('suggestion.mode'));
  const showSuggesting = () => {
    suggesting.setAttribute('aria-pressed', String(isSuggesting(editor) || onlySuggests()));
    // one who may only suggest cannot turn it off
    suggesting.disabled = !editor.isEditable || onlySuggests();
    suggesting.title = t(onlySuggests() ? 'suggestion.onlyTip' : 'suggestion.modeTip');
  };
  // one who may only suggest is in suggesting mode from the start (so no Accept / Reject at the caret either)
  const suggestIfOnly = () => {
    if (onlySuggests() && !isSuggesting(editor)) setSuggesting(editor, true);
    showSuggesting();
  };
  editor.on('transaction', showSuggesting);
  suggestIfOnly();
  shell.toolbar.append(suggesting);
  shell.main.append(new SuggestionPopover(editor).element);

  // the shell shows the change (web/main.ts); the editor stops or resumes taking edits at once
  session.onAccess((changed) => {
    permissions = { editable: changed.editable ?? permissions.editable, commentable: changed.commentable ?? permissions.commentable };
    const editable = writeModeOf(permissions, boot.fileType) !== 'read';
    if (editable !== editor.isEditable) editor.setEditable(editable);
    suggestIfOnly();
  });

  const footnotes = new FootnotesArea(editor);
  page.append(footnotes.element);

  const find = new FindReplaceBar(editor);
  shell.main.prepend(find.element);
  find.listen(document);
  printOnShortcut(document);

  registerRichTextMethods(context.bridge, editor, shell);
  return { editor, page, alert, host, footnotes };
}
