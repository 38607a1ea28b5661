import './rich-text.css';
import { Editor } from '@tiptap/core';
import { colorOf } from '../shared/collaboration.js';
import type { EditorContext } from '../shared/editor-context.js';
import { fileUrl, openLink } from '../shared/links.js';
import { richTextExtensions } from './extensions.js';
import { FindReplaceBar } from './find-replace.js';
import { mentionSuggestion } from './mention-menu.js';
import { t } from './messages.js';
import type { ModelHost } from './model.js';
import { isCalendarDate } from '../../src/model/rich-text/nodes/date-mention.js';
import type { MentionedFile } from '../../src/model/rich-text/nodes/file-mention.js';
import { registerRichTextMethods } from './sdk-methods.js';
import { mountToolbar } from './toolbar.js';
import { IMAGE_TYPES, uploadImage } from './uploads.js';

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

  const editor: Editor = new Editor({
    element: page,
    editable: boot.permissions.editable,
    extensions: richTextExtensions({
      doc: session.doc,
      provider: session.provider,
      user: { name: boot.user.name, color: colorOf(boot.user.id) },
      host,
    }),
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

  mountToolbar(editor, shell.toolbar, {
    insertLink: () => {
      const previous = editor.getAttributes('link').href as string | undefined;
      const href = window.prompt(t('prompt.link'), previous ?? 'https://')?.trim();
      if (!href) return;
      if (!editor.chain().focus().extendMarkRange('link').setLink({ href }).run()) alert(t('error.linkRefused'));
    },
    insertImage: () => picker.click(),
    insertDate: () => {
      const date = window.prompt(t('prompt.date'), new Date().toISOString().slice(0, 10))?.trim();
      if (!date) return;
      if (!isCalendarDate(date)) return alert(t('error.dateInvalid', { date }));
      const guid = crypto.randomUUID();
      if (editor.chain().focus().insertDateMention(date, guid).run()) registerDate(date, guid);
    },
  });

  // the shell shows the change (web/main.ts); the editor stops or resumes taking edits at once
  session.onAccess((permissions) => {
    if (permissions.editable !== undefined && permissions.editable !== editor.isEditable) editor.setEditable(permissions.editable);
  });

  const find = new FindReplaceBar(editor);
  shell.main.prepend(find.element);
  find.listen(document);

  registerRichTextMethods(context.bridge, editor, shell);
  return { editor, page, alert, host };
}
