import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser } from 'playwright-core';

/**
 * Flags of @sparticuz/chromium that do not belong in our tests: `--disable-web-security` would hide CORS and
 * cross-origin messaging bugs, `--single-process` crashes when a browser context closes.
 */
const DROPPED_FLAGS = new Set(['--disable-web-security', '--single-process']);

/**
 * Headless Chromium for browser tests and benchmarks: the binary that ships inside @sparticuz/chromium (no
 * download at run time), or the one named by CHROMIUM_PATH.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || (await chromium.executablePath());
  const args = chromium.args.filter((flag) => !DROPPED_FLAGS.has(flag));
  return playwright.launch({ executablePath, args, headless: true });
}
