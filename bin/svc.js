#!/usr/bin/env node
// `npx svc …`: runs the built command line. `npm run build` (or one `npm start`) builds it.
import { existsSync } from 'node:fs';
const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('svc: not built yet; run `npm run build` first (or use `npm run svc -- …`, which builds).');
  process.exit(1);
}
await import(entry.href);
