import type { Storage } from '../../storage/database.js';
import type { EventSink } from '../content/content-service.js';
import type { FileService } from '../files/file-service.js';
import type { ConversationListener } from './conversation-notices.js';
import type { Participants } from './participants.js';

/** What the comment, discussion and date-mention services stand on (built once in src/services.ts). */
export interface ConversationDeps {
  storage: Storage;
  /** the file registry: a conversation belongs to a registered file */
  files: FileService;
  /** who acts, what they may do, and the names of the people named */
  people: Participants;
  /** events, written in the transaction of the change */
  outbox: EventSink;
  /** told after each change committed (open editors hear of it) */
  changed: ConversationListener;
}
