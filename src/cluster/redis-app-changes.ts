import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { LocalAppChanges, type AppChange, type AppChangeListener, type AppChanges } from '../apps/app-changes.js';
import type { RedisLink } from './redis-link.js';

interface Envelope {
  from: string;
  change: AppChange;
}

function isAppChange(value: unknown): value is AppChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  const strings = (list: unknown) => Array.isArray(list) && list.every((entry) => typeof entry === 'string');
  if (typeof change.appId !== 'string') return false;
  switch (change.kind) {
    case 'settings':
      return true;
    case 'permissions':
      return strings(change.fileIds) && strings(change.userIds);
    case 'push': {
      const push = change.push as Record<string, unknown> | null;
      return typeof push === 'object' && push !== null && typeof push.pushId === 'string' && strings(push.userIds) && typeof push.sentAt === 'string';
    }
    case 'push-receipt':
      return typeof change.pushId === 'string' && typeof change.replyTo === 'string' && typeof change.delivered === 'number';
    case 'file': {
      const fileChange = change.change as Record<string, unknown> | null;
      const known = fileChange?.type === 'deleted' || (fileChange?.type === 'renamed' && typeof fileChange.name === 'string');
      return typeof change.fileId === 'string' && typeof fileChange === 'object' && known;
    }
    case 'user':
      return typeof change.userId === 'string' && (change.user === null || typeof change.user === 'object');
    default:
      return false;
  }
}

/**
 * App changes announced over Redis pub/sub: this process's listeners are told at once, the other processes
 * when the message arrives. A message missed while Redis was away is covered by the short expiry of what the
 * listeners cache (AppService, AccessService).
 */
export class RedisAppChanges implements AppChanges {
  private readonly origin = crypto.randomUUID();
  private readonly channel: string;
  private readonly subscriber: Redis;

  constructor(
    private readonly link: RedisLink,
    namespace: string,
    private readonly local: LocalAppChanges,
    onBadMessage: (why: string) => void,
  ) {
    this.channel = `${namespace}:app-changes`;
    this.subscriber = link.client('app-changes');
    // subscribed on every (re)connection: ioredis resubscribes itself, but not a first subscription that failed
    this.subscriber.on('ready', () => void this.subscriber.subscribe(this.channel).catch(() => undefined));
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(text) as Envelope;
      } catch {
        return onBadMessage('not JSON');
      }
      if (envelope.from === this.origin) return;
      if (!isAppChange(envelope.change)) return onBadMessage('not an app change');
      this.local.deliver(envelope.change);
    });
  }

  async publish(change: AppChange): Promise<number> {
    this.local.deliver(change);
    try {
      // PUBLISH answers how many subscribers got it: one per process, this process's own among them
      const subscribers = await this.link.commands.publish(this.channel, JSON.stringify({ from: this.origin, change } satisfies Envelope));
      return Math.max(0, subscribers - 1);
    } catch {
      // Redis away: the other processes' caches expire shortly (the link logs the outage once)
      return 0;
    }
  }

  subscribe(listener: AppChangeListener): () => void {
    return this.local.subscribe(listener);
  }
}
