import { describe, expect, it } from 'vitest';
import { corpusDirectory, runOracle } from '../../scripts/formula-oracle.js';
import { isExcelFunction } from '../../src/model/sheets/formulas/excel-functions.js';

/**
 * The engine against Excel (issue 23): every workbook of the formula-oracle corpus (../shared/formula-oracle from
 * the repository root) imported through the service's xlsx reader and spreadsheet encoder, computed, and compared
 * with the values Excel stored. The floors only go up: raise them with the figures `npm run oracle` prints
 * (docs/FORMULAS.md "Agreement with Excel"), so a change that computes any workbook worse fails here.
 */
const FLOOR = { overall: 0.98, perWorkbook: 0.92 };

describe('formula oracle', () => {
  it('agrees with the values Excel stored at least as well as before', { timeout: 300_000 }, async () => {
    const directory = corpusDirectory();
    expect(directory, 'the formula-oracle corpus at ../shared/formula-oracle').toBeDefined();
    const summary = await runOracle(directory!, isExcelFunction);
    expect(summary.workbooks.length).toBeGreaterThanOrEqual(148);
    expect(summary.cells).toBeGreaterThan(40_000);
    expect(summary.overall).toBeGreaterThanOrEqual(FLOOR.overall);
    expect(summary.perWorkbook).toBeGreaterThanOrEqual(FLOOR.perWorkbook);
  });
});
