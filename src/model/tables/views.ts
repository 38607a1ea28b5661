/**
 * Saved views of a table (docs/TABLE-API.md "Views"): one definition of what a view is, read by the table
 * service (which validates and stores it) and by the table editor (which draws it). A view is a kind and the
 * settings of that kind; every setting names columns by guid, so renaming a column keeps its views.
 *
 * **Decision: views are shared by everyone who opens the base** (as the well-known table products do): a view
 * is part of the table, not a personal preference. The first view is the table's default grid view; it can be
 * renamed and set up but not deleted, and a view's kind is fixed when it is created.
 */

export const VIEW_KINDS = ['grid', 'kanban', 'gallery', 'form'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

/** Views a table holds at most. */
export const MAX_VIEWS_PER_TABLE = 50;
/** Sort levels of a grid view at most. */
export const MAX_SORT_LEVELS = 5;
export const MAX_VIEW_NAME = 100;
export const MAX_FORM_TITLE = 200;
export const MAX_FORM_DESCRIPTION = 2000;

export interface SortLevel {
  columnGuid: string;
  descending: boolean;
}

export interface GridSettings {
  /** columns left out of the grid */
  hiddenColumns: string[];
  /** columns shown first, in this order; the others follow in table order */
  columnOrder: string[];
  /** applied first to last; ties keep creation order */
  sort: SortLevel[];
  /** rows are shown in groups of equal values of this column, or not grouped */
  groupBy: string | null;
}

export interface KanbanSettings {
  /** a SingleChoice column: one kanban column per option, plus "No value" */
  groupBy: string | null;
  /** columns shown on a card below its primary value */
  cardFields: string[];
}

export interface GallerySettings {
  /** the card's cover: the first image of an Attachment column, or the image address in a SingleLineText column */
  cover: string | null;
  cardFields: string[];
}

export interface FormSettings {
  /** the columns the form asks for, in order */
  fields: string[];
  title: string;
  description: string;
}

export interface ViewSettingsOf {
  grid: GridSettings;
  kanban: KanbanSettings;
  gallery: GallerySettings;
  form: FormSettings;
}

export type ViewSettings = ViewSettingsOf[ViewKind];

/** A view as the table API answers it. */
export type TableView = {
  [K in ViewKind]: { viewGuid: string; name: string; isDefault: boolean; kind: K; settings: ViewSettingsOf[K] };
}[ViewKind];

/** The part of a column a view's settings depend on. */
export interface ViewColumn {
  guid: string;
  type: string;
}

/** Settings that break a rule; the message names the offending setting. */
export class ViewRuleError extends Error {}

export function isViewKind(value: unknown): value is ViewKind {
  return typeof value === 'string' && (VIEW_KINDS as readonly string[]).includes(value);
}

/** The type a kanban view groups by. */
export const KANBAN_GROUP_TYPE = 'SingleChoice';
/**
 * Types a gallery cover comes from. Attachment cells are filled by the editors' uploads; a SingleLineText column
 * holding image addresses serves bases whose pictures live elsewhere (the API cannot create Attachment columns).
 */
const GALLERY_COVER_TYPES: ReadonlySet<string> = new Set(['Attachment', 'SingleLineText']);

export function coverAccepts(type: string): boolean {
  return GALLERY_COVER_TYPES.has(type);
}
/** Column types a form cannot ask for: the service sets their values. */
const FORM_EXCLUDED_TYPES: ReadonlySet<string> = new Set(['AutoNumber', 'Attachment']);

/** Whether a form view may ask for a column of this type. */
export function formAccepts(type: string): boolean {
  return !FORM_EXCLUDED_TYPES.has(type);
}

/**
 * Reads settings sent for a view of `kind` (absent keys take their defaults) against the table's columns.
 * `strict` (a write): a setting naming an unknown column, a column of the wrong type, a repeated column or a
 * malformed value throws ViewRuleError. Not strict (a read of stored settings): what a later column change
 * made stale is dropped instead, so a view never names a deleted column or groups by a column that changed type.
 */
export function readViewSettings<K extends ViewKind>(kind: K, raw: unknown, columns: readonly ViewColumn[], strict: boolean): ViewSettingsOf[K] {
  const source = raw ?? {};
  if (typeof source !== 'object' || Array.isArray(source)) throw new ViewRuleError('settings must be an object');
  const reader = new SettingsReader(source as Record<string, unknown>, columns, strict);
  const settings: { [J in ViewKind]: () => ViewSettingsOf[J] } = {
    grid: () => ({
      hiddenColumns: reader.columnList('hiddenColumns', () => true),
      columnOrder: reader.columnList('columnOrder', () => true),
      sort: reader.sortLevels('sort'),
      groupBy: reader.column('groupBy', () => true, 'any column'),
    }),
    kanban: () => ({
      groupBy: reader.column('groupBy', (type) => type === KANBAN_GROUP_TYPE, `a ${KANBAN_GROUP_TYPE} column`),
      cardFields: reader.columnList('cardFields', () => true),
    }),
    gallery: () => ({
      cover: reader.column('cover', coverAccepts, 'an Attachment or SingleLineText column'),
      cardFields: reader.columnList('cardFields', () => true),
    }),
    form: () => ({
      fields: reader.columnList('fields', formAccepts),
      title: reader.text('title', MAX_FORM_TITLE),
      description: reader.text('description', MAX_FORM_DESCRIPTION),
    }),
  };
  return settings[kind]();
}

/** Settings of a new view of `kind` when the caller sends none: what a person expects to see at once. */
export function defaultViewSettings<K extends ViewKind>(kind: K, columns: readonly ViewColumn[]): ViewSettingsOf[K] {
  const firstOf = (type: string) => columns.find((column) => column.type === type)?.guid ?? null;
  const others = (skip: (type: string) => boolean) => columns.slice(1).filter((column) => !skip(column.type)).map((column) => column.guid);
  const defaults: { [J in ViewKind]: () => ViewSettingsOf[J] } = {
    grid: () => ({ hiddenColumns: [], columnOrder: [], sort: [], groupBy: null }),
    kanban: () => ({ groupBy: firstOf(KANBAN_GROUP_TYPE), cardFields: others((type) => type === KANBAN_GROUP_TYPE).slice(0, 3) }),
    gallery: () => ({ cover: firstOf('Attachment'), cardFields: others(() => false).slice(0, 3) }),
    form: () => ({ fields: columns.filter((column) => formAccepts(column.type)).map((column) => column.guid), title: '', description: '' }),
  };
  return defaults[kind]();
}

/** A view object from its parts (the kind and its settings stay paired). */
export function tableView<K extends ViewKind>(view: { viewGuid: string; name: string; isDefault: boolean }, kind: K, settings: ViewSettingsOf[K]): TableView {
  return { ...view, kind, settings } as TableView;
}

class SettingsReader {
  private readonly types: ReadonlyMap<string, string>;

  constructor(
    private readonly source: Record<string, unknown>,
    columns: readonly ViewColumn[],
    private readonly strict: boolean,
  ) {
    this.types = new Map(columns.map((column) => [column.guid, column.type]));
  }

  private fail(message: string): never {
    throw new ViewRuleError(message);
  }

  /** One column guid or null; `accepts` says which column types fit. */
  column(key: string, accepts: (type: string) => boolean, wanted: string): string | null {
    const value = this.source[key];
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string') return this.strict ? this.fail(`settings.${key} must be a column guid or null`) : null;
    const type = this.types.get(value);
    if (type === undefined) return this.strict ? this.fail(`settings.${key}: ${value} is not a column of the table`) : null;
    if (!accepts(type)) return this.strict ? this.fail(`settings.${key}: column ${value} is a ${type}; it must be ${wanted}`) : null;
    return value;
  }

  /** A list of distinct column guids. */
  columnList(key: string, accepts: (type: string) => boolean): string[] {
    const value = this.source[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return this.strict ? this.fail(`settings.${key} must be an array of column guids`) : [];
    const kept: string[] = [];
    for (const [index, guid] of value.entries()) {
      const type = typeof guid === 'string' ? this.types.get(guid) : undefined;
      if (type === undefined || !accepts(type) || kept.includes(guid as string)) {
        if (!this.strict) continue;
        if (typeof guid !== 'string') this.fail(`settings.${key}[${index}] must be a column guid`);
        if (type === undefined) this.fail(`settings.${key}[${index}]: ${guid} is not a column of the table`);
        if (!accepts(type)) this.fail(`settings.${key}[${index}]: a ${type} column cannot be used here`);
        this.fail(`settings.${key}[${index}]: column ${guid} is named twice`);
      }
      kept.push(guid as string);
    }
    return kept;
  }

  sortLevels(key: string): SortLevel[] {
    const value = this.source[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return this.strict ? this.fail(`settings.${key} must be an array of {columnGuid, descending}`) : [];
    if (this.strict && value.length > MAX_SORT_LEVELS) this.fail(`settings.${key}: at most ${MAX_SORT_LEVELS} sort levels`);
    const levels: SortLevel[] = [];
    for (const [index, level] of value.entries()) {
      const record = typeof level === 'object' && level !== null ? (level as Record<string, unknown>) : {};
      const columnGuid = record.columnGuid;
      const descending = record.descending ?? false;
      const known = typeof columnGuid === 'string' && this.types.has(columnGuid);
      const repeated = levels.some((kept) => kept.columnGuid === columnGuid);
      if (!known || typeof descending !== 'boolean' || repeated) {
        if (!this.strict) continue;
        if (!known) this.fail(`settings.${key}[${index}].columnGuid must be a column of the table`);
        if (typeof descending !== 'boolean') this.fail(`settings.${key}[${index}].descending must be a boolean`);
        this.fail(`settings.${key}[${index}]: column ${String(columnGuid)} is sorted twice`);
      }
      levels.push({ columnGuid: columnGuid as string, descending: descending as boolean });
    }
    return levels.slice(0, MAX_SORT_LEVELS);
  }

  text(key: string, max: number): string {
    const value = this.source[key];
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') return this.strict ? this.fail(`settings.${key} must be text`) : '';
    if (value.length > max) return this.strict ? this.fail(`settings.${key}: at most ${max} characters`) : value.slice(0, max);
    return value;
  }
}
