import type { Editor, JSONContent } from '@tiptap/core';
import { isAllowedUri } from '@tiptap/extension-link';
import { BridgeError } from '../shared/bridge.js';
import type { FrameBridge } from '../shared/bridge.js';
import type { Shell } from '../shared/shell.js';
import { ProtocolError } from '../../sdk/protocol.js';
import { printDocument } from './print.js';

function invalid(message: string): BridgeError {
  return new BridgeError(ProtocolError.invalidArguments, message);
}

/** `insertLink(url, text?)` or `insertLink({url, text?})`. */
function linkArguments(args: unknown[]): { url: string; text: string | undefined } {
  const [first, second] = args;
  const options = typeof first === 'object' && first !== null ? (first as { url?: unknown; href?: unknown; text?: unknown }) : { url: first, text: second };
  const url = options.url ?? options.href;
  if (typeof url !== 'string' || url.trim() === '') throw invalid('insertLink needs a url');
  if (options.text !== undefined && typeof options.text !== 'string') throw invalid('insertLink: text must be a string');
  return { url: url.trim(), text: options.text || undefined };
}

/** Refuses a change while the editor is read-only (the host would otherwise believe it happened). */
function requireEditable(editor: Editor, method: string): void {
  if (!editor.isEditable) throw new BridgeError(ProtocolError.invalidArguments, `${method}: the document is read-only for this user`);
}

/**
 * The SDK editor methods of document and documentPro (browser-sdk.md "Editor methods"), registered once for
 * both kinds: what one kind's list has that the other's lacks is harmless where it is extra.
 * Methods that change the document refuse when it is read-only.
 */
export function registerRichTextMethods(bridge: FrameBridge, editor: Editor, shell: Shell): void {
  bridge.registerMethods({
    getTitle: () => shell.title,
    getSelectedText: () => {
      const { from, to } = editor.state.selection;
      return editor.state.doc.textBetween(from, to, '\n', (leaf) => leaf.type.spec.leafText?.(leaf) ?? '');
    },
    getMarkdownFromSelection: () => {
      const { from, to } = editor.state.selection;
      // cut keeps the blocks around the selection, so a selection inside a paragraph is still a paragraph
      return editor.markdown?.serialize(editor.state.doc.cut(from, to).toJSON() as JSONContent) ?? '';
    },
    insertMarkdown: (markdown) => {
      if (typeof markdown !== 'string') throw invalid('insertMarkdown needs a markdown string');
      requireEditable(editor, 'insertMarkdown');
      return editor.chain().focus().insertContent(markdown, { contentType: 'markdown' }).run();
    },
    insertLink: (...args) => {
      const { url, text } = linkArguments(args);
      // the link mark's own address check, also for text inserted with the mark (which skips setLink)
      if (!isAllowedUri(url)) throw invalid(`insertLink: ${url} is not an allowed link address`);
      requireEditable(editor, 'insertLink');
      const chain = editor.chain().focus();
      return text
        ? chain.insertContent({ type: 'text', text, marks: [{ type: 'link', attrs: { href: url } }] }).run()
        : chain.extendMarkRange('link').setLink({ href: url }).run();
    },
    setBold: () => {
      requireEditable(editor, 'setBold');
      return editor.chain().focus().toggleBold().run();
    },
    setItalic: () => {
      requireEditable(editor, 'setItalic');
      return editor.chain().focus().toggleItalic().run();
    },
    goToTop: () => {
      editor.chain().focus().setTextSelection(0).run();
      editor.view.dom.closest('.svc-main')?.scrollTo({ top: 0 });
    },
    print: () => printDocument(),
  });
}
