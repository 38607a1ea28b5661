/** Days between the spreadsheet epoch (1899-12-30) and the Unix epoch. */
const UNIX_EPOCH_SERIAL = 25_569;
const DAY_MS = 86_400_000;

/** A date as the spreadsheet serial number the values API reads and writes (docs/SHEETS.md "Dates"). */
export function serialOfEpochMs(ms: number): number {
  return ms / DAY_MS + UNIX_EPOCH_SERIAL;
}
