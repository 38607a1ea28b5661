import type { Editor } from '@tiptap/core';
import type * as Y from 'yjs';
import { boxTypeOf } from '../../src/model/content.js';
import {
  BODY_FONT_SIZE,
  FONT_FAMILIES,
  FONT_SIZES,
  isLineShape,
  SHAPE_KINDS,
  shapeOf,
  SLIDE_LAYOUTS,
  SLIDE_TRANSITIONS,
  textStyleOf,
  THEME_NAMES,
  THEMES,
  themeNameOf,
  transitionOf,
  type SlideLayout,
  type SlideTransition,
  type TextAlign,
} from '../../src/model/slides.js';
import { t as shared } from '../shared/i18n/index.js';
import { toolButton } from '../shared/tool-button.js';
import { BOX_ALIGNMENTS, type BoxAlignment, type BoxOrder, type Deck } from './deck.js';
import { menuButton } from './menu-button.js';
import { layoutIcon } from './stage.js';
import { t } from './messages.js';

/** What the toolbar acts on: the open slide and the selected box, and the editor page's own actions. */
export interface ToolbarTarget {
  deck: Deck;
  slideId(): string | undefined;
  /** the selected box of the open slide */
  box(): Y.Map<unknown> | undefined;
  /** the rich-text editor of the selected box (a text box) */
  editor(): Editor | undefined;
  undo(): void;
  redo(): void;
  addSlide(layout: SlideLayout): void;
  duplicateSlide(): void;
  deleteSlide(): void;
  moveSlide(by: number): void;
  addTextBox(): void;
  /** moves the selected box in the slide's drawing order */
  arrange(to: BoxOrder): void;
  /** groups the selected boxes (true) or takes their groups apart (false) */
  group(together: boolean): void;
  /** how many boxes are selected (Shift+click adds) */
  selectionSize(): number;
  /** aligns or distributes the selected boxes (one box: on the slide) */
  align(how: BoxAlignment): void;
  addImage(): void;
  addShape(kind: (typeof SHAPE_KINDS)[number]): void;
  deleteBox(): void;
  /** whether the selection is one image box the user can crop */
  canCrop(): boolean;
  /** turns on the crop mode of the selected image box */
  crop(): void;
}

const SHAPE_ICONS: Record<(typeof SHAPE_KINDS)[number], string> = { rectangle: '▭', ellipse: '◯', line: '╱', arrow: '→' };
/** Icons drawn as lines on a 16×16 grid (the symbols fonts have for these are missing on many machines). */
const LINE_ICONS = {
  alignLeft: 'M2 3h12M2 6.5h8M2 10h12M2 13.5h8',
  alignCenter: 'M2 3h12M4 6.5h8M2 10h12M4 13.5h8',
  alignRight: 'M2 3h12M6 6.5h8M2 10h12M6 13.5h8',
  duplicate: 'M5 5h9v9H5zM2 11V2h9',
  trash: 'M2 4h12M6 4V2h4v2M4 4l1 10h6l1-10',
  arrange: 'M2 2h8v8H2zM6 6h8v8H6z',
  align: 'M2 1v14M5 4h9v3H5zM5 9h6v3H5z',
  crop: 'M4 1v11h11M1 4h11v11',
} as const;

function lineIcon(button: HTMLButtonElement, icon: keyof typeof LINE_ICONS): HTMLButtonElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', LINE_ICONS[icon]);
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '1.5');
  svg.append(path);
  button.replaceChildren(svg);
  return button;
}

const ALIGN_ICONS: Record<TextAlign, ['alignLeft' | 'alignCenter' | 'alignRight', 'format.alignLeft' | 'format.alignCenter' | 'format.alignRight']> = {
  left: ['alignLeft', 'format.alignLeft'],
  center: ['alignCenter', 'format.alignCenter'],
  right: ['alignRight', 'format.alignRight'],
};

function group(...children: HTMLElement[]): HTMLElement {
  const element = document.createElement('div');
  element.className = 'svc-tool-group';
  element.append(...children);
  return element;
}

function select(label: string, options: Array<[string, string]>, onChange: (value: string) => void): HTMLSelectElement {
  const element = document.createElement('select');
  element.className = 'svc-tool-style';
  element.setAttribute('aria-label', label);
  element.title = label;
  element.append(...options.map(([value, text]) => new Option(text, value)));
  element.addEventListener('change', () => onChange(element.value));
  return element;
}

function colorInput(label: string, onChange: (value: string) => void): HTMLInputElement {
  const element = document.createElement('input');
  element.type = 'color';
  element.className = 'svc-tool-color';
  element.setAttribute('aria-label', label);
  element.title = label;
  element.addEventListener('change', () => onChange(element.value));
  return element;
}

/**
 * The presentation toolbar, in the style of the other editors' (icon buttons in groups, one row): undo, slides
 * (new slide with a layout menu, duplicate, delete, move), the deck's theme, boxes (text, image, shapes, delete),
 * the selected text box's font, size, colour, alignment, bold/italic/underline and lists, the selected shape's
 * fill and outline, the selected image's crop. Font, size, colour and alignment apply to the whole box; marks and lists to the selected
 * text (the whole box when it is not being typed in). Answers the function that brings the controls' states
 * in line with the selection.
 */
export function mountSlideToolbar(container: HTMLElement, target: ToolbarTarget): () => void {
  const { deck } = target;
  const history = group(toolButton(shared('toolbar.undo'), '↶', target.undo), toolButton(shared('toolbar.redo'), '↷', target.redo));

  const newSlide = menuButton(t('slides.add'), t('layout.menu'), `＋ ${t('slides.add')}`, () =>
    SLIDE_LAYOUTS.map((layout) => ({ label: t(`layout.${layout}`), icon: layoutIcon(layout), run: () => target.addSlide(layout) })),
  );
  const slideTools = {
    duplicate: lineIcon(toolButton(t('slides.duplicate'), '', target.duplicateSlide), 'duplicate'),
    remove: lineIcon(toolButton(t('slides.delete'), '', target.deleteSlide), 'trash'),
    up: toolButton(t('slides.moveUp'), '↑', () => target.moveSlide(-1)),
    down: toolButton(t('slides.moveDown'), '↓', () => target.moveSlide(1)),
  };
  const theme = select(
    t('theme.label'),
    THEME_NAMES.map((name) => [name, t(`theme.${name}`)]),
    (value) => deck.setTheme(value as (typeof THEME_NAMES)[number]),
  );
  const transition = select(
    t('transition.label'),
    SLIDE_TRANSITIONS.map((name) => [name, t(`transition.${name}`)]),
    (value) => {
      const slideId = target.slideId();
      if (slideId !== undefined) deck.setTransition(slideId, value as SlideTransition);
    },
  );

  const shapeTools = SHAPE_KINDS.map((kind) => {
    const element = toolButton(t(`shape.${kind}`), SHAPE_ICONS[kind], () => target.addShape(kind));
    element.dataset.tool = kind;
    return element;
  });
  const boxTools = {
    text: toolButton(t('box.addText'), 'T', target.addTextBox),
    image: toolButton(t('box.addImage'), '▣', target.addImage),
    ...Object.fromEntries(shapeTools.map((element, index) => [SHAPE_KINDS[index]!, element])),
    remove: toolButton(t('box.delete'), '✕', target.deleteBox),
  };
  boxTools.text.dataset.tool = 'textBox';
  const ORDERS: readonly BoxOrder[] = ['front', 'forward', 'backward', 'back'];
  // Group and Ungroup are offered when several boxes are selected (a group's boxes are selected together)
  const arrange = menuButton(t('arrange.label'), t('arrange.menu'), '', () => [
    ...ORDERS.map((order) => ({ label: t(`arrange.${order}`), run: () => target.arrange(order) })),
    ...(target.selectionSize() >= 2 ? [{ label: t('arrange.group'), run: () => target.group(true) }, { label: t('arrange.ungroup'), run: () => target.group(false) }] : []),
  ]);
  const arrangeTrigger = lineIcon(arrange.querySelector('button')!, 'arrange');
  // Distribute needs three boxes: offered only then
  const align = menuButton(t('align.label'), t('align.menu'), '', () =>
    BOX_ALIGNMENTS.filter((how) => !how.startsWith('distribute') || target.selectionSize() >= 3).map((how) => ({ label: t(`align.${how}`), run: () => target.align(how) })),
  );
  const alignTrigger = lineIcon(align.querySelector('button')!, 'align');

  const textBox = () => {
    const box = target.box();
    return box && boxTypeOf(box) === 'text' ? box : undefined;
  };
  const font = select(t('format.font'), [['', t('format.fontDefault')], ...FONT_FAMILIES.map((family): [string, string] => [family, family])], (value) => {
    const box = textBox();
    if (box) deck.setTextStyle(box, 'fontFamily', value === '' ? undefined : value);
  });
  const size = select(t('format.size'), FONT_SIZES.map((points): [string, string] => [String(points), String(points)]), (value) => {
    const box = textBox();
    if (box) deck.setTextStyle(box, 'fontSize', Number(value));
  });
  const color = colorInput(t('format.color'), (value) => {
    const box = textBox();
    if (box) deck.setTextStyle(box, 'color', value);
  });
  const aligns = Object.fromEntries(
    (Object.keys(ALIGN_ICONS) as TextAlign[]).map((align) => {
      const [icon, label] = ALIGN_ICONS[align];
      const element = lineIcon(toolButton(t(label), '', () => {
        const box = textBox();
        if (box) deck.setTextStyle(box, 'align', align);
      }), icon);
      element.dataset.tool = `align-${align}`;
      return [align, element];
    }),
  ) as Record<TextAlign, HTMLButtonElement>;
  /** a mark or list command on the selected text, or on all of the box's text when it is not being typed in */
  const onText = (command: (editor: Editor) => void) => () => {
    const editor = target.editor();
    if (!editor) return;
    if (!editor.isFocused) editor.chain().focus().selectAll().run();
    command(editor);
  };
  const marks = {
    bold: toolButton(shared('toolbar.bold'), 'B', onText((editor) => editor.chain().focus().toggleBold().run())),
    italic: toolButton(shared('toolbar.italic'), 'I', onText((editor) => editor.chain().focus().toggleItalic().run())),
    underline: toolButton(shared('toolbar.underline'), 'U', onText((editor) => editor.chain().focus().toggleUnderline().run())),
    bulletList: toolButton(shared('toolbar.bulletList'), '•', onText((editor) => editor.chain().focus().toggleBulletList().run())),
    orderedList: toolButton(shared('toolbar.orderedList'), '1.', onText((editor) => editor.chain().focus().toggleOrderedList().run())),
  };
  for (const [name, element] of Object.entries(marks)) element.dataset.tool = name;

  const shapeBox = () => {
    const box = target.box();
    return box && boxTypeOf(box) === 'shape' ? box : undefined;
  };
  const fill = colorInput(t('shape.fill'), (value) => {
    const box = shapeBox();
    if (box) deck.setShapeColor(box, 'fill', value);
  });
  const outline = colorInput(t('shape.outline'), (value) => {
    const box = shapeBox();
    if (box) deck.setShapeColor(box, 'outline', value);
  });

  const crop = lineIcon(toolButton(t('crop.button'), '', target.crop), 'crop');
  crop.dataset.tool = 'crop';
  crop.hidden = true;

  container.append(
    history,
    group(newSlide, ...Object.values(slideTools)),
    group(theme, transition),
    group(...Object.values(boxTools), arrange, align),
    group(font, size, color, ...Object.values(aligns), ...Object.values(marks)),
    // the look of the selected box: a shape's colours, or a picture's crop
    group(fill, outline, crop),
  );

  return function refresh(): void {
    const slideId = target.slideId();
    const index = slideId === undefined ? -1 : deck.indexOf(slideId);
    slideTools.duplicate.disabled = index < 0;
    slideTools.remove.disabled = index < 0 || deck.length <= 1;
    slideTools.up.disabled = index <= 0;
    slideTools.down.disabled = index < 0 || index >= deck.length - 1;
    for (const element of Object.values(boxTools)) element.disabled = index < 0;
    boxTools.remove.disabled = target.box() === undefined;
    arrangeTrigger.disabled = target.box() === undefined;
    alignTrigger.disabled = target.box() === undefined;
    theme.value = themeNameOf(slideId === undefined ? undefined : deck.slide(slideId));
    transition.value = transitionOf(slideId === undefined ? undefined : deck.slide(slideId));
    transition.disabled = index < 0;

    const text = textBox();
    const style = text ? textStyleOf(text) : {};
    for (const control of [font, size, color, ...Object.values(aligns), ...Object.values(marks)]) control.disabled = !text;
    font.value = style.fontFamily ?? '';
    size.value = String(style.fontSize ?? BODY_FONT_SIZE);
    color.value = style.color ?? THEMES[theme.value as (typeof THEME_NAMES)[number]].text;
    for (const [align, element] of Object.entries(aligns)) element.setAttribute('aria-pressed', String((style.align ?? 'left') === align));
    const editor = text ? target.editor() : undefined;
    for (const [name, element] of Object.entries(marks)) element.setAttribute('aria-pressed', String(editor?.isFocused === true && editor.isActive(name)));

    const shape = shapeBox();
    const look = shape ? shapeOf(shape) : undefined;
    fill.disabled = !look || isLineShape(look.kind);
    outline.disabled = !look;
    fill.value = look?.fill ?? '#ffffff';
    outline.value = look?.outline ?? '#1f2937';
    // the look of the selected box, as PowerPoint's picture tools: a picture's crop in place of a shape's colours
    // (the toolbar keeps its width, one row at 1280 pixels)
    const picture = target.canCrop();
    crop.hidden = !picture;
    fill.hidden = picture;
    outline.hidden = picture;
  };
}
