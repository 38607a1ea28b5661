import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inputFiles, recordBuilt, staleness, TARGETS, type BuildTarget } from '../../scripts/build-if-stale.mjs';
import { projectRoot } from '../support/processes.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A small project: an editor importing one server module (which imports another), and an unrelated one. */
function project(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-build-'));
  roots.push(root);
  const files: Record<string, string> = {
    'package.json': '{}',
    'web/main.ts': "import { a } from '../src/shared/a.js';\nexport const main = a;\n",
    'sdk/index.ts': 'export const sdk = 1;\n',
    'src/shared/a.ts': "import type {\n  B,\n} from './b.js';\nexport const a: B = 1;\n",
    'src/shared/b.ts': 'export type B = number;\n',
    'src/server-only.ts': 'export const serverOnly = 1;\n',
    'examples/x.ts': 'export const x = 1;\n',
    'src/node_modules/ignored.ts': 'never read',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** Marks `target` built: its outputs present, its stamp recorded. */
function build(root: string, target: BuildTarget): void {
  for (const output of TARGETS[target].outputs) {
    fs.mkdirSync(path.dirname(path.join(root, output)), { recursive: true });
    fs.writeFileSync(path.join(root, output), '');
  }
  recordBuilt(target, staleness(target, root).hash, root);
}

describe('npm start builds only what changed (scripts/build-if-stale.mjs)', () => {
  it('a build is stale without a stamp, fresh after one, stale again when an input changes', () => {
    const root = project();
    expect(staleness('server', root).stale).toBe(true);
    build(root, 'server');
    expect(staleness('server', root).stale).toBe(false);
    fs.appendFileSync(path.join(root, 'src/server-only.ts'), '// edited\n');
    expect(staleness('server', root).stale).toBe(true);
  });

  it('contents decide, not times: touching every file builds nothing, an added or removed file builds', () => {
    const root = project();
    build(root, 'server');
    const future = new Date(Date.now() + 60_000);
    for (const file of inputFiles('server', root)) fs.utimesSync(path.join(root, file), future, future);
    expect(staleness('server', root).stale).toBe(false);
    fs.writeFileSync(path.join(root, 'src/new.ts'), '');
    expect(staleness('server', root).stale).toBe(true);
    fs.rmSync(path.join(root, 'src/new.ts'));
    expect(staleness('server', root).stale).toBe(false);
  });

  it('a missing output makes its target stale even with a matching stamp', () => {
    const root = project();
    build(root, 'browser');
    fs.rmSync(path.join(root, TARGETS.browser.outputs[0]!));
    expect(staleness('browser', root).stale).toBe(true);
  });

  it('the browser build follows the editors’ imports into src/ and nothing else there', () => {
    const root = project();
    expect(inputFiles('browser', root)).toEqual(['package.json', 'sdk/index.ts', 'src/shared/a.ts', 'src/shared/b.ts', 'web/main.ts']);
    build(root, 'browser');
    fs.appendFileSync(path.join(root, 'src/server-only.ts'), '// server change\n');
    expect(staleness('browser', root).stale).toBe(false);
    fs.appendFileSync(path.join(root, 'src/shared/b.ts'), '// reached through a.ts\n');
    expect(staleness('browser', root).stale).toBe(true);
  });

  it('this checkout’s browser build is current once the test setup has run (the same check)', () => {
    expect(staleness('browser', projectRoot).stale).toBe(false);
    expect(inputFiles('browser', projectRoot)).toContain('src/model/content.ts');
    expect(inputFiles('browser', projectRoot)).not.toContain('src/server.ts');
  });
});
