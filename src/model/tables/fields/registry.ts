import { attachment } from './attachment.js';
import { autoNumber } from './auto-number.js';
import { cascade } from './cascade.js';
import { checkBox } from './checkbox.js';
import { date } from './date.js';
import type { FieldType } from './field-type.js';
import { link } from './link.js';
import { longText } from './long-text.js';
import { multipleChoice } from './multiple-choice.js';
import { number } from './number.js';
import { percent } from './percent.js';
import { rate } from './rate.js';
import { singleChoice } from './single-choice.js';
import { singleLineText } from './single-line-text.js';

/** Every column type the service knows, by its API name. */
export const FIELD_TYPES: ReadonlyMap<string, FieldType> = new Map(
  [singleLineText, longText, number, percent, date, singleChoice, multipleChoice, checkBox, rate, link, cascade, autoNumber, attachment].map(
    (type) => [type.name, type],
  ),
);

/** AutoNumber may only start a table (spec 2.5, 4.4 rule 1); it cannot be added later or converted to. */
export const AUTO_NUMBER = autoNumber.name;

/** Types a caller may give a column (create table, create column, update column), AutoNumber aside. */
export const CREATABLE_TYPES: readonly string[] = [...FIELD_TYPES.values()]
  .filter((type) => type.creatable && type.name !== AUTO_NUMBER)
  .map((type) => type.name);

export function fieldType(name: string): FieldType | undefined {
  return FIELD_TYPES.get(name);
}
