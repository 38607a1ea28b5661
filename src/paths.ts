import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root folder (the one holding package.json), found from this module's own place, so it is
 * the same whether the service runs from `src/` (tsx, tests) or from the build in `dist/src/`.
 */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the service code');
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = projectRoot();
/** What Vite builds for browsers (web/ and sdk/), served by the service. */
export const PUBLIC_DIR = path.join(PROJECT_ROOT, 'dist', 'public');
