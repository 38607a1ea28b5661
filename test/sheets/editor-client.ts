import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { sheetModels, type SheetModel } from '../../src/model/sheets/sheet-model.js';
import type { TestService } from '../support/service.js';

/** A collaboration client connected to a file, as a spreadsheet editor in a browser would be. */
export interface EditorClient {
  doc: Y.Doc;
  /** a sheet (the first by default) as the editor sees it, through the sheet model */
  sheet(sheetIndex?: number): SheetModel;
  close(): void;
}

/** Connects a Yjs client to the file's collaboration endpoint and waits until it is in sync. */
export async function connectEditor(svc: TestService, fileId: string, token = 'user-token'): Promise<EditorClient> {
  const signature = await svc.sign();
  const url = `${svc.url.replace('http', 'ws')}/sdk/v2/collab-files/${encodeURIComponent(fileId)}/collaboration?signature=${signature}&token=${token}`;
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket, maxAttempts: 1 });
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: fileId, document: doc });
  provider.attach();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('editor did not sync within 10 s')), 10_000);
    provider.on('synced', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    doc,
    sheet: (sheetIndex = 0) => sheetModels(doc)[sheetIndex]!,
    close() {
      provider.destroy();
      socket.destroy();
    },
  };
}
