/**
 * A column type (spec 2.5) as one module: how its `props` are validated and normalised, and how a value
 * written through the API becomes the stored cell. Cells are stored in their read form, so reading is the
 * stored value as is: a type or props change never converts old values (spec 4.4 rules 2-3).
 *
 * Adding a type means one new module plus one line in registry.ts.
 */

/** A JSON value as stored in a cell. */
export type CellValue = string | number | boolean | CellValue[] | { [key: string]: CellValue };

/** Normalised props of a column, as stored and returned. */
export type ColumnProps = Record<string, unknown>;

/** Thrown by a field type when props or a value break its rules; the caller adds which column and row. */
export class FieldRuleError extends Error {}

export interface PropsContext {
  /** guids of the tables of the base the column belongs to (Link props name one of them) */
  readonly tablesInBase: ReadonlySet<string>;
}

export interface CellContext {
  /** Asks that these row guids exist in that table; the caller checks them all at once after conversion. */
  requireRows(tableGuid: string, rowGuids: readonly string[]): void;
}

export interface FieldType {
  readonly name: string;
  /** may be the primary (first) column of a table */
  readonly primary: boolean;
  /** may be created through the API (create table, create column, change of type) */
  readonly creatable: boolean;
  /** values are set by the service only: writing one, null included, is an error */
  readonly readOnly: boolean;
  /** how values are written and read, for the API documentation */
  readonly valueDoc: string;
  /** Validates raw props (an object) and returns the normalised props to store; throws FieldRuleError. */
  parseProps(raw: ColumnProps, context: PropsContext): ColumnProps;
  /** Converts a non-null written value to the cell to store; throws FieldRuleError. */
  write(value: unknown, props: ColumnProps, context: CellContext): CellValue | undefined;
}

/**
 * Declares a field type with typed props. `write` only ever receives props that this type's own
 * `parseProps` produced (stored props are re-parsed when a column changes type), hence the one cast; a
 * cast rather than a wrapping function, which would add a call to each of the 20,000 cells of a bulk insert.
 */
export function defineFieldType<P extends ColumnProps>(definition: {
  name: string;
  primary: boolean;
  creatable?: boolean;
  readOnly?: boolean;
  valueDoc: string;
  parseProps(raw: ColumnProps, context: PropsContext): P;
  write(value: unknown, props: P, context: CellContext): CellValue | undefined;
}): FieldType {
  return {
    creatable: true,
    readOnly: false,
    ...definition,
    write: definition.write as FieldType['write'],
  };
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return `a ${typeof value}`;
}

/** Props that carry no settings: anything sent is ignored, the stored props are `{}`. */
export const noProps = (): Record<string, never> => ({});

/** Optional integer prop in a range, with a default. */
export function integerProp(raw: ColumnProps, key: string, min: number, max: number, fallback: number | undefined): number | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FieldRuleError(`props.${key} must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
  return value;
}

/** Optional prop from a fixed set of words, with a default. */
export function enumProp<T extends string>(raw: ColumnProps, key: string, allowed: readonly T[], fallback: T): T {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new FieldRuleError(`props.${key} must be one of ${allowed.join(', ')}, got ${describe(value)}`);
  }
  return value as T;
}
