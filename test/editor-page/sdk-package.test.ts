import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';
import { SDK_VERSION } from '../../sdk/version.js';

const OUT = path.join(PROJECT_ROOT, 'dist', 'sdk-package');

describe('the SDK as an npm package (npm run build:sdk-package)', () => {
  it('builds a package with the ES module, the script build, type declarations and the README', async () => {
    execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(PROJECT_ROOT, 'sdk', 'build-package.ts')], {
      cwd: PROJECT_ROOT,
      stdio: 'pipe',
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(OUT, 'package.json'), 'utf8')) as Record<string, any>;
    expect(manifest).toMatchObject({ name: 'svc-js-sdk', version: SDK_VERSION, type: 'module', types: './types/index.d.ts' });
    for (const file of [manifest.exports['.'].import, manifest.exports['.'].types, manifest.exports['./script'], manifest.files.includes('README.md') ? './README.md' : '']) {
      expect(fs.existsSync(path.join(OUT, file)), file).toBe(true);
    }
    const declarations = fs.readFileSync(path.join(OUT, 'types', 'office-sdk.d.ts'), 'utf8');
    expect(declarations).toContain('export declare function connect(options: ConnectOptions): Promise<OfficeSDK>;');
    // the module loads without a DOM (bundlers and SSR import it) and exports the public names
    const sdk = (await import(pathToFileURL(path.join(OUT, 'dist', 'sdk.mjs')).href)) as Record<string, unknown>;
    expect(Object.keys(sdk)).toEqual(expect.arrayContaining(['connect', 'OfficeSDK', 'SDKError', 'FileType', 'ReadyState', 'Event', 'ErrorCode', 'version']));
    expect(sdk.version).toBe(SDK_VERSION);
    expect(fs.readFileSync(path.join(OUT, 'dist', 'sdk.js'), 'utf8')).toMatch(/SvcJSSDK/);
    expect(fs.readFileSync(path.join(OUT, 'README.md'), 'utf8')).toContain('# The JS SDK');
  }, 120_000);
});
