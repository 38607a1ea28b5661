import fs from 'node:fs';
import path from 'node:path';

/**
 * The import graph of the repository's own TypeScript (relative specifiers only; packages are left out), read
 * from the source text: what the layering test (test/foundation/layering.test.ts) checks against the rank order of
 * docs/ARCHITECTURE.md. Paths are relative to the repository root, with `.ts` endings.
 */
export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/** Every TypeScript file under `dir` (relative to the repository root), recursively. */
export function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(repositoryRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => path.join(dir, name));
}

const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'/g;
const DYNAMIC_IMPORT = /import\('([^']+)'\)/g;

/** The repository files `file` imports, statically or dynamically, type-only imports included. */
export function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(repositoryRoot, file), 'utf8');
  return [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)]
    .map((match) => match[1] as string)
    .filter((specifier) => specifier.startsWith('.') && !/\.(css|json|svg|png)$/.test(specifier))
    .map((specifier) => path.relative(repositoryRoot, path.resolve(path.dirname(path.join(repositoryRoot, file)), specifier)).replace(/\.js$/, '.ts'));
}

/** The packages and `node:` modules `file` imports. */
export function externalImportsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(repositoryRoot, file), 'utf8');
  return [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)].map((match) => match[1] as string).filter((specifier) => !specifier.startsWith('.'));
}

export interface Edge {
  from: string;
  to: string;
}

export function edgesOf(files: readonly string[]): Edge[] {
  return files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));
}

/** The import circles of the graph: each strongly connected component of more than one file (Tarjan). */
export function importCircles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/**
 * A rank order: `floors[0]` is the ground. Each entry names a unit: a folder (`src/domain/content`) holding every file
 * below it, or one file (`src/errors.ts`). A file belongs to the longest unit that contains it.
 */
export type Floors = ReadonlyArray<readonly string[]>;

export function unitOf(floors: Floors, file: string): string | undefined {
  let best: string | undefined;
  for (const unit of floors.flat()) {
    const contains = unit.endsWith('.ts') ? file === unit : file.startsWith(`${unit}/`);
    if (contains && (best === undefined || unit.length > best.length)) best = unit;
  }
  return best;
}

export function rankOf(floors: Floors, unit: string): number {
  return floors.findIndex((floor) => floor.includes(unit));
}

/**
 * The imports that break the order: into another unit of the same or a higher floor (an import inside its own unit
 * is free), or to a file no floor names.
 */
export function upwardImports(floors: Floors, edges: readonly Edge[]): string[] {
  return edges.flatMap(({ from, to }) => {
    const fromUnit = unitOf(floors, from);
    const toUnit = unitOf(floors, to);
    if (fromUnit === undefined) return [`${from}: in no floor`];
    if (toUnit === undefined) return [`${from} → ${to}: in no floor`];
    if (fromUnit === toUnit || rankOf(floors, toUnit) < rankOf(floors, fromUnit)) return [];
    return [`${from} → ${to} (${fromUnit}, floor ${rankOf(floors, fromUnit)} → ${toUnit}, floor ${rankOf(floors, toUnit)})`];
  });
}
