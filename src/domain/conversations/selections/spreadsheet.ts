import { Type } from '@sinclair/typebox';
import type * as Y from 'yjs';
import type { ContentService } from '../../content/content-service.js';
import type { SheetStructureEdit } from '../../../model/content.js';
import { sheetModels, type SheetModel } from '../../../model/sheets/sheet-model.js';
import { A1SyntaxError, columnLetters, formatA1, parseA1, type A1Range } from '../../../model/sheets/a1.js';
import { shiftRange } from '../../../model/sheets/formulas/index.js';
import type { ResolvedSelection, SelectionModule } from './selection-module.js';
import { damagedSelection, defineSelectionModule, selectionNotFound, withContent } from './shared.js';

const Range = Type.String({ minLength: 1, maxLength: 64, description: 'cells in A1 notation without the sheet name: one cell (`B2`) or a rectangle (`B2:C4`), inside the sheet' });

export const SpreadsheetSelectionSchema = Type.Union(
  [
    Type.Object({ sheetId: Type.String({ minLength: 1, maxLength: 128, description: 'the sheet\'s stable id' }), range: Range }, { additionalProperties: false }),
    Type.Object({ sheet: Type.String({ minLength: 1, maxLength: 128, description: 'the sheet\'s current name' }), range: Range }, { additionalProperties: false }),
  ],
  { title: 'SpreadsheetSelection', description: 'spreadsheet: cells of one sheet, the sheet named by id or by name (kept by id: renaming the sheet keeps its comments)' },
);

const SpreadsheetAnchor = Type.Object({
  sheetId: Type.String(),
  /** the range when anchored */
  range: Type.String(),
  /** how many structure edits the sheet's log held then: the ones after it move the range (absent: anchored before the log) */
  edits: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** What a spreadsheet selection answers when listed. */
export interface ResolvedSpreadsheetSelection extends ResolvedSelection {
  sheetId: string;
  /** the sheet's name now; null once the sheet was deleted */
  sheet: string | null;
  range: string;
}

interface SheetFacts {
  id: string;
  name: string;
  rowCount: number;
  columnCount: number;
  /** the sheet's row and column insertions and deletions, oldest first */
  edits: SheetStructureEdit[];
}

function factsOf(sheet: SheetModel): SheetFacts {
  return { id: sheet.id, name: sheet.name, rowCount: sheet.rowCount, columnCount: sheet.columnCount, edits: sheet.structureEdits() };
}

function sheetsIn(doc: Y.Doc): SheetFacts[] {
  return sheetModels(doc).map(factsOf);
}

/** The range, normalised, when it is one cell or a rectangle inside the sheet's grid. */
function cellsIn(text: string, sheet: SheetFacts): string {
  let range: A1Range;
  try {
    range = parseA1(text);
  } catch (error) {
    if (error instanceof A1SyntaxError) throw selectionNotFound(`selection.range: ${error.message}`);
    throw error;
  }
  if (range.sheetName !== null) throw selectionNotFound(`selection.range "${text}" must be cells without a sheet name (B2 or B2:C4): name the sheet in selection.sheetId or selection.sheet`);
  if (range.endRow >= sheet.rowCount || range.endColumn >= sheet.columnCount) {
    const grid = `A1:${columnLetters(sheet.columnCount - 1)}${sheet.rowCount}`;
    throw selectionNotFound(`selection.range "${text}" is not inside sheet "${sheet.name}" (${grid}): give one cell (B2) or a rectangle of cells (B2:C4) of its grid`);
  }
  return formatA1(range);
}

/**
 * Where the anchored range is now: the sheet's structure edits made since anchoring move it as they move the
 * cells (rows inserted above push it down, rows deleted inside shrink it); undefined once all its rows or
 * columns were deleted.
 */
function rangeNow(anchored: A1Range, sheet: SheetFacts, editsBefore: number): A1Range | undefined {
  let range: A1Range | undefined = anchored;
  for (const edit of sheet.edits.slice(editsBefore)) {
    range = shiftRange(range, edit);
    if (!range) return undefined;
  }
  return range;
}

function storedRange(text: string): A1Range | undefined {
  try {
    return parseA1(text);
  } catch (error) {
    if (error instanceof A1SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Comments on cells of a spreadsheet: anchored by the sheet's id, so renaming a sheet keeps them, and by the
 * count of the sheet's structure edits, so that rows and columns inserted or deleted later move them.
 */
export function spreadsheetSelections(content: ContentService): SelectionModule {
  return defineSelectionModule({
    name: 'spreadsheet',
    fileTypes: ['spreadsheet'],
    schema: SpreadsheetSelectionSchema,
    expected: '{sheetId, range} or {sheet, range} (range in A1 notation without the sheet name, e.g. B2 or B2:C4)',
    anchorSchema: SpreadsheetAnchor,
    anchor: (context, input) =>
      withContent(content, context, (doc) => {
        const sheets = sheetsIn(doc);
        const sheet = 'sheetId' in input ? sheets.find((candidate) => candidate.id === input.sheetId) : sheets.find((candidate) => candidate.name === input.sheet);
        if (!sheet) {
          const names = sheets.map((candidate) => `"${candidate.name}"`).join(', ');
          throw selectionNotFound('sheetId' in input ? `no sheet with id "${input.sheetId}" in this spreadsheet` : `no sheet named "${input.sheet}" in this spreadsheet (its sheets: ${names})`);
        }
        return { anchor: { sheetId: sheet.id, range: cellsIn(input.range, sheet), edits: sheet.edits.length }, title: sheet.id };
      }),
    resolve: async (context, anchors) => {
      if (anchors.length === 0) return [];
      const sheets = await withContent(content, context, (doc) => new Map(sheetsIn(doc).map((sheet) => [sheet.id, sheet])));
      return anchors.map((anchor): ResolvedSpreadsheetSelection | ResolvedSelection => {
        const anchored = storedRange(anchor.range);
        if (!anchored) return damagedSelection('spreadsheet');
        const sheet = sheets.get(anchor.sheetId);
        if (!sheet) return { sheetId: anchor.sheetId, sheet: null, range: anchor.range, detached: true };
        const now = rangeNow(anchored, sheet, anchor.edits ?? 0);
        // Every commented row or column deleted: detached, at the range it was anchored to.
        if (!now) return { sheetId: anchor.sheetId, sheet: sheet.name, range: anchor.range, detached: true };
        return { sheetId: anchor.sheetId, sheet: sheet.name, range: formatA1(now), detached: false };
      });
    },
  });
}
