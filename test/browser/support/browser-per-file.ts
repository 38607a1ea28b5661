import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';

/**
 * One browser for the test file: launched before its first test, closed after its last. Answers a getter,
 * since the browser exists only once the tests run: `const browser = browserForThisFile();` then
 * `browser().newContext()` inside a test.
 */
export function browserForThisFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched before the first test of the file');
    return browser;
  };
}
