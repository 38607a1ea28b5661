import type { StoredAttachment, UploadTicket } from '../../domain/attachments/attachment-service.js';
import type { HistoryPage, Revision } from '../../domain/content/revision-service.js';
import type { BackendEnvelope } from './backend.js';

/**
 * How the public client kits take the success of one call (client-kits.md): a write is an exact 204 with no
 * body, a read is 200 with the payload itself, no envelope, sometimes in a shape of its own. Calls not listed
 * here (import, export and their progress among them) keep the backend envelope, which is what the kits read
 * there; errors keep it everywhere.
 */
export type KitAnswer =
  | { kind: 'write' }
  | { kind: 'read'; body: (data: unknown) => unknown }
  /** a route answering a shape of its own (not the envelope): its whole success re-shaped */
  | { kind: 'own'; body: (answer: unknown) => unknown };

const write: KitAnswer = { kind: 'write' };
const read = <T>(body: (data: T) => unknown): KitAnswer => ({ kind: 'read', body: body as (data: unknown) => unknown });
const bare = read((data) => data);

/**
 * The Go kit declares a revision's `id` an integer (the Java kit reads a number as a string): the revision's
 * sequence in its file, 1 for the oldest. The list is newest first and revisions are never deleted (only with
 * their file), so the numbering is stable.
 */
const numberedRevisions = read((revisions: Revision[]) => revisions.map((revision, index) => ({ ...revision, id: revisions.length - index })));

/** The Go kit spells a history entry's `updatedAt` as `updateAt`: both are sent. */
const historiesWithUpdateAt = read((page: HistoryPage) => ({
  ...page,
  histories: page.histories.map((entry) => ({ ...entry, updateAt: entry.updatedAt })),
}));

/** The kits read the named bookmarks from `data`, the envelope's field, of a body they do not otherwise unwrap. */
const bookmarkContents = read((bookmarks: unknown[]) => ({ data: bookmarks }));

/**
 * The upload answer of the kits' attachment pair: `{code, data, body}`, the stored attachment in `body`, whose
 * `images`, `width`, `height` and `size` the Go kit declares strings (an unknown size: the empty string).
 */
const uploadedAttachment = read((attachment: StoredAttachment) => ({
  code: 0,
  data: null,
  body: { ...attachment, images: String(attachment.images), width: String(attachment.width ?? ''), height: String(attachment.height ?? ''), size: String(attachment.size) },
}));

/** The Java kit's attach: `{code, data, body}`, the attachments in `body` as a list. */
const attachedToCells = read((attachments: unknown[]) => ({ code: 0, data: null, body: attachments }));

/** compose-custom: `{status, tid}`, the status a string ("0", as the envelope's 0 means success). */
const composedChange = read((change: { tid: string }) => ({ status: '0', tid: change.tid }));

/** create preview answers `{code, message}` itself; the Go kit declares `code` a string, the empty string meaning success. */
const previewCreated: KitAnswer = { kind: 'own', body: (answer) => ({ code: '', message: (answer as { message: string }).message }) };

/** The Go kit declares every field of an upload ticket a string: `download` and `images` are `"true"` / `"false"`. */
const uploadTickets = read((tickets: UploadTicket[]) => tickets.map((ticket) => ({ ...ticket, download: String(ticket.download), images: String(ticket.images) })));

const API = '/sdk/v2/api';
const COLLAB_FILE = '/sdk/v2/collab-files/:fileId';

/** Every call of the kits' table that answers other than in the envelope, by `METHOD route-pattern`. */
export const KIT_ANSWERS: ReadonlyMap<string, KitAnswer> = new Map<string, KitAnswer>([
  [`GET ${API}/license/apps/:appId`, bare],
  [`PUT ${API}/license/apps/:appId/endpoint-url`, write],
  [`GET ${API}/license/users`, bare],
  [`POST ${API}/license/users/activate`, write],
  [`POST ${API}/license/users/deactivate`, write],
  [`POST ${API}/license/users/set-status`, write],
  [`POST ${API}/files`, write],
  [`DELETE ${API}/files/:fileId`, write],
  [`POST ${COLLAB_FILE}/copy`, write],
  [`GET ${COLLAB_FILE}/doc-sidebar-info`, historiesWithUpdateAt],
  [`GET ${COLLAB_FILE}/revisions`, numberedRevisions],
  [`GET ${COLLAB_FILE}/plain-text`, bare],
  [`POST ${COLLAB_FILE}/plain-text/wc`, bare],
  [`GET ${COLLAB_FILE}/mention-at-list`, bare],
  [`GET ${COLLAB_FILE}/comment-count`, bare],
  [`GET ${API}/files/:fileId/sheets/values`, bare],
  [`POST ${API}/files/:fileId/sheets/values`, write],
  [`POST ${API}/files/:fileId/sheets/merge-cells`, write],
  [`PUT ${API}/files/:fileId/sheets/values`, write],
  [`DELETE ${API}/files/:fileId/sheets/:sheetName/rows/:index`, write],
  [`POST ${API}/files/:fileId/sheets`, write],
  [`POST ${API}/files/:fileId/sheets/:sheetName/rows/:index`, write],
  [`POST ${API}/files/:fileId/sheets/attrs`, bare],
  [`GET ${API}/files/:fileId/sheets/locks`, bare],
  [`GET ${API}/files/:fileId/judge-table-locked`, bare],
  [`GET ${API}/files/:fileId/sheets/mention-at-position`, bare],
  [`GET ${API}/files/:fileId/documentpro/bookmark_content`, bookmarkContents],
  [`PUT ${API}/files/:fileId/documentpro/bookmark_content`, write],
  [`GET ${API}/files/content/:fileId/r2m`, bare],
  [`POST ${API}/files/edit/:fileId/compose-custom`, composedChange],
  [`POST ${API}/cloud-files/:fileId/create`, previewCreated],
  [`POST ${API}/files/:fileId/attach`, attachedToCells],
  [`POST ${API}/files/:fileId/sheets/upload-cell-image`, write],
  [`GET ${API}/files/:fileId/sheets/:sheetName/cells-image`, bare],
  ['POST /uploader/token', uploadTickets],
  ['POST /uploader/upload', uploadedAttachment],
]);

export function isBackendSuccess(payload: unknown): payload is BackendEnvelope<unknown> {
  return typeof payload === 'object' && payload !== null && (payload as { status?: unknown }).status === 0 && 'data' in payload;
}
