import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, PUBLIC_DIR } from '../../src/paths.js';

/** Everything the browser builds are made from (the editors share the content model's and formulas' code with the server). */
const SOURCES = ['web', 'sdk', 'src/routes/editor-page/boot.ts', 'src/domain/content/model.ts', 'src/domain/content/rich-text.ts', 'src/domain/sheets', 'src/domain/tables/fields'];
const OUTPUTS = [path.join(PUBLIC_DIR, 'editor', '.vite', 'manifest.json'), path.join(PUBLIC_DIR, 'sdk', 'sdk.mjs')];

function newestChange(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

function builtAt(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Vitest global setup: tests of the editor page and browser tests run against dist/public, so rebuild it
 * when a source is newer than the build (a developer running `npx vitest` after editing web/ gets what they
 * wrote, not yesterday's bundle). `npm test` gets here with a fresh build and pays nothing.
 */
export default function ensureBrowserBuild(): void {
  const sources = Math.max(...SOURCES.map((entry) => newestChange(path.join(PROJECT_ROOT, entry))));
  if (OUTPUTS.every((output) => builtAt(output) >= sources)) return;
  execFileSync('npm', ['run', '--silent', 'build:browser'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
}
