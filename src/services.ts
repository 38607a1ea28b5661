import { localCluster, type Cluster } from './cluster/cluster.js';
import type { Config } from './config.js';
import { AppService } from './domain/apps/app-service.js';
import { AttachmentService } from './domain/attachments/attachment-service.js';
import { FileService } from './domain/files/file-service.js';
import { SeatService } from './domain/seats/seat-service.js';
import { SheetService } from './domain/sheets/sheet-service.js';
import { CollabFileService } from './domain/content/collab-file-service.js';
import { ContentService } from './domain/content/content-service.js';
import { RevisionService } from './domain/content/revision-service.js';
import { BehaviorHistoryService } from './domain/behavior-history/behavior-history-service.js';
import { DocumentMarkdownService } from './domain/document-markdown/document-markdown-service.js';
import { bodyDateMentionsHook } from './domain/conversations/body-date-mentions.js';
import { suggestionEventsHook } from './domain/content/suggestion-events.js';
import { bodyMentionsHook } from './domain/conversations/body-mentions.js';
import { CommentService } from './domain/conversations/comment-service.js';
import type { ConversationDeps } from './domain/conversations/conversation-deps.js';
import { conversationMessage } from './domain/conversations/conversation-notices.js';
import { DateMentionService } from './domain/conversations/date-mention-service.js';
import { DiscussionService } from './domain/conversations/discussion-service.js';
import { Participants } from './domain/conversations/participants.js';
import { createSelectionModules, type SelectionModules } from './domain/conversations/selections/index.js';
import { MentionSuggestionService } from './domain/suggestions/mention-suggestions.js';
import { tableMessage } from './domain/tables/table-notices.js';
import { TableService } from './domain/tables/table-service.js';
import { fileContentEvent } from './events/builders.js';
import type { Storage } from './storage/database.js';
import { reportCallbackFailures } from './events/callback-failures.js';
import { DeliveryWorker } from './events/delivery.js';
import { EventAdmin } from './events/event-admin.js';
import { Outbox } from './events/outbox.js';
import { AccessService } from './integrator/access-service.js';
import { CallbackClient } from './integrator/callback-client.js';
import { TaskEngine } from './tasks/task-engine.js';
import { PreviewService } from './domain/preview/preview-service.js';
import { ImportService } from './domain/import/import-service.js';
import { OutsideImages } from './domain/import/outside-images.js';
import { SessionTickets } from './auth/session-tickets.js';
import { WorkerPool } from './domain/conversion/worker-pool.js';
import { CONVERT_WORKER } from './domain/export/convert.js';
import { ExportService } from './domain/export/export-service.js';
import { exportTaskHandler } from './domain/export/export-task.js';
import { ChromiumRenderer } from './domain/export/render/chromium.js';
import { Scratch } from './domain/conversion/scratch.js';
import { OutboundPolicy } from './net/outbound-policy.js';
import { PushService } from './domain/push/push-service.js';
import { ReportedEvents } from './domain/push/reported-events.js';

/** The domain services, built once over one storage; routes reach them through `app.services`. */
export interface Services {
  config: Config;
  storage: Storage;
  /** the folders under the data dir where converters may write (nothing goes to TMPDIR) */
  scratch: Scratch;
  /** what this process shares with the others of its deployment (Redis), or keeps to itself */
  cluster: Cluster;
  /** which addresses the service may fetch from: assertUrl when a URL is accepted, dispatcher() to fetch it */
  outbound: OutboundPolicy;
  apps: AppService;
  seats: SeatService;
  files: FileService;
  /** collaborative content: live Yjs documents shared by editors and the backend API (docs/CONTENT-MODEL.md) */
  content: ContentService;
  /** copy, plain text, word count, mentions and bookmarks of collaborative files */
  collabFiles: CollabFileService;
  /** edit history and named revisions */
  revisions: RevisionService;
  /** the table data API: tables, columns, rows and views of table bases */
  tables: TableService;
  /** the integrator's callbacks (contract notes 2) */
  callbacks: CallbackClient;
  /** who the caller is and what they may do with a file, per the integrator */
  access: AccessService;
  /** events to the integrator, stored with the change that caused them */
  outbox: Outbox;
  /** delivers the outbox; started and stopped with the server */
  delivery: DeliveryWorker;
  /** the admin view of deliveries: list, redeliver */
  events: EventAdmin;
  /** the spreadsheet values API: A1 ranges over spreadsheet content (docs/SHEETS.md) */
  sheets: SheetService;
  /** what a comment thread is anchored to, one module per editor kind (docs/CONVERSATIONS.md) */
  selections: SelectionModules;
  /** comments in threads on a selection of a file */
  comments: CommentService;
  /** a file's discussion (chat) */
  discussions: DiscussionService;
  /** dates mentioned in a file, with reminders the integrator sends */
  dateMentions: DateMentionService;
  /** what an editor's `@` dropdown offers: users and files, from the integrator's search callbacks */
  mentionSuggestions: MentionSuggestionService;
  /** images and attachments of files: upload tokens, uploads into the database, reads (docs/ATTACHMENTS.md) */
  attachments: AttachmentService;
  /** editor session tickets: what an editor page holds instead of the integrator's token and signature (docs/SDK.md) */
  sessionTickets: SessionTickets;
  /** outside image addresses in content fetched once and stored as attachments (docs/ATTACHMENTS.md "Outside images") */
  outsideImages: OutsideImages;
  /** asynchronous tasks (import, export, preview cache): each kind registers its handler (docs/TASKS.md) */
  tasks: TaskEngine;
  /** import of files as new collaborative files, as tasks (docs/IMPORT-EXPORT.md) */
  imports: ImportService;
  /** exports of collaborative files to docx, md, pdf, jpg, xlsx, csv, pptx, wps (docs/IMPORT-EXPORT.md "Export") */
  exports: ExportService;
  /** preview caches of non-collaborative files, as tasks (docs/IMPORT-EXPORT.md "Preview") */
  previews: PreviewService;
  /** messages to open editors of a file or of a user, on every process (docs/PUSH-AND-EVENTS.md) */
  push: PushService;
  /** what the integrator reports changed on its side, acted on by every process (docs/PUSH-AND-EVENTS.md) */
  reportedEvents: ReportedEvents;
  /** what happened to files outside the editor, told by the integrator (docs/BEHAVIOR-HISTORY.md) */
  behaviorHistories: BehaviorHistoryService;
  /** documents as Markdown and Markdown appended to documents (the kits' r2m and compose-custom) */
  documentMarkdown: DocumentMarkdownService;
}

export function createServices(config: Config, storage: Storage, cluster: Cluster = localCluster()): Services {
  const files = new FileService(storage);
  const outbound = new OutboundPolicy(config.outbound);
  const apps = new AppService(storage, outbound, cluster.changes);
  const outbox = new Outbox();
  const callbacks = new CallbackClient({ timeoutMs: config.integratorLink.callbackTimeoutMs, outbound });
  const delivery = new DeliveryWorker(storage, apps, callbacks, outbox, {
    timeoutMs: config.integratorLink.deliveryTimeoutMs,
    concurrency: config.integratorLink.deliveryConcurrency,
    retryBaseMs: config.integratorLink.deliveryRetryBaseMs,
    maxDelayMs: config.integratorLink.deliveryMaxDelayMs,
    maxAttempts: config.integratorLink.deliveryMaxAttempts,
    pollMs: config.integratorLink.deliveryPollMs,
    retentionMs: config.integratorLink.deliveryRetentionMs,
    outbound,
  });
  callbacks.setFailureListener(reportCallbackFailures(outbox, storage.db, (error) => delivery.log.error({ err: error }, 'recording a System event failed')));
  const content = new ContentService(storage, files, outbox, { ...config.content, fanout: cluster.fanout });
  content.addRecordHook(bodyMentionsHook);
  content.addRecordHook(bodyDateMentionsHook);
  content.addRecordHook(suggestionEventsHook);
  const seats = new SeatService(storage);
  const access = new AccessService(callbacks, config.integratorLink.permissionCacheMs, (app, userId) => seats.admit(app, userId), cluster.changes);
  cluster.changes.subscribe((change) => {
    if (change.kind === 'permissions') content.permissionsChanged(change);
  });
  const tables = new TableService({
    storage,
    files,
    authorize: (auth, fileId, permission) => access.authorize(auth, fileId, permission),
    // FileContent is a system event (contract notes 4): no user token is forwarded with it.
    contentChanged: async (db, change) => {
      const version = await files.bumpVersion(db, change.auth.app.id, change.fileId);
      await outbox.add(db, fileContentEvent({ appId: change.auth.app.id, fileId: change.fileId, userId: change.userId, version }));
    },
    tellEditors: (appId, fileId, change) => content.tellEditors(appId, fileId, tableMessage(change)),
  });
  const selections = createSelectionModules({ content, tables });
  const conversations: ConversationDeps = {
    storage,
    files,
    people: new Participants(access),
    outbox,
    changed: (appId, fileId, change) => content.tellEditors(appId, fileId, conversationMessage(change)),
  };
  const attachments = new AttachmentService(storage, apps, files, access, { limitBytes: config.uploadLimitBytes });
  const outsideImages = new OutsideImages(
    { outbound, content, attachments, storage, options: { mode: config.outsideImages, limitBytes: config.uploadLimitBytes, timeoutMs: config.imports.fetchTimeoutMs } },
    () => delivery.log,
  );
  content.addRecordHook(outsideImages.recordHook());
  const tasks = new TaskEngine(storage, config.tasks);
  const scratch = Scratch.open(config.dataDir);
  const imports = new ImportService({ storage, apps, files, content, tables, attachments, access, outbound, outsideImages, tasks, config: config.imports, soffice: config.soffice, scratch });
  const exports = new ExportService(
    {
      storage,
      files,
      content,
      tables,
      attachments,
      runner: new WorkerPool(CONVERT_WORKER, { memoryMb: config.export.workerMemoryMb }),
      renderer: new ChromiumRenderer(scratch, { executablePath: config.export.chromiumPath }),
    },
    { linkTtlMs: config.export.linkTtlMs, soffice: config.soffice, scratch },
  );
  tasks.register(exportTaskHandler(exports));
  const previews = new PreviewService({ apps, access, callbacks, outbound, tasks, imports, exports, config: config.imports });
  return {
    config,
    storage,
    scratch,
    cluster,
    outbound,
    apps,
    seats,
    files,
    content,
    collabFiles: new CollabFileService(storage, files, content, attachments),
    revisions: new RevisionService(storage, content, outbox),
    tables,
    callbacks,
    access,
    outbox,
    delivery,
    events: new EventAdmin(storage, delivery),
    sheets: new SheetService(files, content, access),
    selections,
    comments: new CommentService(conversations, selections),
    discussions: new DiscussionService(conversations),
    dateMentions: new DateMentionService(conversations),
    mentionSuggestions: new MentionSuggestionService({ files, access, callbacks }),
    attachments,
    outsideImages,
    sessionTickets: new SessionTickets(storage, config.editorSessionTtlMs),
    tasks,
    imports,
    exports,
    previews,
    push: new PushService(files, cluster.changes, content, (error) => delivery.log.error({ err: error }, 'applying a push or reported event to open editors failed')),
    reportedEvents: new ReportedEvents(storage, files, cluster.changes),
    behaviorHistories: new BehaviorHistoryService(storage, files, access),
    documentMarkdown: new DocumentMarkdownService(storage, content, attachments, imports),
  };
}
