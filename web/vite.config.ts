import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The editor application served at `/sdk/v2/collab-files/{fileId}`: one entry (`main.ts`) that loads the
 * editor of the file's kind as its own chunk. The server reads the manifest to write the page's script and
 * preload tags (src/routes/editor-page/assets.ts), so there is no index.html here.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/sdk/v2/editor/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/public/editor', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    rolldownOptions: { input: { main: fileURLToPath(new URL('main.ts', import.meta.url)) } },
  },
});
