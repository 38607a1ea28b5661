import type { NumberFormatEngine } from '../../src/model/sheets/number-format-engine.js';

/**
 * numfmt in the editor: the build puts this module in the place of src/model/sheets/number-format-engine.ts
 * (web/vite.config.ts), so numfmt is a chunk of its own, fetched while the first screen (cells the service
 * formatted) shows and the document syncs, instead of a third of the spreadsheet chunk the first screen waits for.
 * The editor awaits `loadNumberFormats` before it draws or computes a cell (index.ts).
 */
let engine: NumberFormatEngine | undefined;
let loading: Promise<void> | undefined;

export function numberFormatEngine(): NumberFormatEngine | undefined {
  return engine;
}

/** Fetches numfmt once; later calls answer the same promise. A failed fetch may be tried again. */
export function loadNumberFormats(): Promise<void> {
  loading ??= import('numfmt').then(
    ({ format, isDateFormat, isValidFormat }) => {
      engine = { format, isDateFormat, isValidFormat };
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
