/**
 * `npm run bench -- <name> [args…]` runs bench/<name>.ts, whose default export receives the remaining
 * arguments. Each benchmark prints its figures; docs/PERFORMANCE.md records them with the command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const available = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3));
const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name>   (available: ${available.join(', ') || 'none yet'})`);
  process.exit(2);
}
const bench = (await import(path.join(here, `${name}.ts`))) as { default: (args: string[]) => Promise<void> };
await bench.default(args);
