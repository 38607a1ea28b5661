import { buildIfStale } from '../../scripts/build-if-stale.mjs';

/**
 * Vitest global setup: tests of the editor page and browser tests run against dist/public, so it is rebuilt
 * when its sources changed since the last build (the same check as `npm start`, scripts/build-if-stale.mjs):
 * a developer running `npx vitest` after editing web/ gets what they wrote, not yesterday's bundle.
 */
export default function ensureBrowserBuild(): void {
  buildIfStale(['browser']);
}
