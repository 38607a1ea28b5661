/** Performance marks of the spreadsheet editor, read by `npm run bench -- spreadsheet` (bench/spreadsheet.ts). */

/** the first frame with the first screen (first-screen.ts) is on screen, before the document is synced */
export const FIRST_SCREEN_MARK = 'svc-spreadsheet-first-screen';
/** the page's collaboration session has the whole document (web/main.ts marks it for every kind of file) */
export const SYNCED_MARK = 'svc-document-synced';
/** the first frame with the editor's grid is on screen */
export const PAINTED_MARK = 'svc-spreadsheet-painted';
/** every formula of the file is computed and the grid shows the results */
export const COMPUTED_MARK = 'svc-spreadsheet-computed';
