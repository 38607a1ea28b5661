/**
 * Formula engine recalculation (issue 23): `npm run bench -- formulas [runs] [--before DIR]`.
 *
 * Two workbooks, computed by the engine alone (no server):
 *   chain: A1 = 1 and 10,000 formulas A(n) = A(n-1)+1; load (compute everything), then change A1 (every
 *          formula recomputes, one after another);
 *   sheet: 100,000 cells, 10,000 rows × 10 columns, of which 20,000 formulas (`=A{r}*B{r}+C{r}` in column E,
 *          `=SUM(A{r}:D{r})+E{r}` in column J) and 80,000 numbers; load, then change one number in 100
 *          separate edits (each recomputes its row's two formulas).
 * `--before DIR` also runs the engine found in DIR (a `git archive <commit> src/model | tar -x -C DIR` of an
 * earlier commit), interleaved with ours (in alternating order), so both see the same machine load. When `hyperformula` is installed
 * (`npm install --no-save hyperformula`: GPL, measured, never shipped) it runs the same workbooks. Medians of
 * `runs` (default 5) in milliseconds. docs/PERFORMANCE.md records the figures with the command.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Input = string | number;
interface Engine {
  name: string;
  /** builds and computes the workbook; answers a function that applies one change and recomputes */
  load(cells: Array<[number, number, Input]>): { change(row: number, column: number, value: number): void; read(row: number, column: number): unknown };
}

interface WorkbookModule {
  Workbook: new (sheets: Array<{ id: string; name: string; cells: Array<[number, number, Input]> }>) => {
    setCell(sheetId: string, row: number, column: number, input: Input): unknown;
    value(sheetId: string, row: number, column: number): unknown;
  };
}

async function ourEngine(name: string, root: string): Promise<Engine> {
  const module = (await import(pathToFileURL(path.join(root, 'src/model/sheets/formulas/workbook.ts')).href)) as WorkbookModule;
  return {
    name,
    load(cells) {
      const workbook = new module.Workbook([{ id: 's', name: 'Sheet1', cells }]);
      return { change: (row, column, value) => void workbook.setCell('s', row, column, value), read: (row, column) => workbook.value('s', row, column) };
    },
  };
}

interface HyperFormulaLike {
  buildFromArray(sheet: Input[][], config: Record<string, unknown>): {
    setCellContents(address: { sheet: number; row: number; col: number }, value: Input): unknown;
    getCellValue(address: { sheet: number; row: number; col: number }): unknown;
  };
}

async function hyperFormula(): Promise<Engine | undefined> {
  let module: { HyperFormula: HyperFormulaLike };
  try {
    module = (await import('hyperformula' as string)) as { HyperFormula: HyperFormulaLike };
  } catch {
    return undefined;
  }
  return {
    name: 'HyperFormula',
    load(cells) {
      const grid: Input[][] = [];
      for (const [row, column, input] of cells) (grid[row] ??= [])[column] = input;
      const engine = module.HyperFormula.buildFromArray(grid, { licenseKey: 'gpl-v3' });
      return {
        change: (row, column, value) => void engine.setCellContents({ sheet: 0, row, col: column }, value),
        read: (row, column) => engine.getCellValue({ sheet: 0, row, col: column }),
      };
    },
  };
}

function chainCells(length: number): Array<[number, number, Input]> {
  const cells: Array<[number, number, Input]> = [[0, 0, 1]];
  for (let row = 1; row <= length; row++) cells.push([row, 0, `=A${row}+1`]);
  return cells;
}

function sheetCells(rows: number): Array<[number, number, Input]> {
  const cells: Array<[number, number, Input]> = [];
  for (let row = 0; row < rows; row++) {
    const r = row + 1;
    for (let column = 0; column < 10; column++) {
      if (column === 4) cells.push([row, column, `=A${r}*B${r}+C${r}`]);
      else if (column === 9) cells.push([row, column, `=SUM(A${r}:D${r})+E${r}`]);
      else cells.push([row, column, row * 10 + column]);
    }
  }
  return cells;
}

function time(action: () => void): number {
  const start = performance.now();
  action();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function formulasBench(args: string[]): Promise<void> {
  const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 5);
  const before = args.includes('--before') ? args[args.indexOf('--before') + 1] : undefined;
  const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const engines: Engine[] = [];
  if (before) engines.push(await ourEngine('before', path.resolve(before)));
  engines.push(await ourEngine('this branch', here));
  const hyper = await hyperFormula();
  if (hyper) engines.push(hyper);
  const chain = chainCells(10_000);
  const sheet = sheetCells(10_000);
  const figures = new Map<string, Record<string, number[]>>(engines.map((engine) => [engine.name, { chainLoad: [], chainChange: [], sheetLoad: [], sheetEdits: [] }]));
  for (let run = 0; run < runs; run++) {
    // every other run in reverse order: an engine running after another inherits its garbage
    for (const engine of run % 2 === 0 ? engines : [...engines].reverse()) {
      const figure = figures.get(engine.name)!;
      let chainBook: ReturnType<Engine['load']> | undefined;
      figure.chainLoad!.push(time(() => (chainBook = engine.load(chain))));
      figure.chainChange!.push(time(() => chainBook!.change(0, 0, run + 2)));
      if (Number(chainBook!.read(10_000, 0)) !== run + 10_002) throw new Error(`${engine.name}: the chain did not recompute`);
      let sheetBook: ReturnType<Engine['load']> | undefined;
      figure.sheetLoad!.push(time(() => (sheetBook = engine.load(sheet))));
      figure.sheetEdits!.push(time(() => {
        for (let edit = 0; edit < 100; edit++) sheetBook!.change(edit * 97, 1, edit);
      }));
    }
  }
  console.log(`formula recalculation, medians of ${runs} runs (ms)`);
  console.log('engine        chain: load  change A1 | 100k cells/20k formulas: load  100 edits');
  for (const [name, figure] of figures) {
    const m = (key: string) => median(figure[key]!).toFixed(1).padStart(9);
    console.log(`${name.padEnd(13)} ${m('chainLoad')} ${m('chainChange')}   | ${m('sheetLoad')} ${m('sheetEdits')}`);
  }
}
