/**
 * What enforcing spreadsheet locks costs a collaboration update (docs/PERFORMANCE.md "Locks"): `npx tsx bench/lock-enforcement.ts`.
 */
import * as Y from 'yjs';
import { appendSheet, sheetModels } from '../src/model/sheets/sheet-model.js';
import { setLock } from '../src/model/sheets/locks.js';
import { refuseLockedUpdate } from '../src/domain/content/lock-enforcement.js';
const doc = new Y.Doc();
doc.transact(() => { const s = appendSheet(doc, 'Sheet1'); s.growTo(10000, 10); for (let r = 0; r < 10000; r++) for (let c = 0; c < 10; c++) s.setCell(r, c, { v: r * c }); });
const peer = new Y.Doc(); Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc));
let counter = 100;
const next = () => { const row = counter++; const ups: Uint8Array[] = []; const f = (u: Uint8Array) => ups.push(u); peer.on('update', f); sheetModels(peer)[0]!.setCell(row, 0, { v: 'x' + row }); peer.off('update', f); return ups[0]!; };
const time = (label: string, user: { userId: string; manageable: boolean }) => { const n = 50; const all: number[] = []; for (let i = 0; i < n; i++) { const u = next(); const t = performance.now(); refuseLockedUpdate(doc, u, user); all.push(performance.now() - t); Y.applyUpdate(doc, u); } const rest = all.slice(1); console.log(`${label}: first ${all[0]!.toFixed(1)} ms, then mean ${(rest.reduce((a, b) => a + b, 0) / rest.length).toFixed(3)} ms`); };
console.log('cells 100000, state bytes', Y.encodeStateAsUpdate(doc).byteLength);
time('no locks, manageable', { userId: 'a', manageable: true });
time('no locks, not manageable', { userId: 'b', manageable: false });
doc.transact(() => setLock(sheetModels(doc)[0]!, { id: 'l', type: 'range', lockerId: 'a', visitorPermission: 'readable', users: {}, departments: {}, groups: {}, areas: [{ startRow: 5, endRow: 9, startColumn: 1, endColumn: 2 }] }));
Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc));
time('a lock allowing the user', { userId: 'a', manageable: true });
time('a lock excluding the user, edits outside it', { userId: 'b', manageable: false });
