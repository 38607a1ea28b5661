import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { SDK_VERSION } from './version.js';

/**
 * `npm run build:sdk-package`: the JS SDK as an npm package in dist/sdk-package (publish it with
 * `npm publish dist/sdk-package`): the ES module and the `<script>` build of sdk/vite.config.ts, the type
 * declarations, a package.json and docs/SDK.md as its README.
 */
const SDK_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(SDK_DIR, '..');
const OUT = path.join(ROOT, 'dist', 'sdk-package');

const manifest = {
  name: 'svc-js-sdk',
  version: SDK_VERSION,
  description: 'Browser SDK of the Svc document platform: embeds its editors in an integrator page (connect, OfficeSDK, enums).',
  license: 'Apache-2.0',
  type: 'module',
  main: './dist/sdk.mjs',
  module: './dist/sdk.mjs',
  types: './types/index.d.ts',
  unpkg: './dist/sdk.js',
  exports: {
    '.': { types: './types/index.d.ts', import: './dist/sdk.mjs', default: './dist/sdk.mjs' },
    './script': './dist/sdk.js',
    './package.json': './package.json',
  },
  files: ['dist', 'types', 'README.md'],
  sideEffects: false,
};

fs.rmSync(OUT, { recursive: true, force: true });
await build({ configFile: path.join(SDK_DIR, 'vite.config.ts'), build: { outDir: path.join(OUT, 'dist'), emptyOutDir: true } });
execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(SDK_DIR, 'tsconfig.package.json')], { stdio: 'inherit' });
fs.writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
fs.copyFileSync(path.join(ROOT, 'docs', 'SDK.md'), path.join(OUT, 'README.md'));
console.log(`SDK package ${manifest.name}@${manifest.version} in ${path.relative(process.cwd(), OUT) || '.'}`);
