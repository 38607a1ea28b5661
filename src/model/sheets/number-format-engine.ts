import { format, isDateFormat, isValidFormat } from 'numfmt';

/** The functions of numfmt that number-format.ts formats with. */
export interface NumberFormatEngine {
  format: typeof format;
  isDateFormat: typeof isDateFormat;
  isValidFormat: typeof isValidFormat;
}

const numfmt: NumberFormatEngine = { format, isDateFormat, isValidFormat };

/**
 * The number formatter, loaded with this module: on the server, in workers, tools and tests it is there from the
 * start. The editor's build (web/vite.config.ts) puts web/spreadsheet/number-format-loader.ts in this module's
 * place, which fetches numfmt as a chunk of its own while the first screen shows, so the spreadsheet page's
 * first screen does not wait for numfmt's third of the editor's weight (docs/PERFORMANCE.md).
 */
export function numberFormatEngine(): NumberFormatEngine | undefined {
  return numfmt;
}
