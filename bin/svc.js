#!/usr/bin/env node
// `npx svc …`: runs the built command line, building it first when its sources changed since the last build
// (scripts/build-if-stale.mjs; nothing to do, the usual case, costs a hash of the sources).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
// A copy without sources (a packed build) has nothing to rebuild from: run what is there.
if (existsSync(new URL('../src/cli/main.ts', import.meta.url))) {
  const { buildIfStale } = await import('../scripts/build-if-stale.mjs');
  try {
    buildIfStale(['server']);
  } catch (error) {
    console.error(`svc: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
await import(entry.href);
