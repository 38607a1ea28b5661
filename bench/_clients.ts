/**
 * Shared by benchmarks: headless collaboration clients (the Hocuspocus provider in Node, as the editors use
 * in browsers) and the backend calls that set a document up.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import type { BenchService } from './_service.js';

export interface Client {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
}

export async function until(check: () => boolean, what: string | (() => string), timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A collaboration client of `token`'s user on the file, resolved once it has synced. */
export async function connect(service: BenchService, fileId: string, token: string): Promise<Client> {
  const query = new URLSearchParams({ signature: service.signature, token });
  const socket = new HocuspocusProviderWebsocket({ url: `${service.url.replace('http', 'ws')}/sdk/v2/collab-files/${fileId}/collaboration?${query}`, WebSocketPolyfill: WebSocket });
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: fileId, document: doc, token: 'bench' });
  provider.attach();
  await until(() => provider.isSynced, 'client sync');
  return { doc, provider, socket };
}

export function disconnect(client: Client): void {
  client.provider.destroy();
  client.socket.destroy();
}

/** A paragraph of the rich-text model (docs/CONTENT-MODEL.md). */
export function paragraph(text: string): Y.XmlElement {
  const element = new Y.XmlElement('paragraph');
  element.insert(0, [new Y.XmlText(text)]);
  return element;
}

export async function createFile(service: BenchService, fileId: string, type: string, token: string): Promise<void> {
  const response = await fetch(`${service.url}/sdk/v2/api/files`, {
    method: 'POST',
    headers: { 'x-svc-signature': service.signature, 'x-svc-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ type, fileId }),
  });
  if (!response.ok) throw new Error(`create ${fileId}: ${response.status} ${await response.text()}`);
}
