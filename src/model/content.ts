import * as Y from 'yjs';
import type { FileType } from './file-types.js';
import type { CellStyle } from './sheets/cell-style.js';
import { AXIS_CHARACTER } from './sheets/axis.js';
import { newSlide } from './slides.js';
import { pageSetupOf } from './rich-text/page-setup.js';

// the presentation's slides and boxes are defined in slides.ts; these names stay importable from here
export { BOX_TYPES, boxTypeOf, newImageBox, newSlide, newTextBox, SLIDE_HEIGHT, SLIDE_WIDTH, type BoxFrame, type BoxType } from './slides.js';

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

/** Kinds whose text takes suggestions (track changes): there a user who may comment but not edit may suggest. */
export const SUGGESTIBLE_KINDS: readonly ContentKind[] = ['document', 'documentPro'];

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
export function newSheet(name: string, id: string = crypto.randomUUID(), rows: number = DEFAULT_ROW_COUNT, columns: number = DEFAULT_COLUMN_COUNT): Y.Map<unknown> {
  const sheet = new Y.Map<unknown>();
  sheet.set('id', id);
  sheet.set('name', name);
  // the grid model (src/model/sheets/sheet-model.ts): one character per row and column, whose Yjs ids are their stable ids
  sheet.set(SHEET_MODEL_FIELD, SHEET_MODEL_VERSION);
  sheet.set(SHEET_ROWS, new Y.Text(AXIS_CHARACTER.repeat(rows)));
  sheet.set(SHEET_COLUMNS, new Y.Text(AXIS_CHARACTER.repeat(columns)));
  sheet.set(SHEET_GRID, new Y.Map<Cell | null>());
  sheet.set(SHEET_BLOCKS, new Y.Map<string>());
  sheet.set(STRUCTURE_EDITS, new Y.Array<SheetStructureEdit>());
  return sheet;
}

/**
 * The spreadsheet grid model's version, stored in each sheet's `model` field. 1 (no field): cells keyed by
 * position in a `cells` map, a `rowCount` and `columnCount`; 2: rows and columns as Yjs sequences whose item ids
 * are their stable ids, cells keyed by those ids in `grid` (one entry per cell) and `blocks` (runs of imported
 * cells); 3: as 2, formulas stored relative to their cell (sheets/formulas/relative.ts), so that inserting or
 * deleting rows and columns rewrites only formulas whose references cross the edit; 4: as 3, a block may keep its
 * cells' distinct styles once, the cells naming theirs by index (a page of version 3 would read such a block as
 * empty). docs/CONTENT-MODEL.md "spreadsheet"; upgradeSpreadsheet (sheets/sheet-model.ts) converts 1, 2 and 3 to 4.
 */
export const SHEET_MODEL_VERSION = 4;
export const SHEET_MODEL_FIELD = 'model';
export const SHEET_ROWS = 'rows';
export const SHEET_COLUMNS = 'columns';
export const SHEET_GRID = 'grid';
export const SHEET_BLOCKS = 'blocks';

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

/** A root shared type of a file kind: the text, the sheets or slides, or a map of file settings (documentPro's page setup). */
export type ContentRoot = Y.XmlFragment | Y.Array<Y.Map<unknown>> | Y.Map<unknown>;

/**
 * The root shared types of `kind`: everything a version of the file is. Restoring a revision replaces exactly
 * these (a copy takes the whole document). Bookkeeping kept beside them is left out on purpose: the spreadsheet
 * API's applied append requests (`svc:appendRequests`) stay as they are, so a retry after a restore still
 * answers its first result instead of appending again.
 */
export function rootsOf(doc: Y.Doc, kind: ContentKind): ContentRoot[] {
  switch (kind) {
    case 'document':
      return [richTextOf(doc)];
    case 'documentPro':
      return [richTextOf(doc), pageSetupOf(doc)];
    case 'spreadsheet':
      return [sheetsOf(doc)];
    case 'presentation':
      return [slidesOf(doc)];
  }
}

/** A value to store in another document: Yjs types are copied (a type belongs to one document), plain JSON as is. */
function portable(value: unknown): unknown {
  return value instanceof Y.AbstractType ? value.clone() : value;
}

/** Makes map `target` hold `source`'s entries: keys `source` lacks are deleted, plain values already equal are left alone. */
function replaceEntries(target: Y.Map<unknown>, source: Y.Map<unknown>): void {
  for (const key of [...target.keys()]) if (!source.has(key)) target.delete(key);
  source.forEach((value, key) => {
    const current = target.get(key);
    const same = !(value instanceof Y.AbstractType) && !(current instanceof Y.AbstractType) && target.has(key) && JSON.stringify(current) === JSON.stringify(value);
    if (!same) target.set(key, portable(value));
  });
}

/**
 * Makes `target`'s content equal to `source`'s, as an ordinary change of `target` (so it merges with
 * concurrent edits and collaborators see it live): each sequence root is emptied and refilled with deep copies,
 * each map root gets the source's entries. Call inside a transaction of `target`.
 */
export function replaceContent(target: Y.Doc, source: Y.Doc, kind: ContentKind): void {
  const targets = rootsOf(target, kind);
  const sources = rootsOf(source, kind);
  targets.forEach((root, index) => {
    const from = sources[index]!;
    if (root instanceof Y.Map) {
      if (from instanceof Y.Map) replaceEntries(root, from);
      return;
    }
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
