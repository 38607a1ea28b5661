import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FONT_ORIGIN } from '../converters/html.js';

/**
 * Noto Sans SC from the @fontsource package, for pages Chromium renders: without it Chinese text comes
 * out as empty boxes on a machine without CJK system fonts. The package splits the font into ~100 subsets
 * by unicode-range, so a page loads only the few its text needs.
 */

const require = createRequire(import.meta.url);
const PACKAGE_DIR = path.dirname(require.resolve('@fontsource/noto-sans-sc/package.json'));
const FILES_DIR = path.join(PACKAGE_DIR, 'files');
const WEIGHTS = ['400', '700'];
const FONT_FILE = /^noto-sans-sc-[\w-]+\.woff2$/;

let css: string | undefined;

/**
 * The @font-face rules with their sources on FONT_ORIGIN (woff2 only), `font-display: block` so that
 * printing waits for the glyphs instead of falling back.
 */
export function fontFaceCss(): string {
  css ??= WEIGHTS.map((weight) =>
    readFileSync(path.join(PACKAGE_DIR, `${weight}.css`), 'utf8')
      .replace(/src:\s*url\(\.\/files\/([\w-]+\.woff2)\)\s*format\('woff2'\)[^;]*;/g, (_, file: string) => `src: url(${FONT_ORIGIN}/fonts/${file}) format('woff2');`)
      .replace(/font-display:\s*swap/g, 'font-display: block'),
  ).join('\n');
  return css;
}

/** The bytes of a font file a page asked for by name; undefined for anything that is not one of the package's files. */
export function fontFile(name: string): Buffer | undefined {
  if (!FONT_FILE.test(name)) return undefined;
  try {
    return readFileSync(path.join(FILES_DIR, name));
  } catch {
    return undefined;
  }
}
