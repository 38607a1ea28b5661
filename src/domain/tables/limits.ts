/**
 * Limits of tables that code outside the table service needs too (the importer, in a converter thread that
 * should not load the table service and its database layer for one number).
 */

/** Columns per table, and tables per base: generous, but bounded so one table stays one page of metadata. */
export const MAX_COLUMNS = 500;
