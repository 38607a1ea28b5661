import type { TSchema } from '@sinclair/typebox';
import type { RequestAuth } from '../../../auth/request-auth.js';
import type { FileType } from '../../../model/file-types.js';

/**
 * What a comment thread is anchored to, one module per editor kind (docs/CONVERSATIONS.md "Selections").
 * A module owns its input schema, checks an input against the file's current content, turns it into a
 * stored anchor that follows later edits, and resolves stored anchors against the content as it is now.
 * Adding an editor kind adds one module and one line in `selections/index.ts`.
 */
export interface SelectionModule {
  /** stored in comment_threads.selection_kind */
  readonly name: string;
  /** the file types whose comments it anchors */
  readonly fileTypes: readonly FileType[];
  /** the `selection` input it accepts (validates the request and documents it in the OpenAPI) */
  readonly schema: TSchema;
  /**
   * Checks `input` against the file's current content and anchors it. Throws
   * `ApiError(Errors.selectionNotFound, …)` naming what is wrong when the input does not fit this kind or
   * names something the file does not hold.
   */
  anchor(context: SelectionContext, input: unknown): Promise<AnchoredSelection>;
  /** Where each stored anchor is now, in the order given; reads the file's content once for all of them. */
  resolve(context: SelectionContext, anchors: readonly unknown[]): Promise<ResolvedSelection[]>;
}

/** The file a selection belongs to, and the caller (table modules read through the table service). */
export interface SelectionContext {
  appId: string;
  fileId: string;
  auth: RequestAuth;
}

export interface AnchoredSelection {
  /** kept as JSON and handed back to `resolve` */
  anchor: Record<string, unknown>;
  /** spec `selectionTitle`: sheet id, slide id or table guid; absent for documents */
  title?: string;
  /** spec `selectionContent` (tables): the commented cell's value as text now */
  content?: string;
}

/** A selection as it is now: the module's own fields (e.g. `from`, `to`, `quote`) and whether it still exists. */
export interface ResolvedSelection {
  /** true once what was commented no longer exists (text deleted, row or slide removed) */
  detached: boolean;
  [field: string]: unknown;
}
