import crypto from 'node:crypto';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import { OutgoingMessage } from '@hocuspocus/server';
import type {
  afterLoadDocumentPayload,
  afterUnloadDocumentPayload,
  beforeBroadcastStatelessPayload,
  Extension,
  onAwarenessUpdatePayload,
  onChangePayload,
} from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { CollaborationFanout } from '../domain/content/content-service.js';
import type { RedisLink } from './redis-link.js';

/**
 * Hocuspocus's own Redis extension for one application, made to survive Redis going away:
 * - its own key prefix and its own subscriber, so applications sharing a Redis never meet: the extension finds
 *   a document by the name inside a message, and documents are named by fileId, unique per app only;
 * - a hook that fails because Redis is away does not fail the document or the broadcast (the storage poll
 *   carries content meanwhile); documents loaded while it was away are subscribed (and synced) when it returns;
 * - no store lock: the content engine stores each update itself before acknowledging it, on the process that
 *   received it (so recording happens there only), and never through Hocuspocus's store hooks.
 */
class AppFanout extends RedisExtension {
  /** documents open here that are not subscribed yet (loaded while Redis was away) */
  private readonly waiting = new Map<string, afterLoadDocumentPayload>();

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
    this.waiting.set(data.documentName, data);
    await this.subscribeWaiting();
  }

  override async afterUnloadDocument(data: afterUnloadDocumentPayload): Promise<void> {
    if (data.instance.documents.has(data.documentName)) return;
    this.waiting.delete(data.documentName);
    await this.sub.unsubscribe(`${this.configuration.prefix}:${data.documentName}`).catch(() => undefined);
  }

  override async onStoreDocument(): Promise<void> {}

  override async afterStoreDocument(): Promise<void> {}

  /**
   * The extension announces a change by publishing the document's state vector, and the update itself follows
   * after two more trips through Redis (the others answer with theirs, this process with what they lack).
   * Publishing the update first makes it one trip; the state vector still follows, so a message lost on the
   * way is made good by that exchange.
   */
  override onChange(data: onChangePayload): Promise<unknown> {
    return this.quietly(async () => {
      if (data.transactionOrigin !== this.redisTransactionOrigin) {
        const message = new OutgoingMessage(data.documentName).createSyncMessage().writeUpdate(data.update).toUint8Array();
        await this.pub.publish(`${this.configuration.prefix}:${data.documentName}`, Buffer.concat([this.messagePrefix, message]));
      }
      return super.onChange(data);
    }, undefined);
  }

  override onAwarenessUpdate(data: onAwarenessUpdatePayload): Promise<number | undefined> {
    return this.quietly(() => super.onAwarenessUpdate(data), undefined);
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
