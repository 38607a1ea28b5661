import type { ServiceApi } from '../../api.js';
import type { Comparison } from '../../../../src/model/rich-text/compare.js';

/** A named revision (contract notes 3: GET revisions). */
export interface Revision {
  id: string;
  title: string;
  label: string;
  docHistoryId: string;
  createdAt: string;
  user: { id: string; name: string };
}

/**
 * One entry of doc-sidebar-info: 1 edits, 2 restores, 3 revision snapshots, 4 comment activity, 5 behavior
 * history the integrator wrote (4 and 5 have no content to view; `content` is their one line).
 */
export interface HistoryEntry {
  id: string;
  content: string;
  createdAt: string;
  historyType: number;
  userId: string;
}

interface HistoryPage {
  histories: HistoryEntry[];
  isLastPage: boolean;
  users: Record<string, string>;
}

const PAGE_SIZE = 30;

/** The history and revision routes of src/routes/backend/collab-files.ts, as the page calls them. */
export class HistoryApi {
  constructor(private readonly api: ServiceApi) {}

  revisions(): Promise<Revision[]> {
    return this.api.call<Revision[]>(this.api.filePath('revisions'));
  }

  /** `count` entries are already shown: the next page after them, newest first. */
  entries(count: number): Promise<HistoryPage> {
    return this.api.call<HistoryPage>(this.api.filePath('doc-sidebar-info'), { query: { pageSize: PAGE_SIZE, count } });
  }

  createRevision(title: string, label?: string, docHistoryId?: string): Promise<Revision> {
    return this.api.call<Revision>(this.api.filePath('revisions'), { method: 'POST', body: { title, label, docHistoryId } });
  }

  restore(revisionId: string): Promise<{ version: number; docHistoryId: string }> {
    return this.api.call(this.api.filePath(`revisions/${encodeURIComponent(revisionId)}/restore`), { method: 'POST' });
  }

  /** What changed from the version `from` to the version `to` (rich text; history ids). */
  compare(from: string, to: string): Promise<Comparison> {
    return this.api.call<Comparison>(this.api.filePath(`history/${encodeURIComponent(from)}/compare/${encodeURIComponent(to)}`));
  }

  /** The Yjs state the history entry recorded. */
  content(docHistoryId: string): Promise<Uint8Array> {
    return this.api.bytes(this.api.filePath(`history/${encodeURIComponent(docHistoryId)}/content`));
  }
}
