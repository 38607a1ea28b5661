import { describe, expect, it } from 'vitest';
import { edgesOf, externalImportsOf, importCircles, importsOf, sourceFiles, unitOf, upwardImports, type Floors } from '../support/import-graph.js';

/**
 * The rank order of the server's folders (docs/ARCHITECTURE.md "Floors"), ground first. An import may point into its
 * own unit or to a unit of a lower floor, never sideways or up; a new folder or top-level file gets a floor here.
 */
const SERVER_FLOORS: Floors = [
  ['src/model'],
  ['src/errors.ts', 'src/paths.ts', 'src/loop-pause.ts', 'src/html-escape.ts'],
  ['src/net', 'src/storage'],
  ['src/apps'],
  ['src/auth'],
  ['src/integrator'],
  ['src/events'],
  ['src/tasks'],
  ['src/domain/apps', 'src/domain/seats', 'src/domain/conversion'],
  ['src/domain/files'],
  ['src/domain/attachments', 'src/domain/tables', 'src/domain/sheets', 'src/domain/suggestions', 'src/domain/behavior-history', 'src/domain/push'],
  ['src/domain/content'],
  ['src/domain/conversations', 'src/domain/export', 'src/domain/import'],
  ['src/domain/preview', 'src/domain/document-markdown'],
  ['src/config.ts'],
  ['src/cluster'],
  ['src/services.ts'],
  ['src/http'],
  ['src/routes'],
  ['src/server.ts'],
  ['src/serve.ts'],
  ['src/main.ts', 'src/cli'],
];

/** The editor application's floors: the shared model and the SDK's page ⇄ iframe protocol below everything of web/. */
const WEB_FLOORS: Floors = [
  ['src/model', 'sdk/protocol.ts'],
  ['web/shared'],
  ['web/rich-text', 'web/spreadsheet', 'web/table', 'web/preview'],
  ['web/document', 'web/document-pro', 'web/presentation'],
  ['web/main.ts', 'web/vite.config.ts'],
];

const serverFiles = sourceFiles('src');
const webFiles = sourceFiles('web');

describe('dependencies point one way (docs/ARCHITECTURE.md "Floors")', () => {
  it('every server file is on a floor, and no import runs sideways or up the floors', () => {
    expect(serverFiles.length).toBeGreaterThan(200);
    expect(serverFiles.filter((file) => unitOf(SERVER_FLOORS, file) === undefined)).toEqual([]);
    expect(upwardImports(SERVER_FLOORS, edgesOf(serverFiles))).toEqual([]);
  });

  it('web/ imports only itself, the shared model and the SDK protocol, in the order of its own floors', () => {
    expect(webFiles.length).toBeGreaterThan(50);
    expect(webFiles.filter((file) => unitOf(WEB_FLOORS, file) === undefined)).toEqual([]);
    expect(upwardImports(WEB_FLOORS, edgesOf(webFiles))).toEqual([]);
  });

  it('the checks themselves catch an import up the floors and a circle', () => {
    const floors: Floors = [['src/model'], ['src/domain/sheets']];
    const down = { from: 'src/domain/sheets/first-screen.ts', to: 'src/model/content.ts' };
    const up = { from: 'src/model/content.ts', to: 'src/domain/sheets/workbook.ts' };
    expect(upwardImports(floors, [down])).toEqual([]);
    expect(upwardImports(floors, [up])).toHaveLength(1);
    expect(importCircles([down])).toEqual([]);
    expect(importCircles([down, { from: 'src/model/content.ts', to: 'src/domain/sheets/first-screen.ts' }])).toEqual([['src/domain/sheets/first-screen.ts', 'src/model/content.ts']]);
  });

  it('no import circles among the files of src/ and web/', () => {
    expect(importCircles(edgesOf([...serverFiles, ...webFiles]))).toEqual([]);
  });

  it('the shared model (src/model/) is browser-safe: no node: modules', () => {
    const model = sourceFiles('src/model');
    expect(model.length).toBeGreaterThan(20);
    const offending = model.flatMap((file) => externalImportsOf(file).filter((specifier) => specifier.startsWith('node:')).map((specifier) => `${file} → ${specifier}`));
    expect(offending).toEqual([]);
  });

  it('migrations do not import the storage that runs them', () => {
    const migrations = sourceFiles('src/storage/migrations');
    expect(migrations).toContain('src/storage/migrations/index.ts');
    const offending = migrations.flatMap((file) =>
      importsOf(file).filter((target) => !target.startsWith('src/storage/migrations/')).map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
