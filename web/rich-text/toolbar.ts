import type { Editor } from '@tiptap/core';
import { t as shared } from '../shared/i18n/index.js';
import { toolButton } from '../shared/tool-button.js';
import { t } from './messages.js';

/** What the toolbar asks of the editor around it (prompts and uploads live in editor.ts). */
export interface ToolbarActions {
  insertLink(): void;
  insertImage(): void;
  insertDate(): void;
}

interface Button {
  /** stable name (styles, tests): the command it runs */
  tool: string;
  icon: string;
  label: string;
  run(editor: Editor): boolean;
  /** pressed state (a mark or block that applies at the selection) */
  active?(editor: Editor): boolean;
  /**
   * enabled only where it applies (table tools inside a table). Such a button is always in the toolbar, greyed
   * out elsewhere: showing it only there would make the toolbar wrap to a new row and the page jump.
   */
  applies?(editor: Editor): boolean;
}

const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;
type HeadingLevel = (typeof HEADING_LEVELS)[number];

function buttons(actions: ToolbarActions): Button[][] {
  const inTable = (editor: Editor) => editor.isActive('table');
  return [
    [
      { tool: 'undo', icon: '↶', label: shared('toolbar.undo'), run: (e) => e.chain().focus().undo().run() },
      { tool: 'redo', icon: '↷', label: shared('toolbar.redo'), run: (e) => e.chain().focus().redo().run() },
    ],
    [
      { tool: 'bold', icon: 'B', label: shared('toolbar.bold'), run: (e) => e.chain().focus().toggleBold().run(), active: (e) => e.isActive('bold') },
      { tool: 'italic', icon: 'I', label: shared('toolbar.italic'), run: (e) => e.chain().focus().toggleItalic().run(), active: (e) => e.isActive('italic') },
      { tool: 'underline', icon: 'U', label: shared('toolbar.underline'), run: (e) => e.chain().focus().toggleUnderline().run(), active: (e) => e.isActive('underline') },
      { tool: 'strike', icon: 'S', label: shared('toolbar.strike'), run: (e) => e.chain().focus().toggleStrike().run(), active: (e) => e.isActive('strike') },
      { tool: 'code', icon: '</>', label: shared('toolbar.code'), run: (e) => e.chain().focus().toggleCode().run(), active: (e) => e.isActive('code') },
      { tool: 'highlight', icon: 'H', label: t('toolbar.highlight'), run: (e) => e.chain().focus().toggleHighlight().run(), active: (e) => e.isActive('highlight') },
      { tool: 'subscript', icon: 'x₂', label: t('toolbar.subscript'), run: (e) => e.chain().focus().toggleSubscript().run(), active: (e) => e.isActive('subscript') },
      { tool: 'superscript', icon: 'x²', label: t('toolbar.superscript'), run: (e) => e.chain().focus().toggleSuperscript().run(), active: (e) => e.isActive('superscript') },
    ],
    [
      { tool: 'bulletList', icon: '•', label: shared('toolbar.bulletList'), run: (e) => e.chain().focus().toggleBulletList().run(), active: (e) => e.isActive('bulletList') },
      { tool: 'orderedList', icon: '1.', label: shared('toolbar.orderedList'), run: (e) => e.chain().focus().toggleOrderedList().run(), active: (e) => e.isActive('orderedList') },
      { tool: 'taskList', icon: '☑', label: shared('toolbar.taskList'), run: (e) => e.chain().focus().toggleTaskList().run(), active: (e) => e.isActive('taskList') },
      { tool: 'blockquote', icon: '❝', label: shared('toolbar.blockquote'), run: (e) => e.chain().focus().toggleBlockquote().run(), active: (e) => e.isActive('blockquote') },
      { tool: 'callout', icon: 'ℹ', label: t('toolbar.callout'), run: (e) => e.chain().focus().toggleCallout().run(), active: (e) => e.isActive('callout') },
      { tool: 'codeBlock', icon: '{ }', label: shared('toolbar.codeBlock'), run: (e) => e.chain().focus().toggleCodeBlock().run(), active: (e) => e.isActive('codeBlock') },
      { tool: 'horizontalRule', icon: '―', label: shared('toolbar.horizontalRule'), run: (e) => e.chain().focus().setHorizontalRule().run() },
    ],
    [
      { tool: 'link', icon: '↗', label: shared('toolbar.link'), run: () => (actions.insertLink(), true), active: (e) => e.isActive('link') },
      { tool: 'unlink', icon: '↛', label: t('toolbar.unlink'), run: (e) => e.chain().focus().unsetLink().run(), applies: (e) => e.isActive('link') },
      { tool: 'image', icon: '▣', label: t('toolbar.image'), run: () => (actions.insertImage(), true) },
      { tool: 'date', icon: '▤', label: t('toolbar.date'), run: () => (actions.insertDate(), true) },
      { tool: 'pageBreak', icon: '⤓', label: t('toolbar.pageBreak'), run: (e) => e.chain().focus().setPageBreak().run() },
      { tool: 'table', icon: '▦', label: t('toolbar.table'), run: (e) => e.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run() },
      { tool: 'addRow', icon: '+―', label: t('toolbar.addRow'), run: (e) => e.chain().focus().addRowAfter().run(), applies: inTable },
      { tool: 'addColumn', icon: '+|', label: t('toolbar.addColumn'), run: (e) => e.chain().focus().addColumnAfter().run(), applies: inTable },
      { tool: 'deleteTable', icon: '✕▦', label: t('toolbar.deleteTable'), run: (e) => e.chain().focus().deleteTable().run(), applies: inTable },
    ],
  ];
}

function headingLevel(editor: Editor): HeadingLevel | 0 {
  return HEADING_LEVELS.find((level) => editor.isActive('heading', { level })) ?? 0;
}

/**
 * The rich-text toolbar in the shell's toolbar row: text style, marks, blocks, insertions, undo and redo.
 * Pressed states (`aria-pressed`) and enabled states follow the selection on every transaction.
 */
export function mountToolbar(editor: Editor, container: HTMLElement, actions: ToolbarActions): void {
  const style = document.createElement('select');
  style.className = 'svc-tool-style';
  style.setAttribute('aria-label', t('toolbar.textStyle'));
  const paragraph = new Option(shared('toolbar.paragraph'), '0');
  style.append(paragraph, ...HEADING_LEVELS.map((level) => new Option(shared('toolbar.heading', { level }), String(level))));
  style.addEventListener('change', () => {
    const level = Number(style.value) as HeadingLevel | 0;
    if (level === 0) editor.chain().focus().setParagraph().run();
    else editor.chain().focus().setHeading({ level }).run();
  });
  container.append(style);

  const rendered: Array<{ element: HTMLButtonElement; button: Button }> = [];
  for (const group of buttons(actions)) {
    const groupElement = document.createElement('div');
    groupElement.className = 'svc-tool-group';
    for (const button of group) {
      const element = toolButton(button.label, button.icon, () => button.run(editor));
      element.dataset.tool = button.tool;
      groupElement.append(element);
      rendered.push({ element, button });
    }
    container.append(groupElement);
  }

  const refresh = () => {
    style.value = String(headingLevel(editor));
    style.disabled = !editor.isEditable;
    for (const { element, button } of rendered) {
      if (button.active) element.setAttribute('aria-pressed', String(button.active(editor)));
      element.disabled = !editor.isEditable || (button.applies ? !button.applies(editor) : false);
    }
  };
  editor.on('transaction', refresh);
  editor.on('focus', refresh);
  editor.on('update', refresh);
  refresh();
}
