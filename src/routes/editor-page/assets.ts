import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { PUBLIC_DIR } from '../../paths.js';
import type { EditorFileType } from '../../model/editor-boot.js';

/** URL paths of the browser builds (web/vite.config.ts and sdk/vite.config.ts name the same). */
export const EDITOR_ASSETS_PATH = '/sdk/v2/editor/';
export const SDK_ASSETS_PATH = '/sdk/v2/js/';
const EDITOR_DIR = path.join(PUBLIC_DIR, 'editor');
const SDK_DIR = path.join(PUBLIC_DIR, 'sdk');
const MANIFEST = path.join(EDITOR_DIR, '.vite', 'manifest.json');
/** The SDK's files have fixed names: browsers revalidate them after this long (ETag makes that cheap). */
const SDK_MAX_AGE_SECONDS = 300;

/** The editor entry of each file kind, as Vite's manifest names the dynamic import in web/main.ts. */
const EDITOR_ENTRIES: Partial<Record<EditorFileType, string>> = {
  document: 'document/index.ts',
  documentPro: 'document-pro/index.ts',
  spreadsheet: 'spreadsheet/index.ts',
  table: 'table/index.ts',
  presentation: 'presentation/index.ts',
};

/** Scripts and styles one editor page loads: the entry, its styles, and the modules to fetch at once. */
export interface PageAssets {
  entry: string;
  styles: string[];
  preloads: string[];
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

type Manifest = Record<string, ManifestChunk>;

let cached: { mtimeMs: number; manifest: Manifest } | undefined;

/** Vite's manifest, read again when a new build replaced it; undefined when the browser side is not built. */
function manifest(): Manifest | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(MANIFEST);
  } catch {
    return undefined;
  }
  if (cached?.mtimeMs !== stat.mtimeMs) cached = { mtimeMs: stat.mtimeMs, manifest: JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest };
  return cached.manifest;
}

/** Whether the file kind has a browser editor. */
export function hasEditor(fileType: EditorFileType): boolean {
  return EDITOR_ENTRIES[fileType] !== undefined;
}

/**
 * The assets of the page of a file kind (without a kind: the entry alone, for the error page), or undefined
 * when the browser side has not been built (`npm run build`).
 */
export function pageAssets(fileType?: EditorFileType): PageAssets | undefined {
  const chunks = manifest();
  const main = chunks?.['main.ts'];
  if (!chunks || !main) return undefined;
  const styles = new Set<string>();
  const preloads = new Set<string>();
  const visited = new Set<string>();
  const visit = (key: string, preload: boolean) => {
    const chunk = chunks[key];
    if (!chunk || visited.has(key)) return;
    visited.add(key);
    if (preload) preloads.add(EDITOR_ASSETS_PATH + chunk.file);
    for (const css of chunk.css ?? []) styles.add(EDITOR_ASSETS_PATH + css);
    for (const imported of chunk.imports ?? []) visit(imported, true);
  };
  visit('main.ts', false);
  const editor = fileType ? EDITOR_ENTRIES[fileType] : undefined;
  if (editor) visit(editor, true);
  return { entry: EDITOR_ASSETS_PATH + main.file, styles: [...styles], preloads: [...preloads] };
}

/** The preview viewer's script (web/preview/viewer.ts), or undefined when the browser side has not been built. */
export function previewViewerScript(): string | undefined {
  const chunk = manifest()?.['preview/viewer.ts'];
  return chunk ? EDITOR_ASSETS_PATH + chunk.file : undefined;
}

/**
 * Serves the browser builds: the editor application's hashed assets (cached for good) and the SDK at fixed
 * names (`sdk.mjs`, `sdk.js`), which integrators' pages load from their own origin, hence
 * `Access-Control-Allow-Origin: *` (a module script is fetched in CORS mode) and
 * `Cross-Origin-Resource-Policy: cross-origin` (a host page isolated with COEP may still load it). Their names
 * do not change with a release, so browsers keep them 5 minutes and then revalidate with the ETag (a 304).
 */
export const browserAssets: FastifyPluginAsync = async (app) => {
  await app.register(fastifyStatic, {
    root: EDITOR_DIR,
    prefix: EDITOR_ASSETS_PATH,
    wildcard: true,
    index: false,
    dotfiles: 'ignore',
    immutable: true,
    maxAge: '365d',
  });
  await app.register(fastifyStatic, {
    root: SDK_DIR,
    prefix: SDK_ASSETS_PATH,
    decorateReply: false,
    wildcard: true,
    index: false,
    dotfiles: 'ignore',
    maxAge: SDK_MAX_AGE_SECONDS * 1000,
    setHeaders: (reply) => reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin').header('x-content-type-options', 'nosniff'),
  });
};
