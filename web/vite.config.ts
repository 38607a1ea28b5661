import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const serverNumberFormats = fileURLToPath(new URL('../src/model/sheets/number-format-engine.ts', import.meta.url));
const editorNumberFormats = fileURLToPath(new URL('spreadsheet/number-format-loader.ts', import.meta.url));

/**
 * numfmt as a chunk of its own: the shared model takes its number formatter from number-format-engine.ts, which
 * imports numfmt with it (the server formats from the start); in the editor that module is replaced by
 * spreadsheet/number-format-loader.ts, which fetches numfmt while the first screen shows (docs/PERFORMANCE.md).
 */
function numberFormatsAfterFirstScreen(): Plugin {
  return {
    name: 'svc-number-formats-after-first-screen',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.endsWith('/number-format-engine.js')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === serverNumberFormats ? editorNumberFormats : null;
    },
  };
}

/**
 * The editor application served at `/sdk/v2/collab-files/{fileId}`: one entry (`main.ts`) that loads the
 * editor of the file's kind as its own chunk; the preview viewer (`preview/viewer.ts`) is a second entry. The server reads the manifest to write the page's script and
 * preload tags (src/routes/editor-page/assets.ts), so there is no index.html here.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/sdk/v2/editor/',
  publicDir: false,
  logLevel: 'warn',
  plugins: [numberFormatsAfterFirstScreen()],
  // pdf.js's worker (preview/pdf-worker.ts) is a module worker, as the rest of the build is ES modules
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist/public/editor', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    rolldownOptions: {
      // Rolldown's timing report ("[PLUGIN_TIMINGS] JavaScript callbacks ran for …") is a warning printed in
      // yellow on every slow build: it read like a failed build to people running it for the first time
      checks: { bundlerTimings: false },
      input: {
        main: fileURLToPath(new URL('main.ts', import.meta.url)),
        // the preview viewer (src/routes/preview-page), its pdf.js and pdf.js's worker as chunks of their own
        preview: fileURLToPath(new URL('preview/viewer.ts', import.meta.url)),
      },
    },
  },
});
