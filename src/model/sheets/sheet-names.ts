/**
 * Sheet names, checked the same way by the values API and the spreadsheet editor (this module has no Node
 * imports, so the browser bundles it).
 */

/** Sheet names: 1-100 characters, none of : \\ / ? * [ ], no control characters, not starting or ending with '. */
export const MAX_SHEET_NAME = 100;

/** Why a sheet name cannot be used; undefined when it can. */
export function invalidSheetName(name: string): string | undefined {
  if (name.trim() === '') return 'a sheet name cannot be empty';
  if ([...name].length > MAX_SHEET_NAME) return `a sheet name is at most ${MAX_SHEET_NAME} characters`;
  if (/[\x00-\x1f\x7f]/.test(name)) return 'a sheet name cannot contain control characters';
  if (/[:\\/?*[\]]/.test(name)) return 'a sheet name cannot contain : \\ / ? * [ or ]';
  if (name.startsWith("'") || name.endsWith("'")) return "a sheet name cannot start or end with '";
  if (name !== name.trim()) return 'a sheet name cannot start or end with white space';
  return undefined;
}
