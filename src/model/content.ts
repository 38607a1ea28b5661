import * as Y from 'yjs';
import type { FileType } from './file-types.js';
import type { CellStyle } from './sheets/cell-style.js';

/**
 * The Yjs model of every file kind, as docs/CONTENT-MODEL.md describes it for editors. Everything that
 * reads or writes content goes through these names, so the model is defined once.
 */

/** File kinds whose content lives in the content engine (a table file's data lives in the table API). */
export const CONTENT_KINDS = ['document', 'documentPro', 'spreadsheet', 'presentation'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export function isContentKind(type: FileType | string): type is ContentKind {
  return (CONTENT_KINDS as readonly string[]).includes(type);
}

/** Root XmlFragment of document and documentPro: the field Tiptap's Collaboration extension binds by default. */
export const RICH_TEXT_ROOT = 'default';
/** Root Y.Array of a spreadsheet's sheets, in sheet order. */
export const SHEETS_ROOT = 'sheets';
/** Root Y.Array of a presentation's slides, in slide order. */
export const SLIDES_ROOT = 'slides';

/** One spreadsheet cell: `v` a value, or `f` a formula's text (starting with "="; its value is computed, never stored). Plain JSON. */
export interface Cell {
  v?: string | number | boolean | null;
  f?: string;
  /** number format code (`#,##0.00`, `yyyy-mm-dd`; src/model/sheets/number-format.ts); absent: General */
  z?: string;
  /** style: bold, italic, text and fill colour, alignment (src/model/sheets/cell-style.ts); absent: the default look */
  s?: CellStyle;
  /** an image shown in the cell: the guid of an image attachment of the file (docs/SHEETS.md "Images in cells"); absent: none */
  img?: string;
}

/**
 * A row or column insertion or deletion on a sheet, as kept in the sheet's `structureEdits` log (oldest
 * first). Anything placed on the grid by position and not stored in the cells (comment anchors) replays the
 * edits made since it was placed to find where it is now. Plain JSON.
 */
export interface SheetStructureEdit {
  kind: 'insert' | 'delete';
  axis: 'rows' | 'columns';
  /** zero-based: rows or columns inserted before it, or deleted from it on */
  index: number;
  count: number;
}

/** Key of a sheet's Y.Array of SheetStructureEdit. */
const STRUCTURE_EDITS = 'structureEdits';

/** Appends `edit` to the sheet's log; every code that inserts or deletes rows or columns calls it in the same transaction. */
export function recordStructureEdit(sheet: Y.Map<unknown>, edit: SheetStructureEdit): void {
  let log = sheet.get(STRUCTURE_EDITS);
  // Sheets made before the log existed get one at their first edit.
  if (!(log instanceof Y.Array)) sheet.set(STRUCTURE_EDITS, (log = new Y.Array<SheetStructureEdit>()));
  (log as Y.Array<SheetStructureEdit>).push([{ kind: edit.kind, axis: edit.axis, index: edit.index, count: edit.count }]);
}

function isStructureEdit(value: unknown): value is SheetStructureEdit {
  if (typeof value !== 'object' || value === null) return false;
  const edit = value as Record<string, unknown>;
  return (
    (edit.kind === 'insert' || edit.kind === 'delete') &&
    (edit.axis === 'rows' || edit.axis === 'columns') &&
    Number.isInteger(edit.index) &&
    (edit.index as number) >= 0 &&
    Number.isInteger(edit.count) &&
    (edit.count as number) > 0
  );
}

/** The sheet's structure edits, oldest first (entries that are not edits are skipped). */
export function structureEditsOf(sheet: Y.Map<unknown>): SheetStructureEdit[] {
  const log = sheet.get(STRUCTURE_EDITS);
  return log instanceof Y.Array ? log.toArray().filter(isStructureEdit) : [];
}

export const DEFAULT_SHEET_NAME = 'Sheet1';
export const DEFAULT_ROW_COUNT = 1000;
export const DEFAULT_COLUMN_COUNT = 26;

export function richTextOf(doc: Y.Doc): Y.XmlFragment {
  return doc.getXmlFragment(RICH_TEXT_ROOT);
}

export function sheetsOf(doc: Y.Doc): Y.Array<Y.Map<unknown>> {
  return doc.getArray<Y.Map<unknown>>(SHEETS_ROOT);
}

export function slidesOf(doc: Y.Doc): Y.Array<Y.Map<unknown>> {
  return doc.getArray<Y.Map<unknown>>(SLIDES_ROOT);
}

/** The slides in order, leaving out entries that are not maps (a broken client may have written anything). */
export function slideMaps(doc: Y.Doc): Array<Y.Map<unknown>> {
  return slidesOf(doc)
    .toArray()
    .filter((slide: unknown): slide is Y.Map<unknown> => slide instanceof Y.Map);
}

/** A new, empty sheet (integrate it into the document before reading it back). */
export function newSheet(name: string, id: string = crypto.randomUUID()): Y.Map<unknown> {
  const sheet = new Y.Map<unknown>();
  sheet.set('id', id);
  sheet.set('name', name);
  sheet.set('rowCount', DEFAULT_ROW_COUNT);
  sheet.set('columnCount', DEFAULT_COLUMN_COUNT);
  sheet.set('cells', new Y.Map<Cell>());
  sheet.set(STRUCTURE_EDITS, new Y.Array<SheetStructureEdit>());
  return sheet;
}

/** A new, empty slide: `id` and its ordered text `boxes`. */
export function newSlide(id: string = crypto.randomUUID()): Y.Map<unknown> {
  const slide = new Y.Map<unknown>();
  slide.set('id', id);
  slide.set('boxes', new Y.Array<Y.Map<unknown>>());
  return slide;
}

/** The slide's size in points: a 16:9 stage; box positions and sizes are in the same points. */
export const SLIDE_WIDTH = 960;
export const SLIDE_HEIGHT = 540;

/** What a box of a slide holds: rich text (`content`) or an image (`src`, `alt`). A box without `type` is a text box. */
export const BOX_TYPES = ['text', 'image'] as const;
export type BoxType = (typeof BOX_TYPES)[number];

/** A box's position and size in points, from the slide's top left. */
export interface BoxFrame {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function boxTypeOf(box: Y.Map<unknown>): BoxType {
  return box.get('type') === 'image' ? 'image' : 'text';
}

function newBox(type: BoxType, frame: BoxFrame, id: string): Y.Map<unknown> {
  const box = new Y.Map<unknown>();
  box.set('id', id);
  box.set('type', type);
  box.set('x', frame.x);
  box.set('y', frame.y);
  box.set('width', frame.width);
  box.set('height', frame.height);
  return box;
}

/** A text box of a slide: position and size in points, rich text in `content` (same nodes as documents). */
export function newTextBox(frame: BoxFrame, id: string = crypto.randomUUID()): Y.Map<unknown> {
  const box = newBox('text', frame, id);
  box.set('content', new Y.XmlFragment());
  return box;
}

/**
 * An image box: `src` is the credential-free attachment path `/sdk/v2/attachments/{guid}` (docs/ATTACHMENTS.md),
 * `alt` its text alternative. Images have no plain text.
 */
export function newImageBox(frame: BoxFrame, image: { src: string; alt: string }, id: string = crypto.randomUUID()): Y.Map<unknown> {
  const box = newBox('image', frame, id);
  box.set('src', image.src);
  box.set('alt', image.alt);
  return box;
}

/** The content a new file of `kind` starts with, as one Yjs update. */
export function initialContent(kind: ContentKind): Uint8Array {
  const doc = new Y.Doc();
  doc.transact(() => {
    if (kind === 'spreadsheet') sheetsOf(doc).push([newSheet(DEFAULT_SHEET_NAME)]);
    else if (kind === 'presentation') slidesOf(doc).push([newSlide()]);
    // documents start empty: editors create their first paragraph themselves
  });
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}

/** The root shared types of `kind`; restore and copy replace exactly these. */
export function rootsOf(doc: Y.Doc, kind: ContentKind): Array<Y.XmlFragment | Y.Array<Y.Map<unknown>>> {
  switch (kind) {
    case 'document':
    case 'documentPro':
      return [richTextOf(doc)];
    case 'spreadsheet':
      return [sheetsOf(doc)];
    case 'presentation':
      return [slidesOf(doc)];
  }
}

/**
 * Makes `target`'s content equal to `source`'s, as an ordinary change of `target` (so it merges with
 * concurrent edits and collaborators see it live): each root is emptied and refilled with deep copies.
 * Call inside a transaction of `target`.
 */
export function replaceContent(target: Y.Doc, source: Y.Doc, kind: ContentKind): void {
  const targets = rootsOf(target, kind);
  const sources = rootsOf(source, kind);
  targets.forEach((root, index) => {
    const from = sources[index]!;
    if (root.length > 0) root.delete(0, root.length);
    if (root instanceof Y.XmlFragment && from instanceof Y.XmlFragment) {
      root.insert(0, from.toArray().flatMap((node) => (node instanceof Y.XmlHook ? [] : [node.clone()])));
    } else if (root instanceof Y.Array && from instanceof Y.Array) {
      root.insert(0, from.toArray().map((item) => item.clone()));
    }
  });
}

/** A document built from one encoded state (a snapshot or a merged update). */
export function docFromState(state: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc;
}
