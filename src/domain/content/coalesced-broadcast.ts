import { Document, OutgoingMessage, type Connection } from '@hocuspocus/server';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';

/**
 * One frame per document per tick to each editor (issue 21 point 4; docs/PERFORMANCE.md "Collaboration fan-out,
 * coalesced").
 *
 * Hocuspocus 3 sends every document update the moment it is applied, as its own WebSocket frame to each
 * connection, and encodes every awareness change again for each connection: a keystroke is two frames (the
 * update, the writer's caret) to each of the document's connections, and a burst that a loaded process reads in
 * one go is two frames per change per connection. Here the updates and awareness changes a document receives
 * while the event loop handles one round of input wait until that round is over (setImmediate: the "check"
 * phase, after every socket that had data was read); then they are merged into one update (Y.mergeUpdates) and
 * one awareness message, each encoded once, and the same bytes go to every connection.
 *
 * Hocuspocus offers no hook for its broadcast, so this is a documented minimal override: the two methods its
 * Document binds as listeners in its constructor (`handleUpdate` for the Y.Doc's "update", `handleAwarenessUpdate`
 * for the awareness' "update") are replaced on its prototype before any document exists. Everything else they
 * did stays as it was and happens at once: the update callback (Hocuspocus' onChange and store hooks, so the
 * Redis fan-out and storage see each update when it happens) and the bookkeeping of which awareness clients a
 * connection carries (read when it closes). What changes is only when the frames leave and how many there are.
 * Every connection still gets every change: one that joins within the round gets the full state in its sync
 * answer and the round's update again, which Yjs applies once.
 */

/** An awareness "update" event's payload (y-protocols): client ids added, updated, removed. */
export interface AwarenessChange {
  added: number[];
  updated: number[];
  removed: number[];
}

/**
 * The Document methods replaced, as Hocuspocus 3.x declares them (src/Document.ts, private there): the second
 * argument is the change's origin, a Connection for a client's update, a WebSocket for a client's awareness.
 */
interface BroadcastMethods {
  handleUpdate(this: Document, update: Uint8Array, origin: Connection): Document;
  handleAwarenessUpdate(this: Document, change: AwarenessChange, origin: WebSocket | null): Document;
}

/** What one document has to send when the round is over. */
export interface RoundChanges {
  updates: Uint8Array[];
  awarenessClients: Set<number>;
}

/**
 * Collects what documents change during one round of input and hands each document's changes to `send` once the
 * round is over (setImmediate). The local broadcast keeps one, the Redis fan-out another
 * (src/cluster/collaboration-fanout.ts).
 */
export class RoundCollector {
  private readonly waiting = new Map<Document, RoundChanges>();
  private scheduled = false;

  constructor(private readonly send: (document: Document, changes: RoundChanges) => void) {}

  /** The changes `document` has to send at the end of this round, to be added to. */
  changesOf(document: Document): RoundChanges {
    let changes = this.waiting.get(document);
    if (!changes) {
      changes = { updates: [], awarenessClients: new Set() };
      this.waiting.set(document, changes);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.endRound());
    }
    return changes;
  }

  private endRound(): void {
    this.scheduled = false;
    const round = [...this.waiting];
    this.waiting.clear();
    for (const [document, changes] of round) this.send(document, changes);
  }
}

/**
 * A document's round as Hocuspocus messages, each encoded once: its updates merged into one sync message, its
 * awareness changes into one awareness message (from the awareness as it is now: a client changed twice in the
 * round is sent once, as it is now). Also what the Redis fan-out publishes (src/cluster/collaboration-fanout.ts).
 */
export function roundMessages(document: Document, updates: Uint8Array[], awarenessClients: ReadonlySet<number>): Uint8Array[] {
  const messages: Uint8Array[] = [];
  if (updates.length > 0) {
    const update = updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates);
    messages.push(new OutgoingMessage(document.name).createSyncMessage().writeUpdate(update).toUint8Array());
  }
  if (awarenessClients.size > 0) {
    messages.push(new OutgoingMessage(document.name).createAwarenessUpdateMessage(document.awareness, [...awarenessClients]).toUint8Array());
  }
  return messages;
}

/** Sends each document's round: its updates, then its awareness changes, the same bytes to every connection. */
const broadcastRound = new RoundCollector((document, { updates, awarenessClients }) => {
  if (document.isDestroyed) return;
  const connections = document.getConnections();
  // nobody to merge for: a document loading (its stored content arrives as updates) or one its editors left
  if (connections.length === 0) return;
  for (const message of roundMessages(document, updates, awarenessClients)) {
    for (const connection of connections) connection.send(message);
  }
});

const coalesced: BroadcastMethods = {
  handleUpdate(update, origin) {
    // Hocuspocus' own callback, at once: onChange hooks (Redis fan-out) and the store debounce
    this.callbacks.onUpdate(this, origin, update);
    broadcastRound.changesOf(this).updates.push(update);
    return this;
  },
  handleAwarenessUpdate({ added, updated, removed }, origin) {
    // the clients a connection carries are removed with it when it closes: kept current at once, as Hocuspocus does
    const carrier = origin ? this.connections.get(origin) : undefined;
    if (carrier) {
      for (const client of added) carrier.clients.add(client);
      for (const client of removed) carrier.clients.delete(client);
    }
    const clients = broadcastRound.changesOf(this).awarenessClients;
    for (const client of [...added, ...updated, ...removed]) clients.add(client);
    return this;
  },
};

let installed = false;

/**
 * Replaces Hocuspocus' per-update broadcast by the per-round one, for every Document created from now on (the
 * content engine calls it before it creates its first Hocuspocus server). Throws when the Hocuspocus in use no
 * longer has the methods replaced: an upgrade must be checked against this file rather than silently send
 * twice or not at all.
 */
export function installCoalescedBroadcast(): void {
  if (installed) return;
  const prototype = Document.prototype as unknown as Record<keyof BroadcastMethods, unknown>;
  for (const name of Object.keys(coalesced) as Array<keyof BroadcastMethods>) {
    if (typeof prototype[name] !== 'function') throw new Error(`@hocuspocus/server's Document has no ${name} any more: review src/domain/content/coalesced-broadcast.ts`);
  }
  Object.assign(prototype, coalesced);
  installed = true;
}
