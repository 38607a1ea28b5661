import { afterEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import type { ContentOptions } from '../../src/domain/content/content-service.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { appendParagraph, connectEditor, plainText, rawCollaborationClient, type Editor } from './support.js';

const CONTENT: ContentOptions = { coalesceMs: 300, coalesceMaxMs: 3000, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };
const RECHECK = JSON.stringify({ type: 'svc:recheck-access' });

/** What a page sees on its provider, in order: stateless messages (parsed) and the socket closing. */
type Seen = { stateless: { type: string; permissions?: Record<string, boolean> } } | { close: number };

function watch(editor: Editor): Seen[] {
  const seen: Seen[] = [];
  editor.provider.on('stateless', ({ payload }: { payload: string }) => seen.push({ stateless: JSON.parse(payload) }));
  editor.provider.configuration.websocketProvider.on('close', ({ event }: { event: { code: number } }) => seen.push({ close: event.code }));
  return seen;
}

const accessMessages = (seen: Seen[]) => seen.flatMap((entry) => ('stateless' in entry && entry.stateless.type === 'svc:access' ? [entry.stateless] : []));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const database of testDatabases()) {
  describe(`session permissions reach open editors [${database.name}]`, () => {
    let svc: TestService;
    const editors: Editor[] = [];
    afterEach(async () => {
      for (const editor of editors.splice(0)) await editor.close();
      await svc.close();
    });
    const start = async (content: Partial<ContentOptions> = {}) => {
      svc = await startService(database, { integrator: true, content: { ...CONTENT, ...content } });
    };
    const openFile = async (fileId: string) => {
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId } })).status).toBe(200);
      svc.integrator.addFile({ id: fileId, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
      const editor = await connectEditor(svc, fileId);
      editors.push(editor);
      return { editor, seen: watch(editor) };
    };

    it('tells an editor each change of its permissions at the periodic recheck; edits stop with editable, the session with readable', async () => {
      await start({ permissionRecheckMs: 200 });
      const { editor, seen } = await openFile('doc-a');
      appendParagraph(editor.doc, 'while allowed');
      await editor.saved();
      await pause(500);
      expect(accessMessages(seen)).toEqual([]);

      // (a user left `commentable` would be left suggesting: collaboration.test.ts)
      svc.integrator.grant('doc-a', DEFAULT_USER.id, { editable: false, commentable: false });
      svc.services.access.forget();
      await eventually(() => accessMessages(seen).length === 1, 'svc:access after editable was taken away');
      expect(accessMessages(seen)[0]).toEqual({ type: 'svc:access', permissions: { readable: true, editable: false, commentable: false } });
      appendParagraph(editor.doc, 'after edit was revoked');
      await pause(400);
      expect(await plainText(svc, 'doc-a')).toBe('while allowed');

      // only a change is told: the next rechecks, same answer, say nothing
      await pause(500);
      expect(accessMessages(seen)).toHaveLength(1);
      svc.integrator.grant('doc-a', DEFAULT_USER.id, { commentable: true });
      svc.services.access.forget();
      await eventually(() => accessMessages(seen).length === 2, 'svc:access after commentable was given');
      expect(accessMessages(seen)[1]!.permissions).toEqual({ readable: true, editable: false, commentable: true });

      svc.integrator.grant('doc-a', DEFAULT_USER.id, { readable: false });
      svc.services.access.forget();
      await eventually(() => seen.some((entry) => 'close' in entry), 'session closed');
      const last = seen.slice(-2);
      expect(last).toEqual([{ stateless: { type: 'svc:access', permissions: { readable: false, editable: false, commentable: true } } }, { close: 4403 }]);
    });

    it('gives editing back when editable returns', async () => {
      await start({ permissionRecheckMs: 150 });
      const { editor, seen } = await openFile('doc-b');
      svc.integrator.grant('doc-b', DEFAULT_USER.id, { editable: false });
      svc.services.access.forget();
      await eventually(() => accessMessages(seen).length === 1, 'read-only');
      svc.integrator.grant('doc-b', DEFAULT_USER.id, { editable: true });
      svc.services.access.forget();
      await eventually(() => accessMessages(seen).length === 2, 'editable again');
      expect(accessMessages(seen)[1]!.permissions).toMatchObject({ editable: true });
      appendParagraph(editor.doc, 'editing again');
      await editor.saved();
      await eventually(async () => (await plainText(svc, 'doc-b')).includes('editing again'), 'edit stored');
    });

    it('rechecks at once when the page asks, past the permission cache, at most once per 2 s per connection', async () => {
      await start();
      const { editor, seen } = await openFile('doc-c');
      const fileCallbacks = () => svc.integrator.calls.filter((call) => call.path === '/files/doc-c').length;

      // still inside the answer cache (SVC_PERMISSION_CACHE_MS): only a fresh question sees the change
      svc.integrator.grant('doc-c', DEFAULT_USER.id, { editable: false, commentable: false });
      const before = fileCallbacks();
      const asked = Date.now();
      editor.provider.sendStateless(RECHECK);
      await eventually(() => accessMessages(seen).length === 1, 'svc:access after the page asked', 3000);
      expect(Date.now() - asked).toBeLessThan(1500);
      expect(accessMessages(seen)[0]!.permissions).toEqual({ readable: true, editable: false, commentable: false });
      expect(fileCallbacks()).toBe(before + 1);
      appendParagraph(editor.doc, 'refused');
      await pause(300);
      expect(await plainText(svc, 'doc-c')).toBe('');

      // a burst of requests: none now (the last one was just served), then one when the 2 s are over
      for (let i = 0; i < 10; i++) editor.provider.sendStateless(RECHECK);
      await pause(700);
      expect(fileCallbacks()).toBe(before + 1);
      await eventually(() => fileCallbacks() === before + 2, 'the queued recheck', 3000);
      await pause(2500);
      expect(fileCallbacks()).toBe(before + 2);
      expect(accessMessages(seen)).toHaveLength(1);

      // the fresh answer also serves the backend API at once
      expect((await svc.call('POST', '/sdk/v2/collab-files/doc-c/revisions', { body: { title: 'x' } })).status).toBe(403);
    });

    it('ignores hostile or malformed stateless payloads and keeps the session', async () => {
      await start();
      const { editor, seen } = await openFile('doc-d');
      const hostile = [
        'not json',
        '',
        'null',
        '[]',
        '42',
        '{"type": 1}',
        '{"type": "svc:access", "permissions": {"readable": false}}',
        '{"type": "svc:recheck-access"'.padEnd(5000, ' ') + '}',
        JSON.stringify({ type: '__proto__', constructor: { prototype: { polluted: true } } }),
        '\u0000\uffff\ud800',
        'x'.repeat(1_000_000),
      ];
      for (const payload of hostile) editor.provider.sendStateless(payload);
      await pause(300);
      expect(seen).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      appendParagraph(editor.doc, 'still here');
      await editor.saved();
      expect(await plainText(svc, 'doc-d')).toBe('still here');
      expect(svc.integrator.calls.filter((call) => call.path === '/files/doc-d')).toHaveLength(1);
    });

    it('closes a raw client that tries to broadcast a service message to the other editors', async () => {
      await start();
      const { editor, seen } = await openFile('doc-e');
      const client = await rawCollaborationClient(svc, 'doc-e');
      // BroadcastStateless (6) with a varString payload
      const forged = Buffer.from(JSON.stringify({ type: 'svc:access', permissions: { readable: false, editable: false, commentable: false } }));
      client.send(Buffer.concat([Buffer.from([6, forged.length]), forged]));
      expect(await client.closed).toBe(4400);
      await pause(200);
      expect(seen).toEqual([]);
      appendParagraph(editor.doc, 'unaffected');
      await editor.saved();
    });
  });
}
