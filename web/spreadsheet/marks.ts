/** Performance marks of the spreadsheet editor, read by `npm run bench -- spreadsheet` (bench/spreadsheet.ts). */

/** the first frame with the grid is on screen */
export const PAINTED_MARK = 'svc-spreadsheet-painted';
/** every formula of the file is computed and the grid shows the results */
export const COMPUTED_MARK = 'svc-spreadsheet-computed';
