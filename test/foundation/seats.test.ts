import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { loadConfig } from '../../src/config.js';
import type { SeatPolicy } from '../../src/apps/seat-policy.js';
import { collaborationUrl, connectEditor } from '../content/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type CallResult, type TestService } from '../support/service.js';

const TABLE_API = '/sdk/v2/api/table-api/openapi/v1';
const COLLAB = '/sdk/v2/collab-files';

/** An upgrade that the service refuses: its HTTP status and the backend envelope it carries. */
function refusedUpgrade(url: string): Promise<{ status: number; body: { status: number; data: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    socket.on('open', () => reject(new Error('the upgrade was accepted')));
    socket.on('error', () => {});
  });
}

for (const database of testDatabases()) {
  describe(`seat policies [${database.name}]`, () => {
    let svc: TestService;
    afterEach(async () => svc.close());

    const license = async (method: string, path: string, body?: unknown) =>
      svc.call(method, `/sdk/v2/api/license${path}`, { signature: await svc.signLicense(), token: null, body });
    const setSeats = async (status: 1 | 0 | -1, ...userIds: string[]) =>
      expect((await license('POST', '/users/set-status', { userIds, status })).status).toBe(200);
    const details = async () => (await license('GET', `/apps/${svc.app.id}`)).body.data;
    const policy = (seatPolicy: SeatPolicy, memberLimit = 1000) => svc.services.apps.update(svc.app.id, { seatPolicy, memberLimit });

    /** Starts the service with a document and a table base everyone may use, and users a…e known to the integrator. */
    async function start(): Promise<void> {
      svc = await startService(database, { integrator: true });
      for (const id of ['a', 'b', 'c', 'd', 'e']) svc.integrator.addUser({ id, name: `User ${id}`, token: `${id}-token` });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' } })).status).toBe(200);
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'table', fileId: 'base' } })).status).toBe(200);
      const everyone = Object.fromEntries([DEFAULT_USER.id, 'a', 'b', 'c', 'd', 'e'].map((id) => [id, { ...ALL_PERMISSIONS }]));
      svc.integrator.addFile({ id: 'doc', type: 'document', grants: everyone });
      svc.integrator.addFile({ id: 'base', type: 'table', grants: everyone });
      // the creation above was by DEFAULT_USER under the default (open) policy: their seat is untouched
    }

    const expectSeatRefusal = (response: CallResult, reason: string, userId: string) => {
      expect(response.status, response.text).toBe(403);
      expect(response.body).toMatchObject({ status: 20011, data: { userId, reason } });
    };

    /** One call of each user-context kind, as `token`'s user. */
    const userCalls = (token: string): Array<[string, () => Promise<CallResult>]> => [
      ['create a file', () => svc.call('POST', '/sdk/v2/api/files', { token, body: { type: 'document', fileId: `new-${token}-${Math.random()}` } })],
      ['plain text', () => svc.call('GET', `${COLLAB}/doc/plain-text`, { token })],
      ['comment list', () => svc.call('GET', `${COLLAB}/doc/comment-count`, { token })],
      ['upload token', () => svc.call('POST', '/uploader/token', { token, body: [{ filename: 'a.png', fileGuid: 'doc', fileSize: 1 }] })],
      ['delete a file', () => svc.call('DELETE', '/sdk/v2/api/files/doc', { token })],
    ];

    it('stays open by default: a disabled user keeps working, as before seat policies', async () => {
      await start();
      expect((await details()).seatPolicy).toBe('open');
      await setSeats(0, 'a');
      expect((await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'a-token' })).status).toBe(200);
    });

    it('strict: refuses a user who is not activated or disabled in every user-context call, the table API and the editor page', async () => {
      await start();
      await policy('strict');
      expect((await details()).seatPolicy).toBe('strict');
      await setSeats(1, 'a');
      await setSeats(0, 'b');
      for (const [token, userId, reason] of [['b-token', 'b', 'disabled'], ['c-token', 'c', 'not-activated']] as const) {
        for (const [name, call] of userCalls(token)) {
          const response = await call();
          expect(response.status, `${name} as ${userId}: ${response.text}`).toBe(403);
          expectSeatRefusal(response, reason, userId);
        }
        const table = await svc.call('GET', `${TABLE_API}/tables`, { token, query: { baseGuid: 'base' } });
        expect(table.status).toBe(403);
        expect(table.body).toMatchObject({ code: 20000, message: expect.stringContaining('seat') });

        const page = await fetch(`${svc.url}${COLLAB}/doc?${new URLSearchParams({ token, signature: await svc.sign(), lang: 'en' })}`);
        const html = await page.text();
        expect(page.status).toBe(403);
        expect(html).toContain('no active seat');
        expect(html).toContain('<code>20011</code>');

        const socket = await refusedUpgrade(await collaborationUrl(svc, 'doc', token));
        expect(socket).toMatchObject({ status: 403, body: { status: 20011, data: { userId, reason } } });
      }
      // the activated user is let in everywhere, and nobody was activated by trying
      for (const [name, call] of userCalls('a-token').slice(0, 4)) expect((await call()).status, name).toBe(200);
      expect((await svc.call('GET', `${TABLE_API}/tables`, { token: 'a-token', query: { baseGuid: 'base' } })).status).toBe(200);
      expect(await details()).toMatchObject({ activatedUserCount: 1, userCount: 2 });
    });

    it('auto: activates a user on first use while seats remain, then refuses newcomers; a disabled user stays refused', async () => {
      await start();
      await policy('auto', 2);
      await setSeats(-1, 'a'); // "not enabled" counts as no seat
      await setSeats(0, 'b');
      expect((await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'a-token' })).status).toBe(200);
      expect((await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'c-token' })).status).toBe(200);
      expect(await details()).toMatchObject({ activatedUserCount: 2, userCount: 3 });
      expectSeatRefusal(await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'd-token' }), 'member-limit', 'd');
      expectSeatRefusal(await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'b-token' }), 'disabled', 'b');
      expect(await details()).toMatchObject({ activatedUserCount: 2, userCount: 3 });
      // a seat freed is taken by the next newcomer
      await setSeats(0, 'c');
      expect((await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'd-token' })).status).toBe(200);
      expectSeatRefusal(await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'c-token' }), 'disabled', 'c');
    });

    it('auto: concurrent first uses never take more seats than the member limit', async () => {
      await start();
      await policy('auto', 3);
      const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => svc.call('GET', `${COLLAB}/doc/plain-text`, { token: `${id}-token` })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
      for (const refused of answers.filter((answer) => answer.status !== 200)) expect(refused.body).toMatchObject({ status: 20011, data: { reason: 'member-limit' } });
      expect(await details()).toMatchObject({ activatedUserCount: 3, userCount: 3 });
    });

    it('refuses the latest activations beyond a lowered member limit, and lets them back when it rises', async () => {
      await start();
      await policy('strict', 3);
      for (const id of ['a', 'b', 'c']) {
        await setSeats(1, id);
        await new Promise((resolve) => setTimeout(resolve, 5)); // distinct activation times
      }
      await policy('strict', 2);
      expect((await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'a-token' })).status).toBe(200);
      expect((await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'b-token' })).status).toBe(200);
      expectSeatRefusal(await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'c-token' }), 'member-limit', 'c');
      await policy('strict', 3);
      expect((await svc.call('GET', `${COLLAB}/doc/plain-text`, { token: 'c-token' })).status).toBe(200);
    });

    it('closes an open editor whose seat is disabled, at the next permission check', async () => {
      svc = await startService(database, { integrator: true, content: { ...loadConfig({}).content, permissionRecheckMs: 150 } });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' } })).status).toBe(200);
      svc.integrator.addFile({ id: 'doc', grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
      await policy('strict');
      await setSeats(1, DEFAULT_USER.id);
      const editor = await connectEditor(svc, 'doc');
      try {
        await setSeats(0, DEFAULT_USER.id);
        await eventually(() => editor.closes.includes(4403), 'session closed after the seat was disabled');
      } finally {
        await editor.close();
      }
    });

    it('refuses an unknown seat policy with 20003', async () => {
      await start();
      await expect(svc.services.apps.update(svc.app.id, { seatPolicy: 'lenient' as SeatPolicy })).rejects.toMatchObject({ spec: { code: 20003 } });
      expect((await details()).seatPolicy).toBe('open');
    });
  });
}
