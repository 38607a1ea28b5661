import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The JS SDK, built twice from `index.ts`: an ES module (`sdk.mjs`) and a `<script>` build (`sdk.js`) that
 * sets one global object. The service serves both at `/sdk/v2/js/`; `sdk/package.json` publishes the same
 * files as an npm package.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/public/sdk', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2019',
    // no Rolldown timing report (web/vite.config.ts says why)
    rolldownOptions: { checks: { bundlerTimings: false } },
    lib: {
      entry: fileURLToPath(new URL('index.ts', import.meta.url)),
      name: 'SvcJSSDK',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'sdk.mjs' : 'sdk.js'),
    },
  },
});
