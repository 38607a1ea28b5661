import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EDITOR_ASSETS_PATH, pageAssets } from '../../src/routes/editor-page/assets.js';
import { PUBLIC_DIR } from '../../src/paths.js';
import type { EditorFileType } from '../../src/model/editor-boot.js';

/**
 * What each editor page makes the browser fetch at once (its entry, styles and preloaded chunks, as the page's
 * tags name them), read from the build the other browser tests use. A page must not carry another kind's code:
 * the formula engine once reached the document pages through a shared panel (docs/PERFORMANCE.md, issue 12's
 * budget of 400 KB gzip for a document page).
 */
const DOCUMENT_PAGE_BUDGET_BYTES = 400_000;

function pageFiles(kind: EditorFileType): string[] {
  const assets = pageAssets(kind);
  if (!assets) throw new Error('the browser side is not built (the global setup builds it)');
  return [assets.entry, ...assets.styles, ...assets.preloads].map((url) => path.join(PUBLIC_DIR, 'editor', url.slice(EDITOR_ASSETS_PATH.length)));
}

/** The sources a built chunk was made of, from its source map. */
function sourcesOf(file: string): string[] {
  const map = `${file}.map`;
  if (!fs.existsSync(map)) return [];
  return (JSON.parse(fs.readFileSync(map, 'utf8')) as { sources: string[] }).sources;
}

describe('editor page weight', () => {
  it.each(['document', 'documentPro', 'presentation', 'table'] as const)('a %s page loads no spreadsheet formula engine', (kind) => {
    const sources = pageFiles(kind).flatMap(sourcesOf);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => /formulajs|jstat|model\/sheets\/formulas\//.test(source))).toEqual([]);
  });

  it.each(['document', 'documentPro'] as const)('a %s page loads under 400 KB gzip', (kind) => {
    const bytes = pageFiles(kind).reduce((total, file) => total + zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length, 0);
    expect(bytes).toBeLessThan(DOCUMENT_PAGE_BUDGET_BYTES);
  });
});
