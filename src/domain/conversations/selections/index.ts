import type { TSchema } from '@sinclair/typebox';
import type { ContentService } from '../../content/content-service.js';
import { FILE_TYPES, type FileType } from '../../../model/file-types.js';
import type { TableService } from '../../tables/table-service.js';
import { documentSelections } from './document.js';
import { presentationSelections } from './presentation.js';
import type { SelectionModule } from './selection-module.js';
import { spreadsheetSelections } from './spreadsheet.js';
import { tableSelections } from './table.js';

export type { AnchoredSelection, ResolvedSelection, SelectionContext, SelectionModule } from './selection-module.js';
export { damagedSelection } from './shared.js';
export type { ResolvedDocumentSelection } from './document.js';
export type { ResolvedPresentationSelection } from './presentation.js';
export type { ResolvedSpreadsheetSelection } from './spreadsheet.js';
export type { ResolvedTableSelection } from './table.js';

/** The selection modules, found by the file type a comment is made on or by the name stored with a thread. */
export interface SelectionModules {
  forFileType(type: FileType): SelectionModule;
  /** the module that anchored a stored thread (`comment_threads.selection_kind`); undefined for a name no module has */
  byName(name: string): SelectionModule | undefined;
  /** every module's input schema, for the route's `Type.Union` (and its OpenAPI documentation) */
  readonly schemas: readonly TSchema[];
}

export function createSelectionModules(deps: { content: ContentService; tables: TableService }): SelectionModules {
  const modules = [documentSelections(deps.content), spreadsheetSelections(deps.content), presentationSelections(deps.content), tableSelections(deps.tables)];
  const byType = new Map<FileType, SelectionModule>();
  for (const module of modules) {
    for (const type of module.fileTypes) {
      if (byType.has(type)) throw new Error(`file type ${type} has two selection modules`);
      byType.set(type, module);
    }
  }
  // Every file type can be commented on: a type without a module is a gap to close here, not at the first comment.
  const missing = FILE_TYPES.filter((type) => !byType.has(type));
  if (missing.length > 0) throw new Error(`no selection module for file type ${missing.join(', ')}`);
  const byName = new Map(modules.map((module) => [module.name, module]));
  return {
    forFileType: (type) => byType.get(type)!,
    byName: (name) => byName.get(name),
    schemas: modules.map((module) => module.schema),
  };
}
