import { ApiError, Errors, isApiError } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { AccessService } from '../../integrator/access-service.js';
import type { CallbackClient, CallContext } from '../../integrator/callback-client.js';
import type { FileListEntry, IntegratorUser } from '../../integrator/types.js';
import type { FileService } from '../files/file-service.js';

/** Longest keyword (after trimming, in characters) the `@` dropdown may search for. */
export const MAX_KEYWORD_LENGTH = 100;

/** A user offered in the dropdown: always the four fields, `''` where the integrator gave none. */
export interface SuggestedUser {
  id: string;
  name: string;
  avatar: string;
  email: string;
}

/** Which list a failed callback would have filled. */
export type SuggestionSource = 'users' | 'files';

/** A list that could not be filled: its callback's error code (backend `status`) and message. */
export interface SuggestionFailure {
  source: SuggestionSource;
  status: number;
  message: string;
}

export interface MentionSuggestions {
  users: SuggestedUser[];
  /** file list entries (spec 2.3) as the integrator checked answer gave them: `fullUrl` on type `file` */
  files: FileListEntry[];
  /** lists left empty because their callback failed; `[]` when both were answered */
  failures: SuggestionFailure[];
}

export interface MentionSuggestionDeps {
  files: FileService;
  access: AccessService;
  callbacks: CallbackClient;
}

/** First occurrence of each id, in order. */
function uniqueById<T extends { id: string }>(items: Iterable<T>): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(item.id)) seen.set(item.id, item);
  return [...seen.values()];
}

function suggestedUser(user: IntegratorUser): SuggestedUser {
  return { id: user.id, name: user.name, avatar: user.avatar ?? '', email: user.email ?? '' };
}

/** The keyword trimmed; undefined when there is none (the recent lists are wanted); 74000 when too long. */
export function searchKeyword(raw: string | undefined): string | undefined {
  const keyword = raw?.trim() ?? '';
  if (keyword.length === 0) return undefined;
  const length = [...keyword].length;
  if (length > MAX_KEYWORD_LENGTH) {
    throw new ApiError(Errors.invalidConversationParams, `keyword must be at most ${MAX_KEYWORD_LENGTH} characters after trimming (got ${length})`);
  }
  return keyword;
}

/**
 * What an editor's `@` dropdown offers (docs/CONVERSATIONS.md "Mention suggestions"): users to mention and
 * files to link, as the integrator chooses them. Nothing is cached here beyond the access checks.
 *
 * Without a keyword, the integrator's recent users and recent files are asked in parallel; when one of the
 * two fails, the other list is still answered and the failure is named in `failures` (the dropdown shows what
 * it has); when both fail, the request fails with the users' error, `data.failures` naming both. With a
 * keyword, one `POST /search` fills both lists, so its failure fails the request.
 */
export class MentionSuggestionService {
  constructor(private readonly deps: MentionSuggestionDeps) {}

  async suggest(auth: RequestAuth, fileId: string, rawKeyword: string | undefined): Promise<MentionSuggestions> {
    const keyword = searchKeyword(rawKeyword);
    await this.deps.access.authorize(auth, fileId, 'readable');
    await this.deps.files.get(auth.app.id, fileId);
    const call = this.deps.access.callContext(auth);
    if (keyword === undefined) return this.recent(call, fileId);

    const found = await this.deps.callbacks.search(call, { fileId, keyword });
    return {
      users: uniqueById([...found.recentUsers.results, ...found.collaborators.results, ...found.teamMembers.results].map(suggestedUser)),
      files: uniqueById(found.files.results),
      failures: [],
    };
  }

  private async recent(call: CallContext, fileId: string): Promise<MentionSuggestions> {
    const [users, files] = await Promise.allSettled([this.deps.callbacks.recentUsers(call, fileId), this.deps.callbacks.recentFiles(call, fileId)]);
    const failures: Array<SuggestionFailure & { error: ApiError }> = [];
    const failed = (source: SuggestionSource, reason: unknown) => {
      // only the integrator's failures are tolerated; a fault of ours is not hidden in a list
      if (!isApiError(reason)) throw reason;
      failures.push({ source, status: reason.spec.code, message: reason.message, error: reason });
    };
    if (users.status === 'rejected') failed('users', users.reason);
    if (files.status === 'rejected') failed('files', files.reason);
    const reported = failures.map(({ source, status, message }) => ({ source, status, message }));
    if (users.status === 'rejected' && files.status === 'rejected') {
      const [first, second] = failures as [(typeof failures)[0], (typeof failures)[0]];
      throw new ApiError(first.error.spec, `no suggestions: ${first.error.message}; ${second.error.message}`, { failures: reported });
    }
    return {
      users: users.status === 'fulfilled' ? uniqueById(users.value.map(suggestedUser)) : [],
      files: files.status === 'fulfilled' ? uniqueById(files.value) : [],
      failures: reported,
    };
  }
}
