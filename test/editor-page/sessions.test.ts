import { PassThrough } from 'node:stream';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { SHEET_MODEL_VERSION } from '../../src/model/content.js';
import { appendParagraph } from '../content/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';

/**
 * Sessions without tokens in URLs (issue 27 point 2, docs/SDK.md): the editor page carries a session ticket, never
 * the token or the signature; the ticket works for its one file and user, on the API, for images and on the
 * collaboration socket (in the first message, not the URL); it is renewed and revoked; no log line holds a credential.
 */
describe.each(testDatabases())('editor sessions ($name)', (db) => {
  let svc: TestService;
  let signature: string;
  const log = new PassThrough();
  let logText = '';
  log.on('data', (chunk: Buffer) => (logText += chunk.toString()));

  beforeAll(async () => {
    svc = await startService(db, { integrator: { autoFiles: false }, logTo: log });
    signature = await svc.sign();
    svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
    for (const id of ['doc', 'other']) {
      svc.integrator.addFile({ id, type: 'document', name: id, grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS }, reader: { readable: true } } });
      expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: id } })).status).toBe(200);
    }
    svc.integrator.addFile({ id: 'sheet', type: 'spreadsheet', name: 'sheet', grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
    expect((await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'sheet' } })).status).toBe(200);
  });
  afterAll(async () => svc.close());

  const openPage = async (token = 'user-token', fileId = 'doc') => {
    const response = await fetch(`${svc.url}/sdk/v2/collab-files/${fileId}?${new URLSearchParams({ token, signature, lang: 'en' })}`);
    const html = await response.text();
    const boot = JSON.parse(/<script type="application\/json" id="svc-boot">([^<]*)<\/script>/.exec(html)![1]!) as { session: { ticket: string; expiresAt: number; signatureExpiresAt: number } };
    return { html, session: boot.session };
  };
  const withTicket = (ticket: string, method: string, path: string, query?: Record<string, string>) =>
    svc.call(method, path, { signature: null, token: null, headers: { 'x-svc-session-token': ticket }, ...(query ? { query } : {}) });

  it('the page carries a session ticket and neither the token nor the signature; the ticket works for its file only', async () => {
    const { html, session } = await openPage();
    expect(html).not.toContain('user-token');
    expect(html).not.toContain(signature);
    expect(html).not.toContain(signature.split('.')[2]!);
    expect(session.expiresAt).toBeLessThanOrEqual(Date.now() + 600_000);
    // the signature's exp plus the 5 s of clock tolerance the service allows it
    expect(session.signatureExpiresAt).toBe((JSON.parse(Buffer.from(signature.split('.')[1]!, 'base64url').toString()).exp + 5) * 1000);

    expect((await withTicket(session.ticket, 'GET', '/sdk/v2/collab-files/doc/plain-text')).status).toBe(200);
    const other = await withTicket(session.ticket, 'GET', '/sdk/v2/collab-files/other/plain-text');
    expect(other.status).toBe(403);
    expect(other.body.status).toBe(127101);
    // images cannot send headers: the ticket in the query
    const query = await svc.call('GET', '/sdk/v2/collab-files/doc/plain-text', { signature: null, token: null, query: { sessionToken: session.ticket } });
    expect(query.status).toBe(200);
    // the ticket is no signature: routes that need the application's own signature do not take it
    expect((await withTicket(session.ticket, 'GET', `/sdk/v2/api/license/apps/${svc.app.id}`)).status).toBe(401);
    const forged = await withTicket(`${session.ticket.slice(0, -2)}xx`, 'GET', '/sdk/v2/collab-files/doc/plain-text');
    expect(forged.status).toBe(401);
    expect(forged.body.status).toBe(127100);
    await expect(svc.services.sessionTickets.resolve(session.ticket, session.expiresAt)).rejects.toMatchObject({ spec: { code: 127100 } });
  });

  it('a ticket is renewed (the old one cut short), a new session opens from fresh credentials, and a refusal of the integrator revokes it', async () => {
    const { session } = await openPage('reader-token');
    const renewed = await withTicket(session.ticket, 'POST', '/sdk/v2/collab-files/doc/editor-session');
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.data.ticket).not.toBe(session.ticket);
    expect((await withTicket(renewed.body.data.ticket, 'GET', '/sdk/v2/collab-files/doc/plain-text')).status).toBe(200);
    await expect(svc.services.sessionTickets.resolve(session.ticket, Date.now() + 31_000)).rejects.toMatchObject({ spec: { code: 127100 } });

    const fresh = await svc.call('POST', '/sdk/v2/collab-files/doc/editor-session', { token: 'reader-token' });
    expect(fresh.status, fresh.text).toBe(200);
    const ticket = fresh.body.data.ticket as string;

    svc.integrator.grant('doc', 'reader', { readable: false });
    svc.services.access.forget();
    const refused = await withTicket(ticket, 'POST', '/sdk/v2/collab-files/doc/editor-session');
    expect(refused.status).toBe(403);
    svc.integrator.grant('doc', 'reader', { readable: true });
    svc.services.access.forget();
    // revoked: readable again, the ticket stays dead (the page must open a new session)
    const after = await withTicket(ticket, 'GET', '/sdk/v2/collab-files/doc/plain-text');
    expect(after.status).toBe(401);
    expect(after.body.status).toBe(127100);
  });

  it('the collaboration socket takes the ticket in its first message, with no credential in its URL; a bad ticket is closed with 4401', async () => {
    const url = `${svc.url.replace(/^http/, 'ws')}/sdk/v2/collab-files/doc/collaboration`;
    const connect = (ticket: string) => {
      const doc = new Y.Doc();
      const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
      const provider = new HocuspocusProvider({ websocketProvider: socket, name: 'doc', document: doc, token: ticket });
      provider.attach();
      return { doc, provider, socket };
    };
    const { session } = await openPage();
    const editor = connect(session.ticket);
    await eventually(() => editor.provider.isSynced, 'synced with a ticket');
    appendParagraph(editor.doc, 'written with a ticket');
    await eventually(() => !editor.provider.hasUnsyncedChanges, 'stored');
    const text = await svc.call('GET', '/sdk/v2/collab-files/doc/plain-text');
    expect(text.body.data.content).toContain('written with a ticket');
    editor.provider.destroy();
    editor.socket.destroy();

    // a bare socket whose first message is Hocuspocus' authentication message with a ticket that is none
    const refusedWith = async (ticket: string, documentName = 'doc') => {
      const socket = new WebSocket(url);
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise((resolve) => socket.on('open', resolve));
      // lib0 varStrings: one length byte for these short ASCII strings
      const varString = (text: string) => [text.length, ...Buffer.from(text)];
      socket.send(Buffer.from([...varString(documentName), 2 /* Auth */, 0 /* token */, ...varString(ticket)]));
      return closed;
    };
    expect(await refusedWith('svs_not-a-ticket')).toBe(4401);
    expect(await refusedWith(session.ticket, 'other')).toBe(4401);
  });

  it('a spreadsheet editor page that does not state the current grid model is closed with 4426; one that does syncs', async () => {
    const { session } = await openPage('user-token', 'sheet');
    const base = `${svc.url.replace(/^http/, 'ws')}/sdk/v2/collab-files/sheet/collaboration`;
    const closedWith = async (url: string) => {
      const socket = new WebSocket(url);
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise((resolve) => socket.on('open', resolve));
      const varString = (text: string) => [...(text.length < 128 ? [text.length] : [(text.length & 127) | 128, text.length >> 7]), ...Buffer.from(text)];
      socket.send(Buffer.from([...varString('sheet'), 2 /* Auth */, 0 /* token */, ...varString(session.ticket)]));
      return closed;
    };
    // version 1's editor code states no grid model; a page of a newer or older model states another
    expect(await closedWith(base)).toBe(4426);
    expect(await closedWith(`${base}?gridModel=1`)).toBe(4426);
    // version 2's pages write formulas in A1 form, which version 3 reads as relative to their cells
    expect(await closedWith(`${base}?gridModel=2`)).toBe(4426);
    // version 3's pages read a block that keeps its styles once (version 4) as empty
    expect(await closedWith(`${base}?gridModel=3`)).toBe(4426);
    const doc = new Y.Doc();
    const socket = new HocuspocusProviderWebsocket({ url: `${base}?gridModel=${SHEET_MODEL_VERSION}`, WebSocketPolyfill: WebSocket });
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: 'sheet', document: doc, token: session.ticket });
    provider.attach();
    await eventually(() => provider.isSynced, 'synced with the current grid model');
    provider.destroy();
    socket.destroy();
  });

  it('no log line holds the token, the signature or a ticket', async () => {
    const { session } = await openPage();
    await svc.call('GET', '/sdk/v2/collab-files/doc/plain-text', { signature: null, token: null, query: { sessionToken: session.ticket } });
    await eventually(() => logText.includes('sessionToken=[redacted]'), 'the request logged');
    expect(logText).toContain('token=[redacted]');
    for (const secret of ['user-token', signature, session.ticket]) expect(logText).not.toContain(secret);
  });
});
