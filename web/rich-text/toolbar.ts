import type { Editor } from '@tiptap/core';
import { FONT_CHOICES, FONT_SIZES_PT, fontFamilyCss, HIGHLIGHT_COLORS, LINE_HEIGHTS, TEXT_COLORS, type TextAlign } from '../../src/model/rich-text/formatting.js';
import { SUGGESTION_MARK_NAMES } from '../../src/model/rich-text/marks/suggestion.js';
import { t as shared } from '../shared/i18n/index.js';
import { toolButton } from '../shared/tool-button.js';
import { ColorMenu } from './color-menu.js';
import { icon } from './icons.js';
import { t } from './messages.js';

/** What the toolbar asks of the editor around it (the link popover and uploads live in editor.ts). */
export interface ToolbarActions {
  insertLink(): void;
  insertImage(): void;
  insertDate(): void;
}

interface Button {
  /** stable name (styles, tests): the command it runs; also its icon's name unless `icon` says otherwise */
  tool: string;
  icon?: string;
  label: string;
  /** the keyboard shortcut, in Tiptap's notation (`Mod-b`), shown in the tooltip */
  keys?: string;
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

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** A shortcut as the user's keyboard names it: `Mod-Shift-e` is Ctrl+Shift+E, or ⌘⇧E on a Mac. */
export function shortcutText(keys: string): string {
  const parts = keys.split('-').map((part) => (part.length === 1 ? part.toUpperCase() : part));
  if (IS_MAC) return parts.map((part) => ({ Mod: '⌘', Shift: '⇧', Alt: '⌥' })[part] ?? part).join('');
  return parts.map((part) => (part === 'Mod' ? 'Ctrl' : part)).join('+');
}

function tooltip(label: string, keys: string | undefined): string {
  return keys ? `${label} (${shortcutText(keys)})` : label;
}

/**
 * Removes the selection's text formatting and its paragraphs' formatting. Links stay (they are content), and so
 * do suggestions: removing their marks would accept insertions and turn suggested deletions into plain text.
 */
function clearFormatting(editor: Editor): boolean {
  let chain = editor.chain().focus();
  for (const mark of Object.keys(editor.schema.marks)) if (mark !== 'link' && !SUGGESTION_MARK_NAMES.includes(mark)) chain = chain.unsetMark(mark);
  return chain.setTextAlign('left').setLineHeight(null).run() && editor.chain().command(({ tr, state }) => {
    state.doc.nodesBetween(state.selection.from, state.selection.to, (node, pos) => {
      if (node.attrs.indent) tr.setNodeAttribute(pos, 'indent', null);
    });
    return true;
  }).run();
}

const ALIGNMENTS: ReadonlyArray<{ align: TextAlign; tool: 'alignLeft' | 'alignCenter' | 'alignRight' | 'alignJustify'; keys: string }> = [
  { align: 'left', tool: 'alignLeft', keys: 'Mod-Shift-l' },
  { align: 'center', tool: 'alignCenter', keys: 'Mod-Shift-e' },
  { align: 'right', tool: 'alignRight', keys: 'Mod-Shift-r' },
  { align: 'justify', tool: 'alignJustify', keys: 'Mod-Shift-j' },
];

function alignmentAt(editor: Editor): TextAlign {
  const { $from } = editor.state.selection;
  const align = $from.parent.attrs.textAlign;
  return typeof align === 'string' ? (align as TextAlign) : 'left';
}

function buttons(actions: ToolbarActions): { marks: Button[]; scripts: Button[]; paragraph: Button[]; blocks: Button[]; insert: Button[]; history: Button[] } {
  const inTable = (editor: Editor) => editor.isActive('table');
  return {
    history: [
      { tool: 'undo', label: shared('toolbar.undo'), keys: 'Mod-z', run: (e) => e.chain().focus().undo().run() },
      { tool: 'redo', label: shared('toolbar.redo'), keys: 'Mod-Shift-z', run: (e) => e.chain().focus().redo().run() },
    ],
    marks: [
      { tool: 'bold', label: shared('toolbar.bold'), keys: 'Mod-b', run: (e) => e.chain().focus().toggleBold().run(), active: (e) => e.isActive('bold') },
      { tool: 'italic', label: shared('toolbar.italic'), keys: 'Mod-i', run: (e) => e.chain().focus().toggleItalic().run(), active: (e) => e.isActive('italic') },
      { tool: 'underline', label: shared('toolbar.underline'), keys: 'Mod-u', run: (e) => e.chain().focus().toggleUnderline().run(), active: (e) => e.isActive('underline') },
      { tool: 'strike', label: shared('toolbar.strike'), keys: 'Mod-Shift-s', run: (e) => e.chain().focus().toggleStrike().run(), active: (e) => e.isActive('strike') },
      { tool: 'code', label: shared('toolbar.code'), keys: 'Mod-e', run: (e) => e.chain().focus().toggleCode().run(), active: (e) => e.isActive('code') },
    ],
    scripts: [
      { tool: 'subscript', label: t('toolbar.subscript'), keys: 'Mod-,', run: (e) => e.chain().focus().toggleSubscript().run(), active: (e) => e.isActive('subscript') },
      { tool: 'superscript', label: t('toolbar.superscript'), keys: 'Mod-.', run: (e) => e.chain().focus().toggleSuperscript().run(), active: (e) => e.isActive('superscript') },
      { tool: 'clearFormatting', label: t('toolbar.clearFormatting'), keys: 'Mod-\\', run: clearFormatting },
    ],
    paragraph: [
      ...ALIGNMENTS.map(({ align, tool, keys }): Button => ({
        tool,
        label: t(`toolbar.${tool}`),
        keys,
        run: (e) => e.chain().focus().setTextAlign(align).run(),
        active: (e) => alignmentAt(e) === align,
        applies: (e) => e.can().setTextAlign(align) || alignmentAt(e) === align,
      })),
      { tool: 'outdent', label: t('toolbar.outdent'), keys: 'Mod-[', run: (e) => e.chain().focus().changeIndent(-1).run() },
      { tool: 'indent', label: t('toolbar.indent'), keys: 'Mod-]', run: (e) => e.chain().focus().changeIndent(1).run() },
    ],
    blocks: [
      { tool: 'bulletList', label: shared('toolbar.bulletList'), keys: 'Mod-Shift-8', run: (e) => e.chain().focus().toggleBulletList().run(), active: (e) => e.isActive('bulletList') },
      { tool: 'orderedList', label: shared('toolbar.orderedList'), keys: 'Mod-Shift-7', run: (e) => e.chain().focus().toggleOrderedList().run(), active: (e) => e.isActive('orderedList') },
      { tool: 'taskList', label: shared('toolbar.taskList'), keys: 'Mod-Shift-9', run: (e) => e.chain().focus().toggleTaskList().run(), active: (e) => e.isActive('taskList') },
      { tool: 'blockquote', label: shared('toolbar.blockquote'), keys: 'Mod-Shift-b', run: (e) => e.chain().focus().toggleBlockquote().run(), active: (e) => e.isActive('blockquote') },
      { tool: 'callout', label: t('toolbar.callout'), run: (e) => e.chain().focus().toggleCallout().run(), active: (e) => e.isActive('callout') },
      { tool: 'codeBlock', label: shared('toolbar.codeBlock'), keys: 'Mod-Alt-c', run: (e) => e.chain().focus().toggleCodeBlock().run(), active: (e) => e.isActive('codeBlock') },
      { tool: 'horizontalRule', label: shared('toolbar.horizontalRule'), run: (e) => e.chain().focus().setHorizontalRule().run() },
    ],
    insert: [
      { tool: 'link', label: shared('toolbar.link'), keys: 'Mod-k', run: () => (actions.insertLink(), true), active: (e) => e.isActive('link') },
      { tool: 'unlink', label: t('toolbar.unlink'), run: (e) => e.chain().focus().extendMarkRange('link').unsetLink().run(), applies: (e) => e.isActive('link') },
      { tool: 'image', label: t('toolbar.image'), run: () => (actions.insertImage(), true) },
      { tool: 'date', label: t('toolbar.date'), run: () => (actions.insertDate(), true) },
      { tool: 'pageBreak', label: t('toolbar.pageBreak'), run: (e) => e.chain().focus().setPageBreak().run() },
      { tool: 'footnote', label: t('toolbar.footnote'), keys: 'Mod-Alt-f', run: (e) => e.commands.insertFootnote() },
      { tool: 'table', label: t('toolbar.table'), run: (e) => e.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run() },
      { tool: 'addRow', label: t('toolbar.addRow'), run: (e) => e.chain().focus().addRowAfter().run(), applies: inTable },
      { tool: 'addColumn', label: t('toolbar.addColumn'), run: (e) => e.chain().focus().addColumnAfter().run(), applies: inTable },
      { tool: 'deleteTable', label: t('toolbar.deleteTable'), run: (e) => e.chain().focus().deleteTable().run(), applies: inTable },
    ],
  };
}

function headingLevel(editor: Editor): HeadingLevel | 0 {
  return HEADING_LEVELS.find((level) => editor.isActive('heading', { level })) ?? 0;
}

/** A toolbar drop-down: its first option (value '') is the default, which clears the setting. */
function choice(name: string, label: string, options: ReadonlyArray<{ value: string; text: string; style?: string }>, change: (value: string) => void): HTMLSelectElement {
  const select = document.createElement('select');
  select.className = `svc-tool-style svc-tool-${name}`;
  select.dataset.tool = name;
  select.title = label;
  select.setAttribute('aria-label', label);
  for (const { value, text, style } of options) {
    const option = new Option(text, value);
    if (style) option.style.fontFamily = style;
    select.append(option);
  }
  select.addEventListener('change', () => change(select.value));
  return select;
}

/** The value of a textStyle attribute at the selection, or '' where none is set. */
function textStyleAt(editor: Editor, attribute: string): string {
  const value = editor.getAttributes('textStyle')[attribute];
  return typeof value === 'string' ? value : '';
}

function setTextStyle(editor: Editor, attribute: string, value: string): void {
  const chain = editor.chain().focus();
  if (value) chain.setMark('textStyle', { [attribute]: value }).run();
  else chain.setMark('textStyle', { [attribute]: null }).removeEmptyTextStyle().run();
}

/**
 * The rich-text toolbar in the shell's toolbar row: undo and redo, text style, font, size, marks, colours,
 * paragraph alignment, spacing and indent, blocks, insertions. Every button has an SVG icon and a tooltip naming
 * its shortcut; pressed states (`aria-pressed`), selected values and enabled states follow the selection on every
 * transaction.
 */
export function mountToolbar(editor: Editor, container: HTMLElement, actions: ToolbarActions): void {
  const groups = buttons(actions);
  const rendered: Array<{ element: HTMLButtonElement; button: Button }> = [];
  const group = (...children: Array<HTMLElement | Button>) => {
    const groupElement = document.createElement('div');
    groupElement.className = 'svc-tool-group';
    for (const child of children) {
      if (child instanceof HTMLElement) {
        groupElement.append(child);
        continue;
      }
      const element = toolButton(tooltip(child.label, child.keys), '', () => child.run(editor));
      element.setAttribute('aria-label', child.label);
      if (child.keys) element.setAttribute('aria-keyshortcuts', shortcutText(child.keys).replace(/⌘/g, 'Meta+'));
      element.dataset.tool = child.tool;
      element.append(icon(child.icon ?? child.tool));
      groupElement.append(element);
      rendered.push({ element, button: child });
    }
    container.append(groupElement);
  };

  const style = choice(
    'textStyle',
    t('toolbar.textStyle'),
    [{ value: '0', text: shared('toolbar.paragraph') }, ...HEADING_LEVELS.map((level) => ({ value: String(level), text: shared('toolbar.heading', { level }) }))],
    (value) => {
      const level = Number(value) as HeadingLevel | 0;
      if (level === 0) editor.chain().focus().setParagraph().run();
      else editor.chain().focus().setHeading({ level }).run();
    },
  );
  const font = choice(
    'fontFamily',
    t('toolbar.fontFamily'),
    [{ value: '', text: t('toolbar.fontDefault') }, ...FONT_CHOICES.map((choice) => ({ value: choice.family, text: choice.family, style: fontFamilyCss(choice.family) }))],
    (value) => setTextStyle(editor, 'fontFamily', value),
  );
  const size = choice(
    'fontSize',
    t('toolbar.fontSize'),
    [{ value: '', text: t('toolbar.sizeDefault') }, ...FONT_SIZES_PT.map((points) => ({ value: `${points}pt`, text: String(points) }))],
    (value) => setTextStyle(editor, 'fontSize', value),
  );
  const lineHeight = choice(
    'lineHeight',
    t('toolbar.lineHeight'),
    [{ value: '', text: t('toolbar.lineHeightDefault') }, ...LINE_HEIGHTS.map((value) => ({ value, text: value }))],
    (value) => editor.chain().focus().setLineHeight(value || null).run(),
  );
  const textColor = new ColorMenu({
    tool: 'textColor',
    icon: 'textColor',
    label: t('toolbar.textColor'),
    palette: TEXT_COLORS,
    noneLabel: t('color.automatic'),
    customLabel: t('color.custom'),
    current: () => textStyleAt(editor, 'color') || undefined,
    choose: (color) => setTextStyle(editor, 'color', color ?? ''),
  });
  const highlight = new ColorMenu({
    tool: 'highlight',
    icon: 'highlight',
    label: t('toolbar.highlight'),
    palette: HIGHLIGHT_COLORS,
    noneLabel: t('color.noHighlight'),
    customLabel: t('color.custom'),
    current: () => (editor.isActive('highlight') ? ((editor.getAttributes('highlight').color as string | null) ?? '#ffff00') : undefined),
    choose: (color) => (color ? editor.chain().focus().setHighlight({ color }).run() : editor.chain().focus().unsetHighlight().run()),
  });

  group(...groups.history);
  group(style, font, size);
  group(...groups.marks, textColor.element, highlight.element, ...groups.scripts);
  group(...groups.paragraph.slice(0, 4), lineHeight, ...groups.paragraph.slice(4));
  group(...groups.blocks);
  group(...groups.insert);

  const refresh = () => {
    const editable = editor.isEditable;
    style.value = String(headingLevel(editor));
    font.value = textStyleAt(editor, 'fontFamily');
    size.value = textStyleAt(editor, 'fontSize');
    const spacing = editor.state.selection.$from.parent.attrs.lineHeight;
    lineHeight.value = typeof spacing === 'string' && LINE_HEIGHTS.includes(spacing) ? spacing : '';
    for (const select of [style, font, size, lineHeight]) select.disabled = !editable;
    textColor.refresh(editable);
    highlight.refresh(editable);
    for (const { element, button } of rendered) {
      if (button.active) element.setAttribute('aria-pressed', String(button.active(editor)));
      element.disabled = !editable || (button.applies ? !button.applies(editor) : false);
    }
  };
  editor.on('transaction', refresh);
  editor.on('focus', refresh);
  editor.on('update', refresh);
  refresh();
}
