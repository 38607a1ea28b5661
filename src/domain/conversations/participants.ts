import { ApiError, Errors } from '../../errors.js';
import type { RequestAuth } from '../../auth/request-auth.js';
import type { AccessService } from '../../integrator/access-service.js';
import type { FileAccess, IntegratorUser, Permission } from '../../integrator/types.js';
import { labelContent, type ContentNode, type ParsedContent } from './content.js';

/** A user as conversation answers show them (`users` maps of comment-list and threads). */
export interface Participant {
  id: string;
  name: string;
  avatar: string;
}

/**
 * The people of a conversation, as the integrator knows them: who is acting and what they may do, and the
 * names of authors and mentioned users (one batched, cached `POST /users/batch/get`).
 */
export class Participants {
  constructor(private readonly access: AccessService) {}

  authorize(auth: RequestAuth, fileId: string, permission: Permission): Promise<FileAccess> {
    return this.access.authorize(auth, fileId, permission);
  }

  /**
   * Editing or deleting what someone else wrote needs `manageable` besides the `commentable` the caller was
   * authorized with (docs/CONVERSATIONS.md "Who may do what").
   */
  requireOwnerOrManager(caller: FileAccess, ownerId: string, what: string): void {
    if (caller.user.id === ownerId || caller.file.permissions.manageable === true) return;
    throw new ApiError(
      Errors.permissionDenied,
      `user ${caller.user.id} may not change ${what} of user ${ownerId}: that needs manageable, and the integrator answered manageable: false`,
      { permission: 'manageable' },
    );
  }

  /** Users by id; throws 74003 naming the ids the integrator does not know. */
  async requireKnown(auth: RequestAuth, userIds: readonly string[], role: string): Promise<Map<string, IntegratorUser>> {
    const users = await this.access.usersById(auth, userIds);
    const unknown = userIds.filter((id) => !users.has(id));
    if (unknown.length > 0) {
      throw new ApiError(Errors.mentionedUserUnknown, `${role} unknown to the integrator: ${unknown.join(', ')}`, { userIds: unknown });
    }
    return users;
  }

  /** Content with each mention named by the integrator; 74003 when a mentioned user is unknown. */
  async label(auth: RequestAuth, parsed: ParsedContent): Promise<{ nodes: ContentNode[]; text: string; mentioned: string[] }> {
    const users = await this.requireKnown(auth, parsed.mentioned, 'mentioned user');
    return { ...labelContent(parsed, (id) => users.get(id)!.name), mentioned: parsed.mentioned };
  }

  /** The `users` map of an answer: every id given, named by the integrator (an id it no longer knows keeps its id as name). */
  async directory(auth: RequestAuth, userIds: Iterable<string>): Promise<Record<string, Participant>> {
    const ids = [...new Set(userIds)];
    const users = await this.access.usersById(auth, ids);
    // fromEntries defines own keys, so an id such as `__proto__` is a key like any other
    return Object.fromEntries(
      ids.map((id) => {
        const user = users.get(id);
        return [id, { id, name: user?.name ?? id, avatar: user?.avatar ?? '' }];
      }),
    );
  }
}
