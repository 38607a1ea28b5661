#!/usr/bin/env node
// `npx svc …`: runs the built command line, building it first when its sources changed since the last build
// (scripts/build-if-stale.mjs; nothing to do, the usual case, costs a hash of the sources). `svc sign` needs
// no build: in a clone it runs its own small module from the sources (tsx), so it answers at once on a fresh
// clone too (src/cli/sign-command.ts).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
// A copy without sources (a packed build) has nothing to rebuild from: run what is there.
const fromSources = existsSync(new URL('../src/cli/main.ts', import.meta.url));
if (fromSources && process.argv[2] === 'sign') {
  const { register } = await import('tsx/esm/api');
  register();
  const { runSign } = await import('../src/cli/sign-command.ts');
  await runSign(process.argv.slice(3));
} else {
  if (fromSources) {
    const { buildIfStale } = await import('../scripts/build-if-stale.mjs');
    try {
      buildIfStale(['server']);
    } catch (error) {
      console.error(`svc: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  }
  await import(entry.href);
}
