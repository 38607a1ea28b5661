import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { sql } from 'kysely';
import WebSocket from 'ws';
import * as Y from 'yjs';
import type { Config } from '../../src/config.js';
import { buildServer } from '../../src/server.js';
import { createServices, type Services } from '../../src/services.js';
import { openStorage, type StorageOptions } from '../../src/storage/database.js';
import { eventually } from '../support/integrator.js';
import type { TestService } from '../support/service.js';

/** A collaboration client as a browser editor runs it: a Y.Doc synced through the Hocuspocus provider. */
export interface Editor {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** resolves when the server acknowledged every local change (stored durably) */
  saved(): Promise<void>;
  /** close codes of the provider's socket, in order (4403 access revoked, 4404 file deleted, …) */
  closes: number[];
  close(): Promise<void>;
}

export async function collaborationUrl(svc: { url: string; sign: TestService['sign'] }, fileId: string, token = 'user-token', signature?: string): Promise<string> {
  const query = new URLSearchParams({ signature: signature ?? (await svc.sign()), token });
  return `${svc.url.replace(/^http/, 'ws')}/sdk/v2/collab-files/${encodeURIComponent(fileId)}/collaboration?${query}`;
}

/** Connects an editor and waits for the first sync; `readOnly` tells what the server granted. */
export async function connectEditor(svc: { url: string; sign: TestService['sign'] }, fileId: string, options: { token?: string; doc?: Y.Doc } = {}): Promise<Editor & { readOnly: boolean }> {
  const doc = options.doc ?? new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url: await collaborationUrl(svc, fileId, options.token), WebSocketPolyfill: WebSocket });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: fileId, document: doc, token: 'editor' });
  const closes: number[] = [];
  socket.on('close', ({ event }: { event: { code: number } }) => closes.push(event.code));
  provider.attach();
  await eventually(() => provider.isSynced, `editor synced on ${fileId}`);
  return {
    doc,
    provider,
    readOnly: provider.authorizedScope === 'readonly',
    closes,
    saved: () => eventually(() => !provider.hasUnsyncedChanges, 'changes acknowledged'),
    async close() {
      provider.destroy();
      socket.destroy();
    },
  };
}

/**
 * A bare collaboration WebSocket that speaks just enough of the Hocuspocus protocol (the auth message) to send
 * hand-made messages: `send(bytes)` prefixes the document name; `closed` resolves with the close code;
 * `received` holds every message the server sent it, as sent (one per WebSocket frame).
 */
export async function rawCollaborationClient(
  svc: { url: string; sign: TestService['sign'] },
  fileId: string,
): Promise<{ send(message: number[] | Buffer): void; closed: Promise<number>; received: Buffer[] }> {
  const socket = new WebSocket(await collaborationUrl(svc, fileId));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const received: Buffer[] = [];
  socket.on('message', (data: Buffer) => received.push(data));
  await new Promise((resolve) => socket.on('open', resolve));
  const name = Buffer.from(fileId);
  const send = (message: number[] | Buffer) => socket.send(Buffer.concat([Buffer.from([name.length]), name, Buffer.from(message)]));
  send([2, 0, 0]); // Auth, token message, empty token
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { send, closed, received };
}

/** Answer of an upgrade the server refused: HTTP status and the backend envelope. */
export function refusedUpgrade(url: string): Promise<{ status: number; body: { status: number; message: string } }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('open', () => {
      socket.close();
      reject(new Error('upgrade was accepted'));
    });
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    socket.on('error', () => undefined);
  });
}

/** How another process opens the database of `svc` (the SQLite folder, or the PostgreSQL schema). */
export async function storageOptionsOf(svc: TestService): Promise<StorageOptions> {
  const { config, storage } = svc.services;
  if (storage.engine !== 'postgres') return { dataDir: config.dataDir };
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db)).rows[0]!.schema;
  return { databaseUrl: config.databaseUrl, pgSchema: schema, dataDir: config.dataDir };
}

/**
 * A second service process on the same database (its own storage connection, services, Hocuspocus and
 * HTTP port), as a second `npm start` against the same SQLite file or PostgreSQL schema would be.
 */
export async function startPeer(svc: TestService, content: Partial<Config['content']> = {}): Promise<{ url: string; services: Services; sign: TestService['sign']; close(): Promise<void> }> {
  const { config } = svc.services;
  const peerStorage = await openStorage(await storageOptionsOf(svc));
  const services = createServices({ ...config, content: { ...config.content, ...content } }, peerStorage);
  const server = await buildServer(services, { logger: false });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('peer did not bind');
  return {
    url: `http://127.0.0.1:${address.port}`,
    services,
    sign: svc.sign,
    async close() {
      await server.close();
      await peerStorage.close();
    },
  };
}

/** Plain text of a file through the backend API of `svc` (or a peer). */
export async function plainText(svc: TestService, fileId: string, base?: string): Promise<string> {
  const response = base
    ? await fetch(`${base}/sdk/v2/collab-files/${fileId}/plain-text`, { headers: { 'x-svc-signature': await svc.sign(), 'x-svc-token': 'user-token' } }).then((r) => r.json() as Promise<{ status: number; data: { content: string } }>)
    : (await svc.call('GET', `/sdk/v2/collab-files/${fileId}/plain-text`)).body;
  if (response.status !== 0) throw new Error(`plain-text failed: ${JSON.stringify(response)}`);
  return response.data.content;
}

/** Appends a paragraph with `text` to a rich-text document (as an editor would). */
export function appendParagraph(doc: Y.Doc, text: string): void {
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [new Y.XmlText(text)]);
  const root = doc.getXmlFragment('default');
  root.insert(root.length, [paragraph]);
}
