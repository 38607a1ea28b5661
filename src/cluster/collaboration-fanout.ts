import crypto from 'node:crypto';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import { OutgoingMessage } from '@hocuspocus/server';
import type {
  afterLoadDocumentPayload,
  afterUnloadDocumentPayload,
  beforeBroadcastStatelessPayload,
  Extension,
  onChangePayload,
} from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket } from 'ws';
import { RoundCollector, roundMessages, type AwarenessChange } from '../domain/content/coalesced-broadcast.js';
import type { CollaborationFanout } from '../domain/content/content-service.js';
import type { RedisLink } from './redis-link.js';

/**
 * How often at most a document changing here publishes its state vector to the other processes (the exchange
 * that makes good a message lost on the way), and how long after its last change it does so once more.
 */
export const STATE_EXCHANGE_MS = 1000;

/**
 * Hocuspocus's own Redis extension for one application, made to survive Redis going away:
 * - its own key prefix and its own subscriber, so applications sharing a Redis never meet: the extension finds
 *   a document by the name inside a message, and documents are named by fileId, unique per app only;
 * - a hook that fails because Redis is away does not fail the document or the broadcast (the storage poll
 *   carries content meanwhile); documents loaded while it was away are subscribed (and synced) when it returns;
 * - no store lock: the content engine stores each update itself before acknowledging it, on the process that
 *   received it (so recording happens there only), and never through Hocuspocus's store hooks;
 * - coalesced as the local broadcast is (src/domain/content/coalesced-broadcast.ts): what a document received
 *   from this process's editors during one round of input is published once when the round is over, its
 *   updates merged into one message and its awareness changes into another, rather than a message per change
 *   plus a state-vector exchange per change (which cost every other process two more publishes each, one per
 *   update: O(processes²) messages per keystroke).
 */
class AppFanout extends RedisExtension {
  /** documents open here that are not subscribed yet (loaded while Redis was away) */
  private readonly waiting = new Map<string, afterLoadDocumentPayload>();
  /**
   * what each document changed by this process's editors publishes at the end of the round: one message of its
   * merged updates, one of its awareness changes
   */
  private readonly round = new RoundCollector((document, { updates, awarenessClients }) => {
    const channel = `${this.configuration.prefix}:${document.name}`;
    for (const message of roundMessages(document, updates, awarenessClients)) {
      void this.quietly(() => this.pub.publish(channel, Buffer.concat([this.messagePrefix, message])), 0);
    }
  });
  /** documents whose state vector is to be published (STATE_EXCHANGE_MS after a change, at most that often) */
  private readonly exchanges = new Map<string, NodeJS.Timeout>();

  constructor(
    link: RedisLink,
    appId: string,
    namespace: string,
    private readonly log: () => FastifyBaseLogger | undefined,
  ) {
    let made = 0;
    super({
      prefix: `${namespace}:collab:${appId}`,
      identifier: `svc-${crypto.randomUUID()}`,
      createClient: () => link.client(`collab-${appId}-${made++ === 0 ? 'pub' : 'sub'}`),
    });
    this.sub.on('ready', () => this.subscribeWaiting());
  }

  override async afterLoadDocument(data: afterLoadDocumentPayload): Promise<void> {
    const { document } = data;
    // the awareness changes of this process's own connections (a connection's socket is the origin; null: a
    // connection closed); those applied from Redis (no origin) are the other processes' and are not sent back
    document.awareness.on('update', ({ added, updated, removed }: AwarenessChange, origin: unknown) => {
      const local = origin === null || (origin instanceof WebSocket && document.connections.has(origin));
      if (!local) return;
      const clients = this.round.changesOf(document).awarenessClients;
      for (const client of [...added, ...updated, ...removed]) clients.add(client);
    });
    this.waiting.set(data.documentName, data);
    await this.subscribeWaiting();
  }

  override async afterUnloadDocument(data: afterUnloadDocumentPayload): Promise<void> {
    if (data.instance.documents.has(data.documentName)) return;
    clearTimeout(this.exchanges.get(data.documentName));
    this.exchanges.delete(data.documentName);
    this.waiting.delete(data.documentName);
    await this.sub.unsubscribe(`${this.configuration.prefix}:${data.documentName}`).catch(() => undefined);
  }

  override async onStoreDocument(): Promise<void> {}

  override async afterStoreDocument(): Promise<void> {}

  /**
   * The extension announces a change by publishing the document's state vector, and the update itself follows
   * after two more trips through Redis (the others answer with theirs, this process with what they lack).
   * Here the update itself is published, once per round with the round's other updates merged into it; the
   * state-vector exchange follows STATE_EXCHANGE_MS later (at most that often while the document keeps
   * changing) as the safety net that makes good a message lost on the way.
   */
  override async onChange(data: onChangePayload): Promise<void> {
    if (data.transactionOrigin === this.redisTransactionOrigin) return;
    this.round.changesOf(data.document).updates.push(data.update);
    if (this.exchanges.has(data.documentName)) return;
    this.exchanges.set(
      data.documentName,
      setTimeout(() => {
        this.exchanges.delete(data.documentName);
        void this.quietly(() => super.onChange(data), undefined);
      }, STATE_EXCHANGE_MS),
    );
  }

  /** Published at the end of the round with the document's other awareness changes (afterLoadDocument). */
  override async onAwarenessUpdate(): Promise<undefined> {
    return undefined;
  }

  /** resolves to the number of Redis subscribers reached (0 while Redis is away) */
  override beforeBroadcastStateless(data: beforeBroadcastStatelessPayload): Promise<number> {
    return this.quietly(() => super.beforeBroadcastStateless(data), 0);
  }

  /** Subscribes the documents waiting for it; one that fails waits for Redis's return. */
  private async subscribeWaiting(): Promise<void> {
    // (an unloaded document leaves the list in afterUnloadDocument)
    for (const [name, payload] of [...this.waiting]) {
      try {
        // subscribes, then publishes this process's state (sync step 1) so the others send what it lacks
        await super.afterLoadDocument(payload);
        this.waiting.delete(name);
      } catch (error) {
        this.log()?.debug({ err: error, document: name }, 'collaboration fan-out: subscription waits for Redis');
        return;
      }
    }
  }

  /** Redis away: the other processes get the change through the storage poll instead; the link logs the outage. */
  private async quietly<T>(publish: () => Promise<T>, away: T): Promise<T> {
    try {
      return await publish();
    } catch (error) {
      // see RedisLink: an outage is logged once there
      this.log()?.debug({ err: error }, 'collaboration fan-out: not published');
      return away;
    }
  }
}

/** Collaboration fan-out over Redis: one extension (connections, prefix) per application with live documents here. */
export class RedisCollaborationFanout implements CollaborationFanout {
  private log: FastifyBaseLogger | undefined;
  /** framing of the extension's messages: length-prefixed sender identifier, then the Hocuspocus message */
  private readonly sender: Buffer;

  constructor(
    private readonly link: RedisLink,
    private readonly namespace: string,
  ) {
    const identifier = Buffer.from(`svc-${crypto.randomUUID()}`);
    this.sender = Buffer.concat([Buffer.from([identifier.length]), identifier]);
  }

  setLogger(log: FastifyBaseLogger): void {
    this.log = log;
  }

  extension(appId: string): Extension {
    return new AppFanout(this.link, appId, this.namespace, () => this.log);
  }

  connected(): boolean {
    return this.link.isUp();
  }

  update(appId: string, fileId: string, update: Uint8Array): void {
    this.publish(appId, fileId, new OutgoingMessage(fileId).createSyncMessage().writeUpdate(update));
  }

  broadcastStateless(appId: string, fileId: string, payload: string): void {
    this.publish(appId, fileId, new OutgoingMessage(fileId).writeBroadcastStateless(payload));
  }

  /** On the channel the extension of the app subscribes to for the file, as a message of another sender. */
  private publish(appId: string, fileId: string, message: OutgoingMessage): void {
    const channel = `${this.namespace}:collab:${appId}:${fileId}`;
    this.link.commands.publish(channel, Buffer.concat([this.sender, message.toUint8Array()])).catch(() => {
      // Redis away: the storage poll carries content meanwhile; the link logs the outage once
    });
  }
}
