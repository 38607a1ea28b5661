import { arrayArg, isRange, optionalInteger, type Arg, type EvaluationContext, type FormulaFunction, type Lambda } from './args.js';
import { MAX_ARRAY_CELLS, oneValue } from './lifting.js';
import type { Ast } from './parser.js';
import { Err, FormulaError, type CellValue } from './values.js';

/**
 * LET, LAMBDA and the functions that call one (MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY), ISOMITTED. A LAMBDA is
 * a value only where one of these takes it or LET names it (`LET(f, LAMBDA(x, x*2), f(3))`); a formula whose result
 * is a LAMBDA is #CALC!, as in Excel. A LAMBDA called in place (`LAMBDA(x, x+1)(2)`) or named in the workbook's Name
 * Manager and called by that name is a `CALLED_IN_PLACE` call (parser.ts), evaluated by evaluate.ts with `invoke`.
 */

type Evaluate = (ast: Ast, context: EvaluationContext) => Arg;

/** A name a LET or LAMBDA defines: a plain name, not a cell's address or a sheet's (`LET(A1, 1, A1)` is refused). */
function plainName(ast: Ast): string | undefined {
  return ast.kind === 'name' && !ast.name.includes('!') ? ast.name.toUpperCase() : undefined;
}

/** The LAMBDA an argument stands for: written in place, or a name LET gave one. */
export function lambdaOf(ast: Ast, context: EvaluationContext): Lambda | FormulaError {
  if (ast.kind === 'name') return context.lambdas?.get(ast.name.toUpperCase()) ?? Err.value;
  if (ast.kind !== 'call' || ast.name !== 'LAMBDA' || ast.args.length === 0) return Err.value;
  const parameters: string[] = [];
  for (const parameter of ast.args.slice(0, -1)) {
    const name = plainName(parameter);
    if (!name || parameters.includes(name)) return Err.value;
    parameters.push(name);
  }
  return { parameters, body: ast.args.at(-1)!, context };
}

/** Calls a LAMBDA with values for its first parameters (the others are omitted: ISOMITTED); more values than parameters is #VALUE!. */
export function invoke(lambda: Lambda, values: readonly Arg[], evaluate: Evaluate): Arg {
  if (values.length > lambda.parameters.length) return Err.value;
  const names = new Map(lambda.context.names ?? []);
  const omitted = new Set(lambda.context.omitted ?? []);
  lambda.parameters.forEach((parameter, index) => {
    const value = values[index];
    names.set(parameter, value ?? null);
    if (value === undefined) omitted.add(parameter);
    else omitted.delete(parameter);
  });
  // a parameter hides a LET-named function of the same name
  const lambdas = new Map([...(lambda.context.lambdas ?? [])].filter(([name]) => !lambda.parameters.includes(name)));
  return evaluate(lambda.body, { ...lambda.context, names, lambdas, omitted });
}

function rowsOf(arg: Arg): CellValue[][] {
  if (!isRange(arg)) return [[arg]];
  return Array.from({ length: arg.rows }, (_, row) => Array.from({ length: arg.columns }, (_, column) => arg.get(row, column)));
}

/** A function whose last argument is a LAMBDA: the others evaluated, then `compute`. */
function withLambda(minArgs: number, maxArgs: number, compute: (values: Arg[], lambda: Lambda, call: (...values: Arg[]) => Arg) => Arg): FormulaFunction {
  return {
    lazy: 'context',
    minArgs,
    maxArgs,
    call(args, context, evaluate) {
      const lambda = lambdaOf(args.at(-1)!, context);
      if (lambda instanceof FormulaError) return lambda;
      const values = args.slice(0, -1).map((arg) => evaluate(arg, context));
      return compute(values, lambda, (...given) => invoke(lambda, given, evaluate));
    },
  };
}

const LET: FormulaFunction = {
  lazy: 'context',
  minArgs: 3,
  maxArgs: 253,
  // LET(name1, value1, [name2, value2, …], calculation): each value may use the names before it
  call(args, context, evaluate) {
    if (args.length % 2 === 0) return Err.value;
    const names = new Map(context.names ?? []);
    const lambdas = new Map(context.lambdas ?? []);
    let inner: EvaluationContext = context;
    for (let i = 0; i < args.length - 1; i += 2) {
      const name = plainName(args[i]!);
      if (!name) return Err.name;
      const value = args[i + 1]!;
      const lambda = value.kind === 'call' && value.name === 'LAMBDA' ? lambdaOf(value, inner) : undefined;
      if (lambda instanceof FormulaError) return lambda;
      if (lambda) {
        lambdas.set(name, lambda);
        names.delete(name);
      } else {
        names.set(name, evaluate(value, inner));
        lambdas.delete(name);
      }
      inner = { ...context, names: new Map(names), lambdas: new Map(lambdas) };
    }
    return evaluate(args.at(-1)!, inner);
  },
};

export const LAMBDA_FUNCTIONS: ReadonlyArray<[string, FormulaFunction]> = [
  ['LET', LET],
  // a LAMBDA left as a formula's value: Excel's #CALC!
  ['LAMBDA', { lazy: 'context', minArgs: 1, maxArgs: 254, call: () => Err.calc }],
  [
    'ISOMITTED',
    { lazy: 'context', minArgs: 1, maxArgs: 1, call: ([arg], context) => arg!.kind === 'name' && (context.omitted?.has(arg!.name.toUpperCase()) ?? false) },
  ],
  [
    // MAP(array1, …, lambda): the lambda of the arrays' values cell by cell
    'MAP',
    withLambda(2, 254, (arrays, _lambda, call) => {
      const grids = arrays.map(rowsOf);
      const [first] = grids;
      if (!first || grids.some((grid) => grid.length !== first.length || grid[0]!.length !== first[0]!.length)) return Err.value;
      return arrayArg(first.map((line, row) => line.map((_, column) => oneValue(call(...grids.map((grid) => grid[row]![column]!))))));
    }),
  ],
  [
    // REDUCE(initial, array, lambda(accumulator, value)): row by row
    'REDUCE',
    withLambda(3, 3, ([initial = null, array = null], _lambda, call) => {
      let accumulator: Arg = initial;
      for (const value of rowsOf(array).flat()) accumulator = call(accumulator, value);
      return accumulator;
    }),
  ],
  [
    // SCAN(initial, array, lambda(accumulator, value)): every step's accumulator, in the array's shape
    'SCAN',
    withLambda(3, 3, ([initial = null, array = null], _lambda, call) => {
      let accumulator: Arg = initial;
      return arrayArg(rowsOf(array).map((line) => line.map((value) => oneValue((accumulator = call(accumulator, value))))));
    }),
  ],
  ['BYROW', withLambda(2, 2, ([array = null], _lambda, call) => arrayArg(rowsOf(array).map((line) => [oneValue(call(arrayArg([line])))])))],
  [
    'BYCOL',
    withLambda(2, 2, ([array = null], _lambda, call) => {
      const rows = rowsOf(array);
      return arrayArg([rows[0]!.map((_, column) => oneValue(call(arrayArg(rows.map((line) => [line[column]!])))))]);
    }),
  ],
  [
    // MAKEARRAY(rows, columns, lambda(row, column)), rows and columns counted from 1
    'MAKEARRAY',
    withLambda(3, 3, ([rowsArg, columnsArg], _lambda, call) => {
      const rows = optionalInteger(rowsArg, 0);
      if (rows instanceof FormulaError) return rows;
      const columns = optionalInteger(columnsArg, 0);
      if (columns instanceof FormulaError) return columns;
      if (rows < 1 || columns < 1 || rows * columns > MAX_ARRAY_CELLS) return Err.value;
      return arrayArg(Array.from({ length: rows }, (_, row) => Array.from({ length: columns }, (_, column) => oneValue(call(row + 1, column + 1)))));
    }),
  ],
];
