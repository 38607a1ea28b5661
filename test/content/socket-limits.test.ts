import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';
import { collaborationUrl } from './support.js';

/**
 * Issue 27 point 3: one token opened 1,000 collaboration sockets on one file. Sockets are capped per user and
 * per file (SVC_COLLAB_SOCKETS_PER_USER, SVC_COLLAB_SOCKETS_PER_FILE); one beyond a cap is closed with 4429
 * and a reason that names the code (127004) and the setting; a socket closed frees its place.
 */
const [sqlite] = testDatabases();

describe('collaboration socket caps', () => {
  let svc: TestService;
  const open: WebSocket[] = [];
  beforeAll(async () => {
    svc = await startService(sqlite!, { integrator: true, collaborationSockets: { perUser: 3, perFile: 5 } });
    for (const [id, token] of [['user-2', 'token-2'], ['user-3', 'token-3'], ['user-4', 'token-4']] as const) svc.integrator.addUser({ id, name: id, token });
    for (const fileId of ['doc', 'other', 'third']) expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId } })).status).toBe(200);
  });
  afterAll(async () => {
    for (const socket of open) socket.terminate();
    await svc.close();
  });

  /** Opens a socket; answers its close code and reason, or nothing once it has stayed open a moment. */
  const connect = async (fileId: string, token = 'user-token') => {
    const socket = new WebSocket(await collaborationUrl(svc, fileId, token));
    open.push(socket);
    return new Promise<{ socket: WebSocket; closed?: { code: number; reason: string } }>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', (code, reason) => resolve({ socket, closed: { code, reason: reason.toString() } }));
      socket.on('open', () => setTimeout(() => resolve({ socket }), 200));
    });
  };

  /** Opens a socket expected to be refused: its close code and reason, however long the close takes. */
  const refused = async (fileId: string, token = 'user-token') => {
    const socket = new WebSocket(await collaborationUrl(svc, fileId, token));
    open.push(socket);
    return new Promise<{ code: number; reason: string }>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  };

  it('closes a socket beyond the per-user cap with 4429 and a clear reason; a closed socket frees its place', async () => {
    const mine = [await connect('doc'), await connect('doc'), await connect('other')];
    expect(mine.map((each) => each.closed)).toEqual([undefined, undefined, undefined]);
    const beyond = await refused('other');
    expect(beyond).toEqual({ code: 4429, reason: expect.stringMatching(/^127004: more than 3 collaboration sockets per user \(SVC_COLLAB_SOCKETS_PER_USER\)/) });
    mine[2]!.socket.close();
    await new Promise((resolve) => mine[2]!.socket.once('close', resolve));
    await expect.poll(async () => (await connect('other')).closed).toBeUndefined();
  });

  it('closes a socket beyond the per-file cap, whoever opens it', async () => {
    // user-token holds 2 sockets on doc; two more users bring it to the cap of 5
    expect((await connect('doc', 'token-2')).closed).toBeUndefined();
    expect((await connect('doc', 'token-2')).closed).toBeUndefined();
    expect((await connect('doc', 'token-3')).closed).toBeUndefined();
    const beyond = await refused('doc', 'token-3');
    expect(beyond).toEqual({ code: 4429, reason: expect.stringMatching(/^127004: more than 5 collaboration sockets per file \(SVC_COLLAB_SOCKETS_PER_FILE\)/) });
    // another file is not affected
    expect((await connect('other', 'token-3')).closed).toBeUndefined();
  });

  it('counts sockets that authenticate with a session ticket in their first message (editor pages) alike', async () => {
    const session = await svc.call('POST', '/sdk/v2/collab-files/third/editor-session', { token: 'token-4' });
    expect(session.status, session.text).toBe(200);
    const ticket = session.body.data.ticket as string;
    /** A bare socket whose first message is Hocuspocus' authentication message with the ticket; its close, if any. */
    const withTicket = async () => {
      const socket = new WebSocket(`${svc.url.replace(/^http/, 'ws')}/sdk/v2/collab-files/third/collaboration`);
      open.push(socket);
      await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
      // lib0 varStrings: a one-byte length for these short ASCII strings
      const varString = (text: string) => [text.length, ...Buffer.from(text)];
      socket.send(Buffer.from([...varString('third'), 2 /* Auth */, 0 /* token */, ...varString(ticket)]));
      return new Promise<{ code: number; reason: string } | undefined>((resolve) => {
        socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
        setTimeout(() => resolve(undefined), 1000);
      });
    };
    expect([await withTicket(), await withTicket(), await withTicket()]).toEqual([undefined, undefined, undefined]);
    expect(await withTicket()).toEqual({ code: 4429, reason: expect.stringMatching(/^127004: more than 3 collaboration sockets per user/) });
  });
});
