import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { projectRoot } from '../support/processes.js';
import { startService, type TestService } from '../support/service.js';

/** README's "What works" table: face → file kind → what the cell says. */
function whatWorks(): Map<string, Map<string, string>> {
  const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### What works'));
  const all = section.split('\n');
  const start = all.findIndex((line) => line.startsWith('|'));
  const end = all.findIndex((line, index) => index > start && !line.startsWith('|'));
  const lines = all.slice(start, end);
  const cellsOf = (line: string) => line.split('|').slice(1, -1).map((cell) => cell.trim());
  const kinds = cellsOf(lines[0]!).slice(1);
  return new Map(lines.slice(2).map((line) => {
    const [face, ...cells] = cellsOf(line);
    return [face!, new Map(kinds.map((kind, index) => [kind, cells[index]!]))];
  }));
}

const KINDS = ['document', 'documentPro', 'spreadsheet', 'presentation', 'table'];

describe.each(testDatabases())('README "What works" stays true ($name)', (database) => {
  let svc: TestService;
  const table = whatWorks();
  beforeAll(async () => {
    svc = await startService(database, { integrator: true });
    for (const kind of KINDS) expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: kind, fileId: `f-${kind}` } })).status).toBe(200);
  });
  afterAll(() => svc.close());

  /** Each face's cells, checked against the service: every row of the table has a probe here. */
  const probes: Record<string, (kind: string, claim: string) => Promise<void>> = {
    'editor in the browser (JS SDK)': async (kind, claim) => {
      const query = new URLSearchParams({ signature: await svc.sign(), token: DEFAULT_USER.token });
      const page = await fetch(`${svc.url}/sdk/v2/collab-files/f-${kind}?${query}`);
      expect(claim).toBe('yes');
      expect([page.status, (await page.text()).includes('id="svc-boot"')]).toEqual([200, true]);
    },
    'real-time co-editing (Yjs socket)': async (kind, claim) => {
      // The socket itself is covered by test/content/collaboration.test.ts; here: a table has no Yjs content.
      const plain = await svc.call('GET', `/sdk/v2/collab-files/f-${kind}/plain-text`);
      expect(claim.startsWith('yes') ? plain.status : plain.body.status).toBe(claim.startsWith('yes') ? 200 : 70004);
    },
    // the panel itself, in each editor, is test/browser/conversations.test.ts
    'comments with @mentions of people and files (one panel in every editor)': async (kind, claim) => {
      expect(claim.startsWith('yes')).toBe(true);
      expect((await svc.call('GET', `/sdk/v2/collab-files/f-${kind}/comment-list`)).status).toBe(200);
      const suggestions = await svc.call('GET', `/sdk/v2/collab-files/f-${kind}/mention-suggestions`);
      expect([suggestions.status, Array.isArray(suggestions.body.data?.users), Array.isArray(suggestions.body.data?.files)]).toEqual([200, true, true]);
    },
    // the discussion panel is the document editor's (web/rich-text/panels/rich-text-panels.ts); the routes serve every kind
    'discussion (a file\'s chat)': async (kind, claim) => {
      expect(claim).toBe(kind === 'document' ? 'yes (panel)' : 'API only');
      expect((await svc.call('POST', `/sdk/v2/collab-files/f-${kind}/discussions`, { body: { content: 'hello' } })).status).toBe(200);
    },
    'copy, plain text, word count, revisions, history': async (kind, claim) => {
      const answers = [
        await svc.call('GET', `/sdk/v2/collab-files/f-${kind}/plain-text`),
        await svc.call('POST', `/sdk/v2/collab-files/f-${kind}/plain-text/wc`, { body: {} }),
        await svc.call('GET', `/sdk/v2/collab-files/f-${kind}/revisions`),
        await svc.call('POST', `/sdk/v2/collab-files/f-${kind}/copy`, { body: { fileId: `copy-${kind}` } }),
      ];
      if (claim === 'yes') expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      else expect([claim, ...answers.map((answer) => answer.body.status)]).toEqual(['no (400 / 70004)', 70004, 70004, 70004, 70004]);
    },
    'data API': async (kind, claim) => {
      const values = await svc.call('GET', `/sdk/v2/api/files/f-${kind}/sheets/values`, { query: { range: 'A1' } });
      const bookmarks = await svc.call('GET', `/sdk/v2/api/files/f-${kind}/documentpro/bookmark_content`);
      const tables = await svc.call('GET', '/sdk/v2/api/table-api/openapi/v1/tables', { query: { baseGuid: `f-${kind}` } });
      const works = { 'values by A1 range': values.status, 'named bookmarks': bookmarks.status, 'table data API': tables.status };
      for (const [api, status] of Object.entries(works)) expect([api, status === 200]).toEqual([api, claim === api]);
    },
    'sort (editor and `sheets/sort`) and a shared filter (editor, xlsx auto filter)': async (kind, claim) => {
      const sorted = await svc.call('POST', `/sdk/v2/api/files/f-${kind}/sheets/sort`, { body: { range: 'A1:B2', keys: [{ column: 'A' }] } });
      expect([kind, sorted.status === 200]).toEqual([kind, claim === 'yes']);
    },
  };

  it('has a probe for every face and a cell for every kind', () => {
    expect([...table.keys()]).toEqual(Object.keys(probes));
    for (const cells of table.values()) expect([...cells.keys()]).toEqual(KINDS);
  });

  for (const [face, probe] of Object.entries(probes)) {
    it(face, async () => {
      for (const kind of KINDS) await probe(kind, table.get(face)?.get(kind) ?? 'missing');
    });
  }
});
