import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(import.meta.dirname, '../../src');

/** Every TypeScript file under `dir` (relative to src/), recursively. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(srcDir, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(dir, name));
}

/** The src-relative files `file` imports (relative specifiers only; packages are left out). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(srcDir, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'/g), ...text.matchAll(/import\('([^']+)'\)/g)]
    .map((match) => match[1] as string)
    .filter((specifier) => specifier.startsWith('.'));
  return specifiers.map((specifier) => path.relative(srcDir, path.resolve(path.dirname(path.join(srcDir, file)), specifier)).replace(/\.js$/, '.ts'));
}

describe('dependencies point one way (docs/ARCHITECTURE.md)', () => {
  it('nothing below the HTTP layer imports from http/ or routes/', () => {
    const below = ['domain', 'integrator', 'storage', 'auth', 'events'].flatMap(sourceFiles);
    expect(below.length).toBeGreaterThan(20);
    const offending = below.flatMap((file) =>
      importsOf(file).filter((target) => target.startsWith('http/') || target.startsWith('routes/')).map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('the shared model (src/model/) is browser-safe: no node:, storage, http, routes, domain or error catalogue imports', () => {
    const model = sourceFiles('model');
    expect(model.length).toBeGreaterThan(20);
    const offending = model.flatMap((file) => {
      const text = fs.readFileSync(path.join(srcDir, file), 'utf8');
      const nodeImports = [...text.matchAll(/from\s+'(node:[^']+)'/g)].map((match) => `${file} → ${match[1]}`);
      const upward = importsOf(file).filter((target) => !target.startsWith('model/')).map((target) => `${file} → ${target}`);
      return [...nodeImports, ...upward];
    });
    expect(offending).toEqual([]);
  });

  it('migrations do not import the storage that runs them', () => {
    const migrations = sourceFiles('storage/migrations');
    expect(migrations).toContain('storage/migrations/index.ts');
    const offending = migrations.flatMap((file) =>
      importsOf(file).filter((target) => !target.startsWith('storage/migrations/')).map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
