import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where data files fetched from public repositories are found (real Office files, Excel-saved workbooks, the
 * ECMA-376 schemas). They are not committed: the workplace keeps fetched data only under the steering repository's
 * `shared/`. Each set has a folder name and a README in test/fixtures/<name>/ saying where its files come from;
 * the files themselves are looked for, in order, in `$SVC_OUTSIDE_DATA/<name>`, `../shared/<name>` beside the
 * repository, and the git-ignored `test/fixtures/<name>/`. Tests that need a set skip, saying so, where it is absent.
 */
export function outsideDataDirectory(name: string, holds: (directory: string) => boolean): string | undefined {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const candidates = [
    process.env.SVC_OUTSIDE_DATA && path.join(process.env.SVC_OUTSIDE_DATA, name),
    path.join(root, '../shared', name),
    path.join(root, 'test/fixtures', name),
  ];
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && fs.existsSync(candidate) && holds(candidate));
}

/** Whether `directory` holds a file whose name ends with one of `extensions` (lower case, with the dot). */
export function holdsFilesEnding(directory: string, ...extensions: string[]): boolean {
  return fs.readdirSync(directory).some((file) => extensions.some((extension) => file.toLowerCase().endsWith(extension)));
}
