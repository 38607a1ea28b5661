import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser } from 'playwright-core';

/**
 * Flags of @sparticuz/chromium that do not belong in our tests: `--disable-web-security` would hide CORS and
 * cross-origin messaging bugs, `--single-process` crashes when a browser context closes.
 */
const DROPPED_FLAGS = new Set(['--disable-web-security', '--single-process']);

export interface LaunchOptions {
  /**
   * Rasterise and composite in software (`--disable-gpu`) instead of through @sparticuz/chromium's emulated GL
   * (SwiftShader, in the browser process: `--in-process-gpu`, `--use-angle=swiftshader`). The emulated GL costs
   * about a core while two editors are typed into (docs/PERFORMANCE.md, "The keystroke tail with 50 clients"):
   * a benchmark that runs the browsers on the service's own cores measures that rather than the service. WebGL
   * and the GPU paths are then out of use, so tests keep the default.
   */
  softwareRendering?: boolean;
}

/**
 * Headless Chromium for browser tests and benchmarks: the binary that ships inside @sparticuz/chromium (no
 * download at run time), or the one named by CHROMIUM_PATH.
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || (await chromium.executablePath());
  const args = chromium.args.filter((flag) => !DROPPED_FLAGS.has(flag));
  if (options.softwareRendering) args.push('--disable-gpu');
  return playwright.launch({ executablePath, args, headless: true });
}
